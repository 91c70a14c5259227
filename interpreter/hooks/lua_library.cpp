// The charged library: stock Lua functions whose work in C the instruction budget cannot see.
//
// The count hook fires between VM instructions, so a library call is one instruction however long
// it runs: `table.move({}, 1, 1 << 50, 2)` never returns, and `utf8.len` of a long string or
// `table.sort` of a large table run for minutes inside a budget meant to bound them. Each function
// below charges the budget for its work before doing it, or right after when the work is bounded
// and only known then:
//  * one instruction per element a table function reads, writes or moves, and per comparison a
//    sort makes (through its own comparator, so a metamethod cannot change the count);
//  * one instruction per kScannedBytesPerInstruction bytes a function scans in its strings;
//  * one instruction per value a function returns.
// Work that allocates (string.rep's copies, concatenation) is charged by the allocator as well.
#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <utility>

#include "hooks/lua_sandbox_internal.h"

extern "C" {
#include <lauxlib.h>
#include <lua.h>
#include <lualib.h>
}

// As in lua_host.cpp: these are C functions that Lua calls. They may raise Lua errors, so their
// frames hold only trivially destructible objects, and no C++ exception may leave them.

namespace palace::hooks::detail {
namespace {

// Elements in [first, last]; none when last < first.
std::uint64_t span(lua_Integer first, lua_Integer last) {
  if (last < first) return 0;
  const lua_Unsigned n = static_cast<lua_Unsigned>(last) - static_cast<lua_Unsigned>(first);
  return n == ~lua_Unsigned{0} ? n : n + 1;
}

std::uint64_t string_argument_bytes(lua_State* L) {
  std::uint64_t bytes = 0;
  for (int i = 1, n = lua_gettop(L); i <= n; ++i)
    if (lua_type(L, i) == LUA_TSTRING) bytes += lua_rawlen(L, i);
  return bytes;
}

// Runs the stock function `name` of the library kept in upvalue 1, on the arguments as they are.
// The stock functions use no upvalues of their own, so calling them directly is the same as Lua
// calling them, error messages included.
int stock(lua_State* L, const char* name) {
  lua_getfield(L, lua_upvalueindex(1), name);
  const lua_CFunction f = lua_tocfunction(L, -1);
  lua_pop(L, 1);
  return f(L);
}

// For functions whose work is at most proportional to the strings they are given.
int scanning(lua_State* L, const char* name) {
  charge(L, 1 + string_argument_bytes(L) / kScannedBytesPerInstruction);
  return stock(L, name);
}

// ... and that return as many values as they decode.
int scanning_with_results(lua_State* L, const char* name) {
  const int results = scanning(L, name);
  charge(L, static_cast<std::uint64_t>(results));
  return results;
}

// The integer at `arg`, or the length of the table at 1 when it is absent (read once: a __len
// metamethod may answer differently each time).
lua_Integer last_index(lua_State* L, int arg) {
  return lua_isnoneornil(L, arg) ? luaL_len(L, 1) : luaL_checkinteger(L, arg);
}

// --- string ---------------------------------------------------------------------------------

// string.rep("", n) copies nothing n times: the count is charged, the bytes are allocated.
int string_rep(lua_State* L) {
  luaL_checkstring(L, 1);
  charge(L, span(1, luaL_checkinteger(L, 2)));
  return stock(L, "rep");
}

int string_byte(lua_State* L) {
  const int results = stock(L, "byte");
  charge(L, static_cast<std::uint64_t>(results));
  return results;
}

// Without addresses, as tostring (lua_host.cpp): "%p", and "%s" of a table or a function, would
// print one that differs from run to run and from call to call.
int string_format(lua_State* L) {
  std::size_t length = 0;
  const char* format = luaL_checklstring(L, 1, &length);
  for (std::size_t i = 0; i + 1 < length; ++i) {
    if (format[i] != '%') continue;
    std::size_t j = i + 1;
    while (j < length && format[j] != '\0' && std::strchr("-+ #0123456789.", format[j]) != nullptr) ++j;
    if (j < length && format[j] == 'p')
      return luaL_error(L, "invalid conversion '%%p' to 'format': an address differs from run to run");
    i = j;
  }
  for (int i = 2, n = lua_gettop(L); i <= n; ++i) {
    const int t = lua_type(L, i);
    if (t != LUA_TTABLE && t != LUA_TFUNCTION) continue;
    if (luaL_getmetafield(L, i, "__tostring") != LUA_TNIL) {
      lua_pop(L, 1);
      continue;
    }
    lua_pushstring(L, luaL_typename(L, i));
    lua_replace(L, i);
  }
  return scanning(L, "format");
}
int string_pack(lua_State* L) { return scanning(L, "pack"); }
int string_packsize(lua_State* L) { return scanning(L, "packsize"); }
int string_unpack(lua_State* L) { return scanning_with_results(L, "unpack"); }

const luaL_Reg kString[] = {{"rep", &string_rep},       {"byte", &string_byte},
                            {"format", &string_format}, {"pack", &string_pack},
                            {"packsize", &string_packsize}, {"unpack", &string_unpack},
                            {nullptr, nullptr}};

// --- table ----------------------------------------------------------------------------------

int table_move(lua_State* L) {
  charge(L, span(luaL_checkinteger(L, 2), luaL_checkinteger(L, 3)));
  return stock(L, "move");
}

// The optional bounds at `at` and `at + 1` are read, charged and written back as numbers, so the
// stock function does exactly the work charged for.
void charge_bounds(lua_State* L, int at) {
  lua_settop(L, at + 1);
  const lua_Integer first = luaL_optinteger(L, at, 1);
  const lua_Integer last = last_index(L, at + 1);
  charge(L, span(first, last));
  lua_pushinteger(L, first);
  lua_replace(L, at);
  lua_pushinteger(L, last);
  lua_replace(L, at + 1);
}

int table_concat(lua_State* L) {
  if (lua_type(L, 1) != LUA_TTABLE) return stock(L, "concat");  // it reports the error
  charge_bounds(L, 3);
  return stock(L, "concat");
}

int table_unpack(lua_State* L) {
  charge_bounds(L, 2);
  return stock(L, "unpack");
}

// table.insert and table.remove as in ltablib.c, with the shifting charged. They cannot hand a
// length to the stock ones, which would read __len again.
int table_insert(lua_State* L) {
  if (lua_type(L, 1) != LUA_TTABLE) return stock(L, "insert");
  const lua_Integer end = luaL_intop(+, luaL_len(L, 1), 1);  // first empty element
  lua_Integer pos = end;
  switch (lua_gettop(L)) {
    case 2:
      break;
    case 3:
      pos = luaL_checkinteger(L, 2);
      luaL_argcheck(L, static_cast<lua_Unsigned>(pos) - 1u < static_cast<lua_Unsigned>(end), 2,
                    "position out of bounds");
      charge(L, static_cast<lua_Unsigned>(end) - static_cast<lua_Unsigned>(pos));
      for (lua_Integer i = end; i > pos; --i) {
        lua_geti(L, 1, i - 1);
        lua_seti(L, 1, i);
      }
      break;
    default:
      return luaL_error(L, "wrong number of arguments to 'insert'");
  }
  lua_seti(L, 1, pos);
  return 0;
}

int table_remove(lua_State* L) {
  if (lua_type(L, 1) != LUA_TTABLE) return stock(L, "remove");
  const lua_Integer size = luaL_len(L, 1);
  lua_Integer pos = luaL_optinteger(L, 2, size);
  if (pos != size)
    luaL_argcheck(L, static_cast<lua_Unsigned>(pos) - 1u <= static_cast<lua_Unsigned>(size), 2,
                  "position out of bounds");
  if (pos < size) charge(L, static_cast<lua_Unsigned>(size) - static_cast<lua_Unsigned>(pos));
  lua_geti(L, 1, pos);
  for (; pos < size; ++pos) {
    lua_geti(L, 1, pos + 1);
    lua_seti(L, 1, pos);
  }
  lua_pushnil(L);
  lua_seti(L, 1, pos);
  return 1;
}

// Every comparison of a sort goes through here: upvalue 1 is the script's comparator, or nil.
int charged_comparison(lua_State* L) {
  charge(L, 1);
  if (lua_isnil(L, lua_upvalueindex(1))) {
    lua_pushboolean(L, lua_compare(L, 1, 2, LUA_OPLT));
    return 1;
  }
  lua_settop(L, 2);
  lua_pushvalue(L, lua_upvalueindex(1));
  lua_insert(L, 1);
  lua_call(L, 2, 1);
  return 1;
}

int table_sort(lua_State* L) {
  if (!lua_isnoneornil(L, 2)) luaL_checktype(L, 2, LUA_TFUNCTION);
  lua_settop(L, 2);
  lua_pushcclosure(L, &charged_comparison, 1);
  return stock(L, "sort");
}

const luaL_Reg kTable[] = {{"move", &table_move},     {"concat", &table_concat}, {"unpack", &table_unpack},
                           {"insert", &table_insert}, {"remove", &table_remove}, {"sort", &table_sort},
                           {nullptr, nullptr}};

// --- utf8 -----------------------------------------------------------------------------------

int utf8_len(lua_State* L) { return scanning(L, "len"); }
int utf8_offset(lua_State* L) { return scanning(L, "offset"); }
int utf8_codepoint(lua_State* L) { return scanning_with_results(L, "codepoint"); }

// One step of utf8.codes: the stock step skips continuation bytes from wherever it is asked to
// start, so one step can scan the whole string. Upvalue 1 is the stock step.
int charged_codes_step(lua_State* L) {
  std::size_t length = 0;
  luaL_checklstring(L, 1, &length);
  const lua_Integer from = lua_tointeger(L, 2);
  const int results = lua_tocfunction(L, lua_upvalueindex(1))(L);
  const lua_Integer to = results == 2 ? lua_tointeger(L, -2) : static_cast<lua_Integer>(length);
  charge(L, span(from, to) / kScannedBytesPerInstruction);
  return results;
}

int utf8_codes(lua_State* L) {
  const int results = stock(L, "codes");  // step, s, 0
  lua_pushvalue(L, -results);
  lua_pushcclosure(L, &charged_codes_step, 1);
  lua_replace(L, -results - 1);
  return results;
}

const luaL_Reg kUtf8[] = {{"len", &utf8_len},
                          {"offset", &utf8_offset},
                          {"codepoint", &utf8_codepoint},
                          {"codes", &utf8_codes},
                          {nullptr, nullptr}};

// --- base -----------------------------------------------------------------------------------

int base_tonumber(lua_State* L) { return scanning(L, "tonumber"); }

// Standard output belongs to the program (its answers are read by other programs), so a script's
// print goes to standard error. It is charged for the bytes it writes, and what one call (or the
// top level) and one interpreter may write is capped: a hook runs thousands of times a search.
int base_print(lua_State* L) {
  const int n = lua_gettop(L);
  luaL_Buffer line;
  luaL_buffinit(L, &line);
  for (int i = 1; i <= n; ++i) {
    if (i > 1) luaL_addchar(&line, '\t');
    luaL_tolstring(L, i, nullptr);
    luaL_addvalue(&line);
  }
  luaL_addchar(&line, '\n');
  luaL_pushresult(&line);
  std::size_t length = 0;
  const char* text = lua_tolstring(L, -1, &length);
  charge(L, 1 + length / kBytesPerInstruction);
  LuaHostState& h = state_of(L);
  const std::size_t room = std::min(kMaxPrintPerCall - std::min(h.printed, kMaxPrintPerCall),
                                    kMaxPrintPerHost - std::min(h.printed_total, kMaxPrintPerHost));
  if (room == 0) return 0;
  const std::size_t written = std::min(length, room);
  h.printed += written;
  h.printed_total += written;
  std::fwrite(text, 1, written, stderr);
  if (written < length)
    std::fprintf(stderr, "\n[print: output cut, at most %zu bytes a call and %zu an interpreter]\n", kMaxPrintPerCall,
                 kMaxPrintPerHost);
  std::fflush(stderr);
  return 0;
}

const luaL_Reg kBase[] = {{"tonumber", &base_tonumber}, {"print", &base_print}, {nullptr, nullptr}};

// Replaces functions of the table on top of the stack, which stays there. The replacements share
// one upvalue: a copy of the table as it was, from which they call the stock functions.
void replace_functions(lua_State* L, const luaL_Reg* functions) {
  push_table_copy(L);
  luaL_setfuncs(L, functions, 1);
}

}  // namespace

void install_charged_library(lua_State* L) {
  const std::pair<const char*, const luaL_Reg*> libraries[] = {
      {LUA_STRLIBNAME, kString}, {LUA_TABLIBNAME, kTable}, {LUA_UTF8LIBNAME, kUtf8}};
  for (const auto& [name, functions] : libraries) {
    lua_getglobal(L, name);
    replace_functions(L, functions);
    lua_pop(L, 1);
  }
  lua_pushglobaltable(L);
  replace_functions(L, kBase);
  lua_pop(L, 1);
}

}  // namespace palace::hooks::detail
