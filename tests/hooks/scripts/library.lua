-- Library functions whose work happens in C, run far past the budget: each must be stopped.
local long = string.rep("\u{e9}", 4000)  -- 8000 bytes
local other = long:sub(1, -2) .. "y"

function move_huge() table.move({}, 1, 1 << 50, 2) end
function sort_large() local t = {} for i = 1, 50000 do t[i] = -i end table.sort(t) end
function sort_huge_len()
  table.sort(setmetatable({}, {__len = function() return 1 << 30 end}), rawequal)
end
function utf8_len_loop() while true do utf8.len(long) end end
function codes_step_loop()
  local step = utf8.codes(string.rep("\x80", 8000))
  while true do step("", 0) step(long, 1) end
end
function compare_loop() while long ~= other do end end
function less_loop() while long > other do end end
function rep_empty() return #string.rep("", 1 << 50) end
function unpack_huge() return select("#", table.unpack({}, 1, 1 << 40)) end
function concat_huge_len()
  return table.concat(setmetatable({}, {__len = function() return 1 << 40 end,
                                        __index = function() return "" end}))
end
function insert_loop()
  local t = {} for i = 1, 5000 do t[i] = i end
  while true do table.insert(t, 1, 0) table.remove(t, 1) end
end
function remove_huge_len()
  local t = setmetatable({}, {__len = function() return 1 << 40 end})
  return table.remove(t, 1)
end

function tonumber_loop() local s = string.rep("9", 8000) while true do tonumber(s) end end
function byte_loop() while true do long:byte(1, -1) end end
function format_loop() local f = string.rep("%%", 4000) while true do string.format(f) end end

-- The same functions used as intended answer as the stock ones do.
function ordinary()
  local out = {}
  local function add(...) for i = 1, select("#", ...) do out[#out + 1] = tostring((select(i, ...))) end end
  local t = {5, 3, 9, 1}
  table.sort(t) add(table.concat(t, ","))
  table.sort(t, function(a, b) return a > b end) add(table.concat(t, ","))
  table.insert(t, 7) table.insert(t, 1, 0) add(table.concat(t, ","))
  add(table.remove(t), table.remove(t, 1), table.concat(t, ","))
  add(table.concat(table.move({1, 2, 3}, 1, 3, 2), ","))
  add(table.unpack({"a", "b", "c"}, 2))
  add(string.rep("ab", 3, "-"), ("x"):rep(2), ("\1\2"):byte(1, -1))
  add(utf8.len("h\u{e9}llo"), utf8.codepoint("\u{e9}"), utf8.offset("h\u{e9}llo", 3))
  for p, c in utf8.codes("a\u{e9}b") do add(p .. ":" .. c) end
  add(tonumber("ff", 16), tonumber(" 10 "), string.format("%d-%s", 4, "x"))
  add(pcall(table.insert, t, 9, 1))
  return table.concat(out, " ")
end

function pattern_functions()
  return table.concat({type(string.find), type(string.match), type(string.gmatch), type(string.gsub)}, " ")
end

function method_find() return ("abc"):find("b") end
