-- Hooks that misbehave, one way each, to show a variant's bad script ends with a clear error.
function loops(a, b)
  while true do end
end

function eats_memory(a, b)
  local t, s = {}, string.rep("x", 4096)
  while true do t[#t + 1] = s .. #t end
end

function fails(a, b)
  return a.nothing.here
end

function answers_a_number(a, b)
  return 42
end

function loops_at_runtime(move)
  while true do end
end
