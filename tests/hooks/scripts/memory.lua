-- Memory bombs.
function grow()
  local t = {}
  while true do t[#t + 1] = string.rep("x", 1000) end
end

function huge_rep()
  local s = string.rep("x", 1 << 30)
  return #s
end

function too_large_rep()
  local s = string.rep("x", 1 << 40)
  return #s
end

function grow_in_pcall()
  while true do pcall(grow) end
end

function concat()
  local s = string.rep("x", 1 << 20)
  while true do s = s .. s end
end

function jump()
  local s = string.rep("x", 1500000)
  local t = s .. s
  return #t
end

function gsub_growth()
  local s = string.rep("x", 1500000)
  local r = s:gsub(".", "yyy")
  return #r
end
