// Bounded replacements for string.find, string.match, string.gmatch and string.gsub.
//
// Lua's own matcher backtracks in C, where the instruction budget's count hook never fires;
// these match exactly like Lua 5.4 but count their steps and charge them to the budget (the
// reasons are spelled out in lua_patterns.cpp). The host installs them in the string table
// when it sets up the sandbox (lua_host.cpp).
#pragma once

struct lua_State;

namespace palace::hooks::detail {

int pattern_find(lua_State* L);
int pattern_match(lua_State* L);
int pattern_gmatch(lua_State* L);
int pattern_gsub(lua_State* L);

}  // namespace palace::hooks::detail
