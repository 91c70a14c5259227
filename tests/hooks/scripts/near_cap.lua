-- tests/repro/audit-4/gc_near_cap.lua with its counts as arguments: fills the heap with 1000
-- strings of 8 KB and `tables` small tables, then makes `garbage` tables it drops at once.
function fill(tables, garbage)
  local keep = {}
  local s = "x" for j = 1, 12 do s = s .. s end s = s .. s:sub(1, 3900)
  for i = 1, 1000 do keep[i] = s .. i end
  local node = nil
  for i = 1, tables do node = {node} end
  local x
  for i = 1, garbage do x = {} end
  return true
end
