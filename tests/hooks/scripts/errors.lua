-- Ordinary runtime errors.
function boom()
  error("boom")
end

function index_nil()
  local t = nil
  return t.field
end

function multiline()
  error("first line\nsecond line")
end

function table_error()
  error({code = 1})
end

function level_zero()
  error("no position", 0)
end

function returns_function()
  return function() end
end

function returns_deep()
  local t = {}
  for _ = 1, 40 do t = {t} end
  return t
end
