-- Infinite loops, plain and hidden behind protected calls.
function spin()
  while true do end
end

function spin_in_pcall()
  while true do pcall(function() while true do end end) end
end

function spin_in_xpcall()
  while true do xpcall(function() while true do end end, function() while true do end end) end
end

function spin_after_close()
  local guard <close> = setmetatable({}, {__close = function() while true do end end})
  while true do end
end
