-- Memory bombs.
function grow()
  local t, s = {}, string.rep("x", 1000)
  while true do t[#t + 1] = s .. #t end
end

function long_rep()
  local s = string.rep("x", 100000)
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
  local s = string.rep("x", 1000)
  while true do s = s .. s end
end

function jump()
  local t = {}
  for i = 1, 1 << 20 do t[i] = i end
  return #t
end

-- One buffer, inside one call, grown from nothing to past the cap out of an 8 KB string.
function buffer_growth()
  local t = {}
  local s = string.rep("x", 8000)
  for i = 1, 600 do t[i] = s end
  return #table.concat(t)
end

-- The longest string allowed, and its comparisons.
function longest_string()
  local s = string.rep("x", 8192)
  return #s, s == s:sub(1, -2) .. "x"
end
