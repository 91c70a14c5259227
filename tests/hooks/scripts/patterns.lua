-- Pattern matching: runaway backtracking is stopped, ordinary patterns work as in Lua.
local runaway = ".-.-.-.-b"

function find_runaway()
  return string.find(string.rep("a", 3000), runaway)
end

function method_match_runaway()
  local s = string.rep("a", 3000)
  return s:match(runaway)
end

function gmatch_runaway()
  local n = 0
  for _ in string.rep("a", 3000):gmatch(runaway) do n = n + 1 end
  return n
end

function gsub_runaway()
  return (string.gsub(string.rep("a", 3000), runaway, "x"))
end

function runaway_in_pcall()
  local ok = pcall(string.find, string.rep("a", 3000), runaway)
  return ok
end

-- Each call is cheap enough on its own; the loop must still run out of budget quickly.
calls = 0
function many_quadratic_finds()
  local s = string.rep("a", 150)
  while true do
    calls = calls + 1
    s:find("a*b")
  end
end

function call_count()
  return calls
end

-- All the results of f(...) as one string.
local function show(...)
  local out = {}
  for i = 1, select("#", ...) do out[i] = tostring((select(i, ...))) end
  return table.concat(out, " ")
end

local function collect(s, pattern)
  local out = {}
  for a, b in s:gmatch(pattern) do out[#out + 1] = b and (a .. "=" .. b) or a end
  return table.concat(out, ",")
end

-- Each case lists the results of its calls, separated by " | ".
local cases = {
  plain_long = function()
    local s = string.rep("a", 100000) .. "needle.*"
    return show(s:find("needle.*", 1, true)) .. " | " .. show(s:find("needle")) .. " | " ..
           show(s:find("needle", -3, true))
  end,
  plain_worst_case = function()
    local s = string.rep("a", 200000)
    return show(s:find(string.rep("a", 100000) .. "b", 1, true))
  end,
  square = function() return show(("e4"):match("^(%a)(%d+)$")) end,
  anchored = function() return show(("xe4"):match("^(%a)(%d+)$")) .. " | " .. show(("e4x"):find("^%a%d")) end,
  captures = function() return show(("key = value"):find("(%w+)%s*=%s*(%w+)")) end,
  positions = function() return show(("hello"):match("()ll()")) end,
  balanced = function() return show(("f(a(b)c) x"):match("%b()")) .. " | " .. show(("[[x]]y"):find("%b[]")) end,
  frontier = function() return show(("THE (quick) fox"):gsub("%f[%a]%a+", string.lower)) end,
  gmatch = function() return collect("one two  three", "%a+") .. " | " .. collect("a=1, b=2", "(%w+)=(%w+)") end,
  gsub_string = function() return show(("hello world"):gsub("(%w+)", "<%1>")) end,
  gsub_table = function() return show(("$name is $age"):gsub("%$(%w+)", {name = "Ann", age = 7})) end,
  gsub_function = function()
    return show(("a1b22c"):gsub("%d+", function(d) return "#" .. #d end)) .. " | " ..
           show(("abc"):gsub("%w", function(c) if c == "b" then return "B" end end))
  end,
  gsub_limit = function() return show(("aaa"):gsub("a", "b", 2)) .. " | " .. show(("abc"):gsub("", "-")) end,
  trim = function()
    local long = string.rep(" ", 500) .. string.rep("x y ", 500) .. string.rep(" ", 500)
    return show(("  padded  "):match("^%s*(.-)%s*$")) .. " | " .. show(#long:match("^%s*(.-)%s*$"))
  end,
  fen = function()
    local fen = "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq e3 0 1"
    return show(fen:match("^(%S+)%s+(%S+)%s+(%S+)%s+(%S+)%s+(%S+)%s+(%S+)$"))
  end,
  malformed = function()
    return show(pcall(string.find, "abc", "[a")) .. " | " .. show(pcall(string.gsub, "abc", "(a)", "%2"))
  end,
  no_match = function() return show(("abc"):find("d")) .. " | " .. show(("abc"):match("b", 3)) .. " | " ..
                                show(("abc"):find("", 10)) end,
}

function ordinary(name)
  return cases[name]()
end
