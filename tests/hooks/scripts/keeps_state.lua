-- Every way a call could try to keep state for the next, one function each
-- (LuaHost.NothingACallDoesOutlivesIt): each is refused, or put back once the call ends.
local n = 0
local seen = {}
local config = {sub = {depth = 1}, list = {1, 2, 3}}
local saved = nil
local Point = {}
Point.__index = Point
function Point.new(x) return setmetatable({x = x}, Point) end
function Point:double() return self.x * 2 end
local origin = Point.new(0)
total = 0

function set_global() total = total + 1 return total end
function set_through_g() _G.total = 5 return _G.total end
function fill_local_table() seen[#seen + 1] = 1 return #seen end
function fill_nested_table() config.sub.depth = 2 return config.sub.depth end
function fill_library() string.calls = 1 return string.calls end
function change_metatable() getmetatable(origin).double = nil end
function replace_metatable() setmetatable(config, nil) end
function raw_write() return type(rawset) end
function count_upvalue() n = n + 1 return n end
function replace_upvalue_table() seen = {1, 2} return #seen end
function read_upvalue_table() return #seen end
function save_closure() saved = function() return "kept" end return saved() end
function read_closure() return saved == nil end
function count_then_fail() n = n + 1 error("failed with n = " .. n) end
function change_env() _ENV = {}; x = 1 return x end

-- What the frozen tables still answer, as they did before they froze.
function reads()
  local keys = {}
  for k in pairs(config) do keys[#keys + 1] = k end
  table.sort(keys)
  local list = {}
  for i, v in ipairs(config.list) do list[i] = v * 10 end
  local fresh = Point.new(21)
  return table.concat(keys, ",") .. " " .. table.concat(list, ",") .. " " .. #config.list .. " " ..
         tostring(next(config) ~= nil) .. " " .. rawget(config, "sub").depth .. " " .. rawlen(config.list) .. " " ..
         origin:double() .. " " .. fresh:double() .. " " .. tostring(getmetatable(origin) == Point) .. " " ..
         tostring(getmetatable(fresh) == Point) .. " " .. tostring(select("#", table.unpack(config.list)))
end

-- A table of the call is the call's own to change.
function own_table() local t = {} t.a = 1 t[#t + 1] = 2 rawequal(t, t) return t.a + t[1] end

function no_randomness()
  return tostring(math.random) .. " " .. tostring(math.randomseed) .. " " .. tostring({}) .. " " .. tostring(print) .. " " ..
         string.format("%s", {})
end
function format_address() return string.format("%p", {}) end
