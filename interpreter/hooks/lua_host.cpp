#include "hooks/lua_host.h"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <map>
#include <set>

#include "core/text.h"
#include "core/text_file.h"
#include "hooks/lua_sandbox_internal.h"
#include "position/move_hooks.h"

extern "C" {
#include <lauxlib.h>
#include <lua.h>
#include <lualib.h>
}

// Ground rules for this file, because liblua is C and reports errors with longjmp:
//  * A Lua API call that can raise (anything that may allocate, call metamethods or error on
//    purpose) only runs in a frame whose automatic objects are all trivially destructible,
//    up to the nearest lua_pcall. Jumping over a std::string or a vector is undefined behaviour.
//  * No C++ exception may leave a function that Lua calls (C functions, the hook, the
//    allocator): Lua's C frames have no unwind information.
// Hence the split between "trivial" C functions that talk to Lua and noexcept C++ helpers
// that never call a raising Lua API.

namespace palace::hooks {

// ---------------------------------------------------------------------------------------------
// Host state (the struct itself is in lua_sandbox_internal.h, shared with the charged library)

namespace detail {

LuaHostState& state_of(lua_State* L) {
  void* ud = nullptr;
  lua_getallocf(L, &ud);
  return *static_cast<LuaHostState*>(ud);
}

// First Lua frame at or above `level`: C frames (string.rep, error, ...) have no line.
bool locate(lua_State* L, int level, const char** source, int* line) {
  lua_Debug ar;
  for (; lua_getstack(L, level, &ar) != 0; ++level) {
    if (lua_getinfo(L, "Sl", &ar) != 0 && ar.currentline > 0) {
      *source = ar.source;
      *line = ar.currentline;
      return true;
    }
  }
  return false;
}

void push_table_copy(lua_State* L) {
  lua_newtable(L);
  lua_pushnil(L);
  while (lua_next(L, -3) != 0) {
    lua_pushvalue(L, -2);
    lua_insert(L, -2);
    lua_rawset(L, -4);
  }
}

}  // namespace detail

namespace {

using State = detail::LuaHostState;
using detail::locate;
using detail::NativeEntry;
using detail::kBytesPerInstruction;
using detail::kMaxStringBytes;
using detail::state_of;

constexpr int kMaxDepth = 32;
constexpr int kHookGranularity = 1000;
// One instruction can copy megabytes (`s = s .. s`), so counting instructions alone would let
// quadratic string building run for minutes inside the budget: allocation is charged too, at
// kBytesPerInstruction.
// Allocating this much makes the hook run at the next instruction to charge it.
constexpr std::size_t kChurnCheck = kBytesPerInstruction * kHookGranularity;
constexpr std::size_t kMaxMessage = 1000;
constexpr std::size_t kMaxQuoted = 300;  // paths are shown whole up to this length
constexpr std::string_view kTopLevel = "main chunk";
// An emergency collection (Lua runs one when an allocation is refused, then retries) goes through
// the whole heap; it is charged as allocating the heap in use would be. At the 16 MiB cap that is
// 65,536 instructions, so a call keeping its heap just under the cap can force 15 at most.
constexpr std::size_t kCollectedBytesPerInstruction = kBytesPerInstruction;
// A new string's block holds a header before its characters; this bounds the header's size.
constexpr std::size_t kStringHeader = 64;

// Registry keys: the addresses are what matters.
char kTemplateKey;  // table of everything a script's environment starts with
char kEnvsKey;      // display name -> the functions its top level defined (do_load)
char kChunksKey;    // display name -> main chunk (pins the chunk's source string)
char kAbortKey;     // preallocated error value used once a limit is hit
// Frozen tables (see freeze): each proxy's shadow, each shadow's proxy, each proxy's metatable
// as its script left it.
char kShadowsKey;
char kOwnersKey;
char kMetasKey;

std::string_view chunk_label(const char* source) {
  if (source == nullptr) return {};
  if (*source == '@' || *source == '=') return source + 1;
  return source;
}

// Collapses a message onto one line and bounds its length.
std::string one_line(std::string_view in) {
  std::string out;
  out.reserve(std::min(in.size(), kMaxMessage + 3));
  for (char c : in) {
    if (out.size() >= kMaxMessage) {
      out += "...";
      break;
    }
    const auto u = static_cast<unsigned char>(c);
    if (c == '\n' || c == '\r' || c == '\t') {
      if (!out.empty() && out.back() != ' ') out += ' ';
    } else if (u < 0x20 || u == 0x7f) {
      out += '?';
    } else {
      out += c;
    }
  }
  while (!out.empty() && out.back() == ' ') out.pop_back();
  return out;
}

// ---------------------------------------------------------------------------------------------
// Allocator

void count_hook(lua_State* L, lua_Debug* ar);

// Makes the hook fire before the next instruction. lua_sethook is documented (ldebug.c) as
// safe to call asynchronously, e.g. from a signal handler, so calling it from inside an
// allocation is fine: it only stores the hook fields and sets trap flags.
void fire_hook_soon(State& h) {
  if (!h.armed) return;
  h.count_disturbed = true;
  lua_sethook(h.L, &count_hook, LUA_MASKCOUNT, 1);
}

// Records where the script was when the first refusal happened, while that can still be read.
void note_refusal_position(State& h, const void* ptr) {
  if (h.memory_exceeded || h.memory_source != nullptr) return;
  if (h.track_source != nullptr) {
    h.memory_source = h.track_source;
    h.memory_line = h.track_line;
  } else if (ptr == nullptr && h.armed) {
    // Memory errors unwind without a message handler (even lauxlib's "not enough memory"
    // is turned into one by lua_error), so the position must be read now. Reading the
    // call stack is only safe when Lua is not in the middle of moving it: a stack
    // reallocation always resizes an existing block, so fresh blocks are fine.
    locate(h.L, 0, &h.memory_source, &h.memory_line);
  }
}

bool past_deadline(const State& h) {
  return h.clock_started && std::chrono::steady_clock::now() >= h.deadline;
}

// A retry follows an emergency full collection, whose work no instruction count sees: a heap held
// just under the cap made every allocation collect all of it, minutes inside one budget. The
// collection is charged for the heap it went through; false (the failure recorded) when that
// exhausts the budget or the call is past its deadline, and the retry is then refused.
bool charge_collection(State& h) {
  if (!h.armed) return true;
  const std::uint64_t cost = 1 + h.used / kCollectedBytesPerInstruction;
  if (past_deadline(h)) {
    h.fail(State::Failure::deadline, h.track_source, h.track_line);
    return false;
  }
  if (cost < h.remaining) {
    h.remaining -= cost;
    return true;
  }
  h.remaining = 0;
  h.fail(State::Failure::budget, h.track_source, h.track_line);
  return false;
}

void* host_alloc(void* ud, void* ptr, std::size_t osize, std::size_t nsize) {
  State& h = *static_cast<State*>(ud);
  const std::size_t old = ptr != nullptr ? osize : 0;  // for new blocks osize is a type tag
  if (nsize == 0) {
    std::free(ptr);
    h.used -= old;
    return nullptr;
  }
  if (nsize <= old) {
    // Lua assumes shrinking never fails; keep the old block if realloc ever disagrees.
    void* p = std::realloc(ptr, nsize);
    h.used -= old - nsize;
    return p != nullptr ? p : ptr;
  }
  // A string too long is refused for good: no collection can make it fit.
  if (ptr == nullptr && osize == LUA_TSTRING && nsize > kMaxStringBytes + kStringHeader) {
    note_refusal_position(h, ptr);
    h.string_too_long = h.string_too_long || !h.memory_failed();
    h.memory_exceeded = true;
    fire_hook_soon(h);
    return nullptr;
  }
  const bool retry = h.refusal_pending && h.refused_ptr == ptr && h.refused_osize == osize &&
                     h.refused_nsize == nsize;
  // A refusal that was not retried went straight back to Lua as an error.
  if (h.refusal_pending && !retry) h.memory_exceeded = true;
  h.refusal_pending = false;

  if (retry && !charge_collection(h)) {
    h.memory_exceeded = true;
    fire_hook_soon(h);
    return nullptr;
  }
  void* p = nullptr;
  if (nsize - old <= h.limits.memory_bytes - h.used) p = std::realloc(ptr, nsize);
  if (p != nullptr) {
    const bool was_low = h.used <= h.limits.memory_bytes / 2;
    h.used += nsize - old;
    if (retry && !h.memory_exceeded) h.memory_source = nullptr;  // the emergency GC made room
    // Crossing into the upper half starts position tracking now rather than up to
    // kHookGranularity instructions later, by which time the cap may already be hit.
    if (was_low && h.used > h.limits.memory_bytes / 2 && h.track_source == nullptr) fire_hook_soon(h);
    const std::size_t before = h.churn;
    h.churn += nsize - old;
    if (before < kChurnCheck && h.churn >= kChurnCheck) fire_hook_soon(h);
    return p;
  }
  if (retry) {
    h.memory_exceeded = true;
  } else {
    note_refusal_position(h, ptr);
    h.refusal_pending = true;
    h.refused_ptr = ptr;
    h.refused_osize = osize;
    h.refused_nsize = nsize;
  }
  fire_hook_soon(h);  // whatever caught the error is stopped at its next instruction
  return nullptr;
}

}  // namespace

// ---------------------------------------------------------------------------------------------
// Limits: the count hook and the sticky abort

// Raises the preallocated abort value, so raising works even with the heap exhausted, and
// re-arms the hook on every instruction so that anything still running (a __close handler,
// code after a pcall) is stopped again at once. The real message is kept in C++.
int detail::raise_abort(lua_State* L, bool in_hook) {
  State& h = state_of(L);
  h.hook_count = 1;
  h.count_disturbed = false;
  lua_sethook(L, &count_hook, LUA_MASKCOUNT, 1);
  if (!in_hook && lua_checkstack(L, 1) == 0) lua_settop(L, 0);
  lua_rawgetp(L, LUA_REGISTRYINDEX, &kAbortKey);
  return lua_error(L);
}

void detail::charge(lua_State* L, std::uint64_t cost) {
  State& h = state_of(L);
  if (!h.armed) return;
  if (cost < h.remaining) {
    h.remaining -= cost;
    return;
  }
  h.remaining = 0;
  const char* source = nullptr;
  int line = 0;
  locate(L, 1, &source, &line);
  h.fail(State::Failure::budget, source, line);
  raise_abort(L, false);
}

namespace {

using detail::raise_abort;

// The memory failure is attributed to where the first refusal happened when tracking knew
// it, else to the first Lua frame at or above `level`.
void fail_memory(State& h, lua_State* L, int level) {
  if (h.memory_source != nullptr) {
    h.fail(State::Failure::memory, h.memory_source, h.memory_line);
    return;
  }
  const char* source = nullptr;
  int line = 0;
  locate(L, level, &source, &line);
  h.fail(State::Failure::memory, source, line);
}

// Returns true when the script must stop now. Never raises.
bool on_count(State& h, lua_State* L, lua_Debug* ar) {
  if (h.failure != State::Failure::none) return true;
  if (h.memory_failed()) {
    fail_memory(h, L, 0);
    return true;
  }
  // After the allocator re-armed the hook, fewer instructions than hook_count may have run;
  // charging the full count errs on the side of stopping early.
  const std::uint64_t spent = static_cast<std::uint64_t>(h.hook_count) + h.churn / kBytesPerInstruction;
  h.churn %= kBytesPerInstruction;
  if (spent >= h.remaining) {
    h.remaining = 0;
    lua_getinfo(L, "Sl", ar);
    h.fail(State::Failure::budget, ar->source, ar->currentline);
    return true;
  }
  h.remaining -= spent;
  if (h.limits.deadline_ms != 0) {
    if (!h.clock_started) {
      h.clock_started = true;
      h.deadline = std::chrono::steady_clock::now() + std::chrono::milliseconds(h.limits.deadline_ms);
    } else if (past_deadline(h)) {
      lua_getinfo(L, "Sl", ar);
      h.fail(State::Failure::deadline, ar->source, ar->currentline);
      return true;
    }
  }
  if (h.interrupt && h.interrupt()) {
    h.fail(State::Failure::interrupted, nullptr, 0);
    return true;
  }

  const bool track = h.used > h.limits.memory_bytes / 2;
  if (track) {
    lua_getinfo(L, "Sl", ar);
    h.track_source = ar->source;
    h.track_line = ar->currentline;
  } else {
    h.track_source = nullptr;
  }
  const int next =
      track ? 1 : static_cast<int>(std::min<std::uint64_t>(kHookGranularity, h.remaining));
  if (next != h.hook_count || h.count_disturbed) {
    h.hook_count = next;
    h.count_disturbed = false;
    lua_sethook(L, &count_hook, LUA_MASKCOUNT, next);
  }
  return false;
}

void count_hook(lua_State* L, lua_Debug* ar) {
  State& h = state_of(L);
  if (h.armed && ar->event == LUA_HOOKCOUNT && on_count(h, L, ar)) raise_abort(L, true);
}

// True (and the failure recorded) when a protected call inside the script must not be
// allowed to swallow what just happened.
bool must_abort(State& h, lua_State* L) {
  if (h.failure != State::Failure::none) return true;
  if (!h.memory_failed()) return false;
  fail_memory(h, L, 1);
  return true;
}

// ---------------------------------------------------------------------------------------------
// Sandboxed replacements for base functions

// pcall that cannot catch a limit. Coroutines are not available, so no continuation needed.
int safe_pcall(lua_State* L) {
  luaL_checkany(L, 1);
  lua_pushboolean(L, 1);
  lua_insert(L, 1);
  const int status = lua_pcall(L, lua_gettop(L) - 2, LUA_MULTRET, 0);
  if (must_abort(state_of(L), L)) return raise_abort(L, false);
  if (status != LUA_OK) {
    lua_pushboolean(L, 0);
    lua_insert(L, -2);
    return 2;
  }
  return lua_gettop(L);
}

// xpcall whose handler runs after unwinding, as an ordinary (hooked) call. A real message
// handler would run while the hook that raised the error is still active, i.e. with hooks
// disabled, and `xpcall(f, function() while true do end end)` would never end.
int safe_xpcall(lua_State* L) {
  const int n = lua_gettop(L);
  luaL_checktype(L, 2, LUA_TFUNCTION);
  // f, h, args...  ->  h, true, f, args...
  lua_pushboolean(L, 1);
  lua_insert(L, 2);
  lua_pushvalue(L, 1);
  lua_pushvalue(L, 3);
  lua_replace(L, 1);
  lua_replace(L, 3);
  const int status = lua_pcall(L, n - 2, LUA_MULTRET, 0);
  if (must_abort(state_of(L), L)) return raise_abort(L, false);
  if (status == LUA_OK) return lua_gettop(L) - 1;
  // h, true, err
  lua_pushvalue(L, 1);
  lua_insert(L, -2);
  lua_pcall(L, 1, 1, 0);
  if (must_abort(state_of(L), L)) return raise_abort(L, false);
  lua_pushboolean(L, 0);
  lua_replace(L, 2);
  return 2;
}

// ---------------------------------------------------------------------------------------------
// Frozen tables
//
// A script's top level runs once; then everything it built is frozen, so that no call can leave
// anything for the next. A frozen table keeps its identity (the script's references to it stay
// good) but holds nothing itself: its contents move to a shadow table that scripts never see, and
// its new metatable reads through to the shadow (__index), refuses writes (__newindex), and
// answers # and pairs from it. The metatable the script gave it lives on: its metamethods are
// copied over, its __index is asked on a miss (with the proxy as self, never the shadow), and
// getmetatable still answers it. Raw access is covered as well: rawset is absent, and next,
// rawget, rawlen, getmetatable and setmetatable know frozen tables.

// The registry table at `key`; pushes it.
void push_registry_table(lua_State* L, const char* key) { lua_rawgetp(L, LUA_REGISTRYINDEX, key); }

}  // namespace

bool detail::push_shadow(lua_State* L, int idx) {
  if (lua_type(L, idx) != LUA_TTABLE) return false;
  idx = lua_absindex(L, idx);
  push_registry_table(L, &kShadowsKey);
  lua_pushvalue(L, idx);
  if (lua_rawget(L, -2) == LUA_TTABLE) {
    lua_remove(L, -2);
    return true;
  }
  lua_pop(L, 2);
  return false;
}

namespace {

using detail::push_shadow;

// Pushes a short description of the key at `idx` for a message: strings and numbers as they are.
const char* key_text(lua_State* L, int idx) {
  const int t = lua_type(L, idx);
  if (t == LUA_TSTRING || t == LUA_TNUMBER) {
    lua_pushvalue(L, idx);
    return lua_tostring(L, -1);
  }
  return lua_pushstring(L, luaL_typename(L, idx));
}

// __newindex of a frozen table; upvalue 1 is true for a script's environment.
int frozen_newindex(lua_State* L) {
  if (lua_toboolean(L, lua_upvalueindex(1)) != 0)
    return luaL_error(L, "attempt to set global '%s': globals are read-only in a call, so that no call leaves state "
                         "for the next (use a local)", key_text(L, 2));
  return luaL_error(L, "attempt to change a read-only table (key '%s'): the tables a script's top level built and "
                       "those a call is given are read-only in a call", key_text(L, 2));
}

int frozen_len(lua_State* L) {
  if (!push_shadow(L, 1)) return luaL_error(L, "frozen table without a shadow");
  lua_pushinteger(L, static_cast<lua_Integer>(lua_rawlen(L, -1)));
  return 1;
}

// next that sees through frozen tables. Also the iterator pairs gives for them.
int sandbox_next(lua_State* L) {
  luaL_checktype(L, 1, LUA_TTABLE);
  lua_settop(L, 2);
  if (push_shadow(L, 1)) lua_replace(L, 1);
  if (lua_next(L, 1) != 0) return 2;
  lua_pushnil(L);
  return 1;
}

int frozen_pairs(lua_State* L) {
  lua_pushcfunction(L, &sandbox_next);
  lua_pushvalue(L, 1);
  lua_pushnil(L);
  return 3;
}

// A miss in a frozen table whose script-given metatable has an __index function: that function is
// asked with the proxy, as it would have been asked with the table. Upvalues: function, proxy.
int frozen_index_function(lua_State* L) {
  lua_settop(L, 2);
  lua_pushvalue(L, lua_upvalueindex(1));
  lua_pushvalue(L, lua_upvalueindex(2));
  lua_pushvalue(L, 2);
  lua_call(L, 2, 1);
  return 1;
}

int sandbox_rawget(lua_State* L) {
  luaL_checktype(L, 1, LUA_TTABLE);
  luaL_checkany(L, 2);
  lua_settop(L, 2);
  if (push_shadow(L, 1)) lua_replace(L, 1);
  lua_rawget(L, 1);
  return 1;
}

int sandbox_rawlen(lua_State* L) {
  const int t = lua_type(L, 1);
  luaL_argexpected(L, t == LUA_TTABLE || t == LUA_TSTRING, 1, "table or string");
  if (push_shadow(L, 1)) lua_replace(L, 1);
  lua_pushinteger(L, static_cast<lua_Integer>(lua_rawlen(L, 1)));
  return 1;
}

// The metatable a script sees for the value at 1: a frozen table's is the one its script gave it;
// a table whose metatable is a frozen table's shadow (setmetatable redirects there) sees that
// frozen table. __metatable answers for a protected one, as in stock Lua.
int sandbox_getmetatable(lua_State* L) {
  luaL_checkany(L, 1);
  lua_settop(L, 1);
  if (lua_type(L, 1) == LUA_TTABLE && push_shadow(L, 1)) {
    lua_pop(L, 1);
    push_registry_table(L, &kMetasKey);
    lua_pushvalue(L, 1);
    if (lua_rawget(L, -2) != LUA_TTABLE) {
      lua_pushnil(L);
      return 1;
    }
  } else {
    if (lua_getmetatable(L, 1) == 0) {
      lua_pushnil(L);
      return 1;
    }
    push_registry_table(L, &kOwnersKey);
    lua_pushvalue(L, -2);
    if (lua_rawget(L, -2) == LUA_TTABLE) lua_replace(L, 2);  // the shadow's frozen owner
    lua_settop(L, 2);
  }
  // The metatable to show is on top; its __metatable field, read raw through any shadow.
  const int mt = lua_gettop(L);
  if (!push_shadow(L, mt)) lua_pushvalue(L, mt);
  lua_pushliteral(L, "__metatable");
  if (lua_rawget(L, -2) != LUA_TNIL) return 1;
  lua_settop(L, mt);
  return 1;
}

// setmetatable without __gc: finalizers run at arbitrary points, including inside the host's
// own collections and lua_close, where no instruction budget is armed. A frozen table's metatable
// cannot change; a frozen metatable is given as its shadow, which holds its metamethods (Lua
// reads them raw).
int safe_setmetatable(lua_State* L) {
  const int t = lua_type(L, 2);
  luaL_checktype(L, 1, LUA_TTABLE);
  luaL_argexpected(L, t == LUA_TNIL || t == LUA_TTABLE, 2, "nil or table");
  lua_settop(L, 2);
  if (push_shadow(L, 1)) return luaL_error(L, "cannot change the metatable of a read-only table");
  if (t == LUA_TTABLE) {
    if (push_shadow(L, 2)) lua_replace(L, 2);
    lua_pushliteral(L, "__gc");
    const int gc = lua_rawget(L, 2);
    lua_pop(L, 1);
    if (gc != LUA_TNIL) return luaL_error(L, "__gc metamethods are not allowed");
  }
  if (luaL_getmetafield(L, 1, "__metatable") != LUA_TNIL)
    return luaL_error(L, "cannot change a protected metatable");
  lua_setmetatable(L, 1);
  return 1;
}

// tostring without addresses: "table: 0x55d0c3a1e2f0" differs from run to run and from call to
// call, a source of randomness as good as math.random. A value with __tostring answers as it says.
int sandbox_tostring(lua_State* L) {
  luaL_checkany(L, 1);
  const int t = lua_type(L, 1);
  const bool addressed = t == LUA_TTABLE || t == LUA_TFUNCTION || t == LUA_TUSERDATA || t == LUA_TTHREAD ||
                         t == LUA_TLIGHTUSERDATA;
  if (addressed && luaL_getmetafield(L, 1, "__tostring") == LUA_TNIL) {
    lua_pushstring(L, luaL_typename(L, 1));
    return 1;
  }
  lua_settop(L, 1);
  luaL_tolstring(L, 1, nullptr);
  return 1;
}

// Adds the value on top to the freeze queue (a table `queue` of `*count` values, with `seen` the
// set of them) when it is a table or a Lua function not met before; pops it.
void enqueue(lua_State* L, int queue, int seen, int* count) {
  const int t = lua_type(L, -1);
  if (!(t == LUA_TTABLE || (t == LUA_TFUNCTION && lua_iscfunction(L, -1) == 0))) {
    lua_pop(L, 1);
    return;
  }
  lua_pushvalue(L, -1);
  if (lua_rawget(L, seen) != LUA_TNIL) {
    lua_pop(L, 2);
    return;
  }
  lua_pop(L, 1);
  lua_pushvalue(L, -1);
  lua_pushboolean(L, 1);
  lua_rawset(L, seen);
  lua_rawseti(L, queue, ++*count);
}

// Whether the table at `item` is in the freeze's `seen` set as one to freeze (not frozen already).
bool to_freeze(lua_State* L, int seen, int item) {
  lua_pushvalue(L, item);
  lua_rawget(L, seen);
  const bool yes = lua_toboolean(L, -1) != 0;
  lua_pop(L, 1);
  return yes;
}

// The table's own metamethod `name` is kept; one it lacks is `fn`, so the frozen copy still reads
// through its shadow.
void set_unless_set(lua_State* L, int mt, const char* name, lua_CFunction fn) {
  lua_pushstring(L, name);
  if (lua_rawget(L, mt) == LUA_TNIL) {
    lua_pushstring(L, name);
    lua_pushcfunction(L, fn);
    lua_rawset(L, mt);
  }
  lua_pop(L, 1);
}

// Freezes the table at `root` and everything reachable from it: tables (keys, values and
// metatables) and Lua functions (their upvalues). Where `restore` is a table, it receives each
// upvalue of those functions once, as (function, index, value) triples: what restore_upvalues puts
// back after each call, since a top-level `local` the functions share is state no table holds.
// `is_env`: the root is a script's environment, whose refused writes are globals. Returns the number
// of triples (a value may be nil, so the list's length cannot tell).
int freeze(lua_State* L, int root, int restore, bool is_env) {
  luaL_checkstack(L, 12, "freeze");
  root = lua_absindex(L, root);
  if (restore != 0) restore = lua_absindex(L, restore);
  lua_newtable(L);
  const int queue = lua_gettop(L);
  lua_newtable(L);
  const int seen = lua_gettop(L);
  lua_newtable(L);
  const int cells = lua_gettop(L);
  int count = 0;
  int restored = 0;
  lua_pushvalue(L, root);
  enqueue(L, queue, seen, &count);
  for (int i = 1; i <= count; ++i) {
    detail::charge(L, 1);
    lua_rawgeti(L, queue, i);
    const int item = lua_gettop(L);
    if (lua_type(L, item) == LUA_TFUNCTION) {
      for (int u = 1; lua_getupvalue(L, item, u) != nullptr; ++u) {
        lua_pushlightuserdata(L, lua_upvalueid(L, item, u));
        if (restore != 0 && lua_rawget(L, cells) == LUA_TNIL) {
          lua_pushlightuserdata(L, lua_upvalueid(L, item, u));
          lua_pushboolean(L, 1);
          lua_rawset(L, cells);
          lua_pushvalue(L, item);
          lua_rawseti(L, restore, ++restored);
          lua_pushinteger(L, u);
          lua_rawseti(L, restore, ++restored);
          lua_pushvalue(L, -2);
          lua_rawseti(L, restore, ++restored);
        }
        lua_pop(L, 1);
        enqueue(L, queue, seen, &count);
      }
    } else if (!push_shadow(L, item)) {
      lua_pushnil(L);
      while (lua_next(L, item) != 0) {
        detail::charge(L, 1);
        lua_pushvalue(L, -2);
        enqueue(L, queue, seen, &count);
        enqueue(L, queue, seen, &count);
      }
      if (lua_getmetatable(L, item) != 0) enqueue(L, queue, seen, &count);
    } else {
      lua_pop(L, 1);  // frozen already (a kept table): marked so, and left as it is
      lua_pushvalue(L, item);
      lua_pushboolean(L, 0);
      lua_rawset(L, seen);
    }
    lua_settop(L, item - 1);
  }

  // First every table's contents move to its shadow, so that a metatable's metamethods can be
  // read from its shadow whatever the order.
  push_registry_table(L, &kShadowsKey);
  const int shadows = lua_gettop(L);
  push_registry_table(L, &kOwnersKey);
  const int owners = lua_gettop(L);
  push_registry_table(L, &kMetasKey);
  const int metas = lua_gettop(L);
  for (int i = 1; i <= count; ++i) {
    lua_rawgeti(L, queue, i);
    const int item = lua_gettop(L);
    if (lua_type(L, item) != LUA_TTABLE || !to_freeze(L, seen, item)) {
      lua_settop(L, item - 1);
      continue;
    }
    detail::charge(L, 1);
    lua_newtable(L);
    const int shadow = lua_gettop(L);
    lua_pushnil(L);
    while (lua_next(L, item) != 0) {
      lua_pushvalue(L, -2);
      lua_insert(L, -2);
      lua_rawset(L, shadow);
    }
    lua_pushnil(L);
    while (lua_next(L, shadow) != 0) {
      lua_pop(L, 1);
      lua_pushvalue(L, -1);
      lua_pushnil(L);
      lua_rawset(L, item);
    }
    if (lua_getmetatable(L, item) != 0) {
      lua_pushvalue(L, item);
      lua_insert(L, -2);
      lua_rawset(L, metas);
    }
    lua_pushvalue(L, item);
    lua_pushvalue(L, shadow);
    lua_rawset(L, shadows);
    lua_pushvalue(L, shadow);
    lua_pushvalue(L, item);
    lua_rawset(L, owners);
    lua_settop(L, item - 1);
  }

  // Then each gets its metatable.
  for (int i = 1; i <= count; ++i) {
    lua_rawgeti(L, queue, i);
    const int item = lua_gettop(L);
    if (lua_type(L, item) != LUA_TTABLE || !to_freeze(L, seen, item)) {
      lua_settop(L, item - 1);
      continue;
    }
    lua_pushvalue(L, item);
    lua_rawget(L, shadows);
    const int shadow = lua_gettop(L);
    lua_createtable(L, 0, 4);
    const int mt = lua_gettop(L);
    lua_pushvalue(L, item);
    if (lua_rawget(L, metas) == LUA_TTABLE) {
      const int given = lua_gettop(L);
      if (push_shadow(L, given)) lua_replace(L, given);
      lua_pushnil(L);
      while (lua_next(L, given) != 0) {
        const char* name = lua_type(L, -2) == LUA_TSTRING ? lua_tostring(L, -2) : "";
        const std::string_view field = name;
        const bool copied = field.substr(0, 2) == "__" && field != "__index" && field != "__newindex" &&
                            field != "__gc" && field != "__mode" && field != "__metatable";
        if (copied) {
          lua_pushvalue(L, -2);
          lua_insert(L, -2);
          lua_rawset(L, mt);
        } else {
          lua_pop(L, 1);
        }
      }
      lua_pushliteral(L, "__index");
      const int index_type = lua_rawget(L, given);
      if (index_type == LUA_TTABLE || index_type == LUA_TFUNCTION) {
        lua_createtable(L, 0, 1);
        lua_pushliteral(L, "__index");
        if (index_type == LUA_TTABLE) {
          lua_pushvalue(L, -3);
        } else {
          lua_pushvalue(L, -3);
          lua_pushvalue(L, item);
          lua_pushcclosure(L, &frozen_index_function, 2);
        }
        lua_rawset(L, -3);
        lua_setmetatable(L, shadow);
      }
    }
    lua_settop(L, mt);
    lua_pushliteral(L, "__index");
    lua_pushvalue(L, shadow);
    lua_rawset(L, mt);
    lua_pushliteral(L, "__newindex");
    lua_pushboolean(L, is_env && lua_rawequal(L, item, root) != 0 ? 1 : 0);
    lua_pushcclosure(L, &frozen_newindex, 1);
    lua_rawset(L, mt);
    set_unless_set(L, mt, "__len", &frozen_len);
    set_unless_set(L, mt, "__pairs", &frozen_pairs);
    lua_setmetatable(L, item);
    lua_settop(L, item - 1);
  }
  lua_settop(L, queue - 1);
  return restored / 3;
}

// Puts back the upvalues freeze listed in the registry entry `restore`. Only raw reads and
// lua_setupvalue, none of which can raise, so it runs outside any protected call.
void restore_upvalues(lua_State* L, Handle restore, int count) {
  if (restore == NoHandle || count == 0 || lua_checkstack(L, 4) == 0) return;
  lua_rawgeti(L, LUA_REGISTRYINDEX, restore);
  const int list = lua_gettop(L);
  const auto n = 3 * static_cast<lua_Integer>(count);
  for (lua_Integer i = 1; i + 2 <= n; i += 3) {
    lua_rawgeti(L, list, i);
    lua_rawgeti(L, list, i + 1);
    const int index = static_cast<int>(lua_tointeger(L, -1));
    lua_pop(L, 1);
    lua_rawgeti(L, list, i + 2);
    lua_setupvalue(L, -2, index);
    lua_pop(L, 1);
  }
  lua_settop(L, list - 1);
}

// ---------------------------------------------------------------------------------------------
// Value conversion

// Why a C++ value cannot go into Lua, or nullptr. Checked before pushing so that pushing can
// only fail for lack of memory.
const char* unpushable(const Value& value, int depth) {
  const auto* t = std::get_if<std::shared_ptr<Table>>(&value.v);
  if (t == nullptr || !*t) return nullptr;
  if (depth > kMaxDepth) return "a table nested deeper than 32 levels";
  for (const auto& [k, val] : **t) {
    if (k.is_nil()) return "a table with a nil key";
    if (const double* d = std::get_if<double>(&k.v); d && std::isnan(*d)) return "a table with a NaN key";
    if (const char* why = unpushable(k, depth + 1)) return why;
    if (const char* why = unpushable(val, depth + 1)) return why;
  }
  return nullptr;
}

// Trivial frame: may raise (memory), so it holds no objects with destructors.
void push_value(lua_State* L, const Value& value) {
  luaL_checkstack(L, 3, "value nesting");
  switch (value.v.index()) {
    case 1:
      lua_pushboolean(L, *std::get_if<bool>(&value.v) ? 1 : 0);
      return;
    case 2:
      lua_pushinteger(L, static_cast<lua_Integer>(*std::get_if<std::int64_t>(&value.v)));
      return;
    case 3:
      lua_pushnumber(L, static_cast<lua_Number>(*std::get_if<double>(&value.v)));
      return;
    case 4: {
      const std::string* s = std::get_if<std::string>(&value.v);
      lua_pushlstring(L, s->data(), s->size());
      return;
    }
    case 5: {
      lua_createtable(L, 0, 0);
      const std::shared_ptr<Table>* t = std::get_if<std::shared_ptr<Table>>(&value.v);
      if (!*t) return;
      for (const auto& entry : **t) {
        push_value(L, entry.first);
        push_value(L, entry.second);
        lua_rawset(L, -3);
      }
      return;
    }
    default:
      lua_pushnil(L);
      return;
  }
}

int push_value_protected(lua_State* L) {
  push_value(L, *static_cast<const Value*>(lua_touserdata(L, 1)));
  return 1;
}

int key_rank(const Value& v) {
  switch (v.v.index()) {
    case 2: return 0;  // integer
    case 3: return 1;  // float
    case 4: return 2;  // string
    case 1: return 3;  // boolean
    default: return 4;  // table
  }
}

bool key_less(const std::pair<Value, Value>& a, const std::pair<Value, Value>& b) {
  const int ra = key_rank(a.first);
  const int rb = key_rank(b.first);
  if (ra != rb) return ra < rb;
  switch (ra) {
    case 0: return std::get<std::int64_t>(a.first.v) < std::get<std::int64_t>(b.first.v);
    case 1: return std::get<double>(a.first.v) < std::get<double>(b.first.v);
    case 2: return std::get<std::string>(a.first.v) < std::get<std::string>(b.first.v);
    case 3: return !std::get<bool>(a.first.v) && std::get<bool>(b.first.v);
    default: return false;  // tables as keys keep traversal order
  }
}

// What converting a Lua value into C++ may still spend. Lua tables may share and nest each other,
// so a few kilobytes of Lua heap can stand for billions of C++ values: every table is converted
// once at most (a table met twice is refused), and each value is charged to the budget of the
// call that produced it, its bytes to the heap cap.
struct Conversion {
  State& h;
  std::uint64_t bytes_left;
  std::set<const void*> tables;  // tables met so far
};

// Charges one value of `bytes` payload; false (with `why`) when that exceeds what is left.
bool charge_conversion(Conversion& c, std::size_t bytes, const char*& why) {
  const std::size_t cost = sizeof(Value) + bytes;
  const std::uint64_t instructions = 1 + bytes / kBytesPerInstruction;
  if (cost > c.bytes_left) {
    why = "a value larger than the heap cap once converted";
    return false;
  }
  if (c.h.armed && instructions >= c.h.remaining) {
    why = "a value too large to convert within the instruction budget";
    return false;
  }
  c.bytes_left -= cost;
  if (c.h.armed) c.h.remaining -= instructions;
  return true;
}

// Reads the Lua value at `idx`. Uses only Lua calls that cannot raise (raw access, no
// conversions in place), so it may build C++ objects freely; may throw std::bad_alloc.
// On failure `why` says what was wrong and the Lua stack is restored.
bool to_value(lua_State* L, int idx, int depth, Conversion& c, Value& out, const char*& why, const char*& type) {
  idx = lua_absindex(L, idx);
  switch (lua_type(L, idx)) {
    case LUA_TNIL:
      out = Value::nil();
      return charge_conversion(c, 0, why);
    case LUA_TBOOLEAN:
      out = Value::boolean(lua_toboolean(L, idx) != 0);
      return charge_conversion(c, 0, why);
    case LUA_TNUMBER:
      out = lua_isinteger(L, idx) ? Value::integer(lua_tointeger(L, idx))
                                  : Value::number(lua_tonumber(L, idx));
      return charge_conversion(c, 0, why);
    case LUA_TSTRING: {
      std::size_t len = 0;
      const char* s = lua_tolstring(L, idx, &len);
      if (!charge_conversion(c, len, why)) return false;
      out = Value::string(std::string(s, len));
      return true;
    }
    case LUA_TTABLE:
      if (lua_checkstack(L, 3) == 0) {
        why = "a table too large for the Lua stack";
        return false;
      }
      // A frozen table holds nothing itself: its shadow is what the script sees.
      if (detail::push_shadow(L, idx)) {
        const bool ok = to_value(L, lua_gettop(L), depth, c, out, why, type);
        lua_pop(L, 1);
        return ok;
      }
      break;
    default:
      why = "an unsupported value";
      type = luaL_typename(L, idx);
      return false;
  }
  if (depth > kMaxDepth) {
    why = "a table nested deeper than 32 levels";
    return false;
  }
  if (!c.tables.insert(lua_topointer(L, idx)).second) {
    why = "a table that holds the same table twice (shared or cyclic tables are refused)";
    return false;
  }
  if (!charge_conversion(c, 0, why)) return false;
  if (lua_checkstack(L, 3) == 0) {
    why = "a table too large for the Lua stack";
    return false;
  }
  const int top = lua_gettop(L);
  Table entries;
  lua_pushnil(L);
  while (lua_next(L, idx) != 0) {
    Value key;
    Value val;
    if (!to_value(L, -2, depth + 1, c, key, why, type) || !to_value(L, -1, depth + 1, c, val, why, type)) {
      lua_settop(L, top);
      return false;
    }
    entries.emplace_back(std::move(key), std::move(val));
    lua_pop(L, 1);
  }
  std::stable_sort(entries.begin(), entries.end(), key_less);
  out = Value::table(std::move(entries));
  return true;
}

// Converts one value handed from Lua to C++ (an answer, or a native function's argument).
bool to_value(State& h, int idx, Value& out, const char*& why, const char*& type) {
  Conversion c{h, h.limits.memory_bytes, {}};
  return to_value(h.L, idx, 1, c, out, why, type);
}

std::string describe_failure(const char* why, const char* type) {
  std::string out = why;
  if (type != nullptr) out += std::string(" (") + type + ")";
  return out;
}

// ---------------------------------------------------------------------------------------------
// Native functions

// Everything that needs C++ objects happens here; returns the number of results, or -1 with
// the message in h.native_error. Never raises, never throws.
int invoke_native(State& h, lua_State* L, const NativeEntry& entry) noexcept {
  try {
    const int n = lua_gettop(L);
    std::vector<Value> args(static_cast<std::size_t>(n));
    for (int i = 1; i <= n; ++i) {
      const char* why = nullptr;
      const char* type = nullptr;
      if (!to_value(h, i, args[static_cast<std::size_t>(i - 1)], why, type)) {
        h.native_error = one_line("palace." + entry.name + ": argument #" + std::to_string(i) +
                                  " is " + describe_failure(why, type));
        return -1;
      }
    }
    Value result = entry.fn(args);
    if (const char* why = unpushable(result, 1)) {
      h.native_error = one_line("palace." + entry.name + ": returned " + why);
      return -1;
    }
    // Pushing allocates, and a failed allocation must not jump over `result` and `args`.
    if (lua_checkstack(L, 2) == 0) {
      h.native_error = "palace." + entry.name + ": Lua stack exhausted";
      return -1;
    }
    lua_pushcfunction(L, &push_value_protected);
    lua_pushlightuserdata(L, &result);
    if (lua_pcall(L, 1, 1, 0) != LUA_OK) {
      lua_pop(L, 1);
      h.native_error = "palace." + entry.name + ": cannot convert its result";
      return -1;
    }
    return 1;
  } catch (const std::exception& e) {
    try {
      h.native_error = one_line("palace." + entry.name + ": " + e.what());
    } catch (...) {
      h.native_error.clear();
    }
  } catch (...) {
    try {
      h.native_error = "palace." + entry.name + ": unknown C++ exception";
    } catch (...) {
      h.native_error.clear();
    }
  }
  return -1;
}

int native_trampoline(lua_State* L) {
  State& h = state_of(L);
  const auto* entry = static_cast<const NativeEntry*>(lua_touserdata(L, lua_upvalueindex(1)));
  const int results = invoke_native(h, L, *entry);
  if (results >= 0) return results;
  // All C++ objects of the call are gone; the message lives in the host state.
  return luaL_error(L, "%s", h.native_error.empty() ? "palace function failed" : h.native_error.c_str());
}

// ---------------------------------------------------------------------------------------------
// Protected entry points (each is run through lua_pcall with message_handler)

int message_handler(lua_State* L) {
  State& h = state_of(L);
  if (h.failure != State::Failure::none) return 1;  // the message is built in C++ afterwards
  if (h.memory_failed()) {
    fail_memory(h, L, 1);
    return 1;
  }
  const int t = lua_type(L, 1);
  if (t == LUA_TSTRING || t == LUA_TNUMBER) return 1;
  const char* source = nullptr;
  int line = 0;
  if (locate(L, 1, &source, &line)) {
    // chunk_label returns a suffix of a NUL-terminated string, so data() is a C string.
    lua_pushfstring(L, "%s:%d: (error object is a %s value)", chunk_label(source).data(), line,
                    luaL_typename(L, 1));
  } else {
    lua_pushfstring(L, "(error object is a %s value)", luaL_typename(L, 1));
  }
  return 1;
}

// Copied from the base library; print and tonumber are the charged ones (lua_library.cpp). rawset
// is absent: it would write into a frozen table past its __newindex. next, rawget, rawlen,
// getmetatable, setmetatable and tostring are the sandbox's own (see above).
const char* const kBaseNames[] = {"assert", "error",    "ipairs", "pairs", "print", "rawequal",
                                  "select", "tonumber", "type",   "_VERSION"};
const luaL_Reg kSafeBase[] = {{"pcall", &safe_pcall},
                              {"xpcall", &safe_xpcall},
                              {"setmetatable", &safe_setmetatable},
                              {"getmetatable", &sandbox_getmetatable},
                              {"next", &sandbox_next},
                              {"rawget", &sandbox_rawget},
                              {"rawlen", &sandbox_rawlen},
                              {"tostring", &sandbox_tostring},
                              {nullptr, nullptr}};
// No script uses Lua patterns, and their matcher backtracks in C, out of the budget's sight: a
// five-character pattern can run for hours. scripts/README.md says what to use instead.
const char* const kAbsentStringFunctions[] = {"dump", "find", "match", "gmatch", "gsub"};
// A hook is a rule: the same position gets the same answer, so nothing random.
const char* const kAbsentMathFunctions[] = {"random", "randomseed"};
const char* const kLibraries[] = {LUA_STRLIBNAME, LUA_TABLIBNAME, LUA_MATHLIBNAME, LUA_UTF8LIBNAME};

int do_setup(lua_State* L) {
  luaL_requiref(L, LUA_GNAME, luaopen_base, 1);
  luaL_requiref(L, LUA_STRLIBNAME, luaopen_string, 1);
  luaL_requiref(L, LUA_TABLIBNAME, luaopen_table, 1);
  luaL_requiref(L, LUA_MATHLIBNAME, luaopen_math, 1);
  luaL_requiref(L, LUA_UTF8LIBNAME, luaopen_utf8, 1);
  lua_settop(L, 0);

  // The original string table stays reachable through the string metatable (s:find(...)), so
  // functions are taken out there; string.dump is useless without load.
  lua_getglobal(L, LUA_STRLIBNAME);
  for (const char* name : kAbsentStringFunctions) {
    lua_pushnil(L);
    lua_setfield(L, -2, name);
  }
  lua_pop(L, 1);
  lua_getglobal(L, LUA_MATHLIBNAME);
  for (const char* name : kAbsentMathFunctions) {
    lua_pushnil(L);
    lua_setfield(L, -2, name);
  }
  lua_pop(L, 1);
  detail::install_charged_library(L);
  // Strings share one metatable whose __index is that original table; hiding it keeps one
  // script from rewriting ("x"):rep for all others.
  lua_pushliteral(L, "");
  lua_getmetatable(L, -1);
  lua_pushboolean(L, 0);
  lua_setfield(L, -2, "__metatable");
  lua_pop(L, 2);

  lua_newtable(L);  // template
  for (const char* name : kBaseNames) {
    lua_getglobal(L, name);
    lua_setfield(L, -2, name);
  }
  luaL_setfuncs(L, kSafeBase, 0);
  for (const char* name : kLibraries) {
    lua_getglobal(L, name);
    lua_setfield(L, -2, name);
  }
  lua_newtable(L);
  lua_setfield(L, -2, "palace");
  lua_rawsetp(L, LUA_REGISTRYINDEX, &kTemplateKey);

  for (const char* key : {&kEnvsKey, &kChunksKey, &kShadowsKey, &kOwnersKey, &kMetasKey}) {
    lua_newtable(L);
    lua_rawsetp(L, LUA_REGISTRYINDEX, key);
  }
  lua_pushliteral(L, "palace: hook stopped by the host");
  lua_rawsetp(L, LUA_REGISTRYINDEX, &kAbortKey);
  return 0;
}

// A native to register: its name, its trampoline, and the entry the trampoline reads.
struct Registration {
  const std::string* name;
  lua_CFunction trampoline;
  void* entry;
};

int do_register(lua_State* L) {
  const auto* r = static_cast<const Registration*>(lua_touserdata(L, 1));
  lua_rawgetp(L, LUA_REGISTRYINDEX, &kTemplateKey);
  lua_getfield(L, -1, "palace");
  lua_pushlstring(L, r->name->data(), r->name->size());
  lua_pushlightuserdata(L, r->entry);
  lua_pushcclosure(L, r->trampoline, 1);
  lua_rawset(L, -3);
  return 0;
}

// A script's environment: the template's entries, with every table (string, math, palace, ...)
// shallow-copied so that whatever a script's top level does to them stays its own business.
void push_environment(lua_State* L) {
  luaL_checkstack(L, 8, "environment");
  lua_newtable(L);
  const int env = lua_gettop(L);
  lua_rawgetp(L, LUA_REGISTRYINDEX, &kTemplateKey);
  const int tmpl = lua_gettop(L);
  lua_pushnil(L);
  while (lua_next(L, tmpl) != 0) {
    if (lua_type(L, -1) == LUA_TTABLE) {
      detail::push_table_copy(L);
      lua_remove(L, -2);
    }
    lua_pushvalue(L, -2);
    lua_insert(L, -2);
    lua_rawset(L, env);
  }
  lua_pop(L, 1);
  lua_pushvalue(L, env);
  lua_setfield(L, env, LUA_GNAME);
}

struct LoadContext {
  const std::string* text;
  const std::string* chunkname;
  const std::string* script;
  Handle restore = NoHandle;  // out: the script's upvalues to put back after each call
  int restore_count = 0;      // out: how many
};

void set_registry_entry(lua_State* L, void* key, const std::string& name, int value_idx) {
  value_idx = lua_absindex(L, value_idx);
  lua_rawgetp(L, LUA_REGISTRYINDEX, key);
  lua_pushlstring(L, name.data(), name.size());
  lua_pushvalue(L, value_idx);
  lua_rawset(L, -3);
  lua_pop(L, 1);
}

// Runs the script's top level once, in an environment of its own, then freezes what it built.
int do_load(lua_State* L) {
  auto* c = static_cast<LoadContext*>(lua_touserdata(L, 1));
  if (luaL_loadbufferx(L, c->text->data(), c->text->size(), c->chunkname->c_str(), "t") != LUA_OK)
    return lua_error(L);
  const int chunk = lua_gettop(L);
  // Pinned before running so that every source pointer the hook records stays valid.
  set_registry_entry(L, &kChunksKey, *c->script, chunk);
  push_environment(L);
  const int env = lua_gettop(L);
  lua_pushvalue(L, env);
  lua_setupvalue(L, chunk, 1);  // a main chunk's only upvalue is _ENV
  lua_pushvalue(L, chunk);
  lua_call(L, 0, 0);
  // Kept for lookups: the functions the script defined itself.
  lua_newtable(L);
  const int functions = lua_gettop(L);
  lua_rawgetp(L, LUA_REGISTRYINDEX, &kTemplateKey);
  const int tmpl = lua_gettop(L);
  lua_pushnil(L);
  while (lua_next(L, env) != 0) {
    lua_pushvalue(L, -2);
    const bool inherited = lua_rawget(L, tmpl) != LUA_TNIL && lua_rawequal(L, -1, -2) != 0;
    lua_pop(L, 1);
    if (lua_type(L, -1) == LUA_TFUNCTION && lua_type(L, -2) == LUA_TSTRING && !inherited) {
      lua_pushvalue(L, -2);
      lua_insert(L, -2);
      lua_rawset(L, functions);
    } else {
      lua_pop(L, 1);
    }
  }
  lua_pop(L, 1);
  lua_newtable(L);
  const int restore = lua_gettop(L);
  c->restore_count = freeze(L, env, restore, true);
  lua_pushvalue(L, restore);
  c->restore = luaL_ref(L, LUA_REGISTRYINDEX);
  set_registry_entry(L, &kEnvsKey, *c->script, functions);
  return 0;
}

int do_forget(lua_State* L) {
  const auto* script = static_cast<const std::string*>(lua_touserdata(L, 1));
  lua_pushnil(L);
  set_registry_entry(L, &kEnvsKey, *script, -1);
  set_registry_entry(L, &kChunksKey, *script, -1);
  return 0;
}

// Pushes the function `name` that the script defined itself and returns true; false when
// there is none or it is a library function inherited from the template.
bool push_script_function(lua_State* L, const std::string& script, const std::string& name) {
  luaL_checkstack(L, 6, "lookup");
  lua_rawgetp(L, LUA_REGISTRYINDEX, &kEnvsKey);
  lua_pushlstring(L, script.data(), script.size());
  if (lua_rawget(L, -2) != LUA_TTABLE) return false;
  lua_pushlstring(L, name.data(), name.size());
  return lua_rawget(L, -2) == LUA_TFUNCTION;
}

struct CallContext {
  const std::string* script;
  const std::string* function;
  const std::vector<Value>* args;
  bool found;
  int line = 0;      // where the function is defined, for function_line
  Handle handle = NoHandle;  // out of do_reference: the function's registry reference
};

int do_lookup(lua_State* L) {
  auto* c = static_cast<CallContext*>(lua_touserdata(L, 1));
  c->found = push_script_function(L, *c->script, *c->function);
  if (c->found) {
    lua_Debug ar;
    lua_getinfo(L, ">S", &ar);
    c->line = ar.linedefined;
  }
  return 0;
}

int do_reference(lua_State* L) {
  auto* c = static_cast<CallContext*>(lua_touserdata(L, 1));
  c->found = push_script_function(L, *c->script, *c->function);
  if (c->found) c->handle = luaL_ref(L, LUA_REGISTRYINDEX);
  return 0;
}

// Nothing a call does may outlive it, since hooks must answer the same for the same position:
// what the script's top level built is frozen (do_load), and the upvalues of its functions are
// put back after each call (restore_upvalues).
int do_call(lua_State* L) {
  auto* c = static_cast<CallContext*>(lua_touserdata(L, 1));
  c->found = push_script_function(L, *c->script, *c->function);
  if (!c->found) return 0;
  const int nargs = static_cast<int>(c->args->size());
  luaL_checkstack(L, nargs + 1, "too many arguments");
  for (const Value& arg : *c->args) push_value(L, arg);
  lua_call(L, nargs, 1);
  return 1;
}

void push_slot(lua_State* L, const Slot& slot) {
  switch (slot.type) {
    case Slot::Type::nil:
      lua_pushnil(L);
      return;
    case Slot::Type::boolean:
      lua_pushboolean(L, slot.value != 0 ? 1 : 0);
      return;
    case Slot::Type::integer:
      lua_pushinteger(L, static_cast<lua_Integer>(slot.value));
      return;
    case Slot::Type::kept:
      lua_rawgeti(L, LUA_REGISTRYINDEX, static_cast<lua_Integer>(slot.value));
      return;
  }
}

// The record fields a fill must set: those whose value changed since the last fill, all of them
// for a record never filled (or whose last fill failed halfway), and the lazy field where a call
// read it. Returns whether setting them may allocate: only a field that was nil may lack its key
// (a collection drops the keys of nil fields), and making one costs an allocation, which can fail
// (a Lua error: only under a protected call).
bool fill_may_allocate(const detail::RecordEntry& record, std::span<const Slot> fields) {
  if (!record.valid || fields.size() != record.names.size()) return true;
  for (std::size_t i = 0; i < fields.size(); ++i)
    if (record.last[i].type == Slot::Type::nil && fields[i].type != Slot::Type::nil) return true;
  return false;
}

// Sets the records' fields. Raises only where fill_may_allocate says so.
void fill_records(lua_State* L, State& h, std::span<const LuaHost::Fill> fills) {
  for (const LuaHost::Fill& fill : fills) {
    detail::RecordEntry& record = *h.records[static_cast<std::size_t>(fill.record)];
    const bool valid = record.valid && fill.fields.size() == record.names.size();
    if (valid && !record.lazy_cached && std::equal(record.last.begin(), record.last.end(), fill.fields.begin())) continue;
    // Invalid until the fill is done: an allocation failing halfway leaves fields unknown.
    record.valid = false;
    lua_rawgeti(L, LUA_REGISTRYINDEX, record.shadow);
    if (record.lazy_cached) {
      lua_rawgeti(L, LUA_REGISTRYINDEX, record.names[record.lazy_field]);
      lua_pushnil(L);
      lua_rawset(L, -3);
      record.lazy_cached = false;
    }
    for (std::size_t i = 0; i < record.names.size(); ++i) {
      const Slot slot = i < fill.fields.size() ? fill.fields[i] : Slot::nil();
      if (valid && record.last[i] == slot) continue;
      lua_rawgeti(L, LUA_REGISTRYINDEX, record.names[i]);
      push_slot(L, slot);
      lua_rawset(L, -3);
      record.last[i] = slot;
    }
    record.valid = true;
    lua_pop(L, 1);
  }
}

struct FillContext {
  State* h;
  std::span<const LuaHost::Fill> fills;
};

int do_fill(lua_State* L) {
  const auto* c = static_cast<const FillContext*>(lua_touserdata(L, 1));
  fill_records(L, *c->h, c->fills);
  return 0;
}

int too_many_arguments(lua_State* L) { return luaL_error(L, "too many arguments"); }

std::string number_text(lua_State* L, int idx) {
  if (lua_isinteger(L, idx)) return std::to_string(lua_tointeger(L, idx));
  char buf[64];
  std::snprintf(buf, sizeof buf, "%.14g", static_cast<double>(lua_tonumber(L, idx)));
  return buf;
}

// One operation on the state: resets the per-operation bookkeeping, optionally arms the
// budget, and always leaves the state clean (hook off, empty stack) however it ends. `script` and
// `function` name it in messages and must outlive it.
class Operation {
 public:
  Operation(State& h, std::string_view script, std::string_view function, bool arm)
      : h_(h), script_(script), function_(function) {
    if (h.running) throw HookError("LuaHost: re-entrant use from a native function is not supported");
    h.refusal_pending = false;
    h.memory_exceeded = false;
    h.string_too_long = false;
    h.memory_source = nullptr;
    h.track_source = nullptr;
    h.failure = State::Failure::none;
    h.failure_source = nullptr;
    h.remaining = h.limits.instructions;
    h.running = true;
    h.count_disturbed = false;
    h.clock_started = false;
    h.churn = 0;
    h.printed = 0;
    lua_settop(h.L, 0);
    if (arm) {
      h.hook_count = static_cast<int>(
          std::clamp<std::uint64_t>(h.limits.instructions, 1, kHookGranularity));
      lua_sethook(h.L, &count_hook, LUA_MASKCOUNT, h.hook_count);
      h.armed = true;
    }
  }
  Operation(const Operation&) = delete;
  Operation& operator=(const Operation&) = delete;

  // The count hook stays installed: it does nothing unarmed, and no Lua code runs between
  // operations; the next armed one sets its count afresh.
  ~Operation() {
    h_.armed = false;
    lua_settop(h_.L, 0);
    // Give a failed script's garbage back at once, so that the next call does not start
    // right at the cap. Scripts cannot install finalizers, so no Lua code runs here.
    if (failed_) lua_gc(h_.L, LUA_GCCOLLECT);
    h_.running = false;
  }

  // Calls the function at registry reference `function` protected, with the message handler and
  // the arguments; returns the Lua status. Pushing can only fail for room, checked first.
  int call(Handle function, std::span<const Slot> args) {
    lua_State* L = h_.L;
    lua_settop(L, 0);
    if (args.size() > 64 || lua_checkstack(L, static_cast<int>(args.size()) + 2) == 0) return run(&too_many_arguments, nullptr, 1);
    lua_pushcfunction(L, &message_handler);
    lua_rawgeti(L, LUA_REGISTRYINDEX, function);
    for (const Slot& arg : args) push_slot(L, arg);
    const int status = lua_pcall(L, static_cast<int>(args.size()), 1, 1);
    if (status != LUA_OK) failed_ = true;
    return status;
  }

  // Runs f(ctx) protected, with the message handler; returns the Lua status.
  int run(lua_CFunction f, void* ctx, int nresults) {
    lua_pushcfunction(h_.L, &message_handler);
    lua_pushcfunction(h_.L, f);
    lua_pushlightuserdata(h_.L, ctx);
    const int status = lua_pcall(h_.L, 1, nresults, 1);
    if (status != LUA_OK) failed_ = true;
    return status;
  }

  // The one-line message for a failed run(); the error value is on top of the stack. It names
  // the place once, then the function called (none when loading): "x.lua:3: may_jump: what".
  std::string error_message() const {
    const auto [where, what] = h_.failure != State::Failure::none || h_.memory_failed() ? limit_failure()
                                                                                      : lua_error();
    const std::string function = function_ == kTopLevel ? "" : std::string(function_) + ": ";
    return one_line(where + ": " + function + what);
  }

 private:
  using Parts = std::pair<std::string, std::string>;  // where, what

  Parts limit_failure() const {
    if (h_.failure == State::Failure::none)
      h_.fail(State::Failure::memory, h_.memory_source, h_.memory_line);
    std::string where(script_);
    if (h_.failure_source != nullptr) {
      where = std::string(chunk_label(h_.failure_source));
      if (h_.failure_line > 0) where += ":" + std::to_string(h_.failure_line);
    }
    if (h_.failure == State::Failure::interrupted) return {where, "interrupted"};
    if (h_.failure == State::Failure::budget)
      return {where, "instruction budget of " + std::to_string(h_.limits.instructions) + " exceeded"};
    if (h_.failure == State::Failure::deadline)
      return {where, "deadline of " + std::to_string(h_.limits.deadline_ms) + " ms exceeded"};
    if (h_.string_too_long) return {where, "string longer than " + std::to_string(kMaxStringBytes) + " bytes"};
    return {where, "memory cap of " + std::to_string(h_.limits.memory_bytes) + " bytes exceeded"};
  }

  // Lua puts the chunk name in front of its messages, cut to LUA_IDSIZE: the script's name is cut
  // here, the full one put back in its place.
  Parts lua_error() const {
    lua_State* L = h_.L;
    const std::string script(script_);
    std::string message;
    switch (lua_type(L, -1)) {
      case LUA_TSTRING: {
        std::size_t len = 0;
        const char* s = lua_tolstring(L, -1, &len);
        message.assign(s, len);
        break;
      }
      case LUA_TNUMBER:
        message = number_text(L, -1);
        break;
      default:
        message = std::string("(error object is a ") + luaL_typename(L, -1) + " value)";
    }
    const std::string chunk_id = script.substr(0, LUA_IDSIZE - 1) + ":";
    if (message.compare(0, chunk_id.size(), chunk_id) != 0) return {script, message};
    const std::size_t digits = message.find_first_not_of("0123456789", chunk_id.size());
    if (digits == std::string::npos || digits == chunk_id.size() || message.compare(digits, 2, ": ") != 0)
      return {script, message.substr(chunk_id.size() + (message[chunk_id.size()] == ' ' ? 1 : 0))};
    return {script + ":" + message.substr(chunk_id.size(), digits - chunk_id.size()), message.substr(digits + 2)};
  }

  State& h_;
  std::string_view script_;
  std::string_view function_;
  bool failed_ = false;
};

// What a kept native answers: a handle, NoHandle for nil, or -1 with the message in
// h.native_error. Never raises, never throws.
Handle invoke_kept(State& h, const detail::KeptNativeEntry& entry, std::span<const std::string_view> args) noexcept {
  try {
    return entry.fn(args);
  } catch (const std::exception& e) {
    try {
      h.native_error = one_line("palace." + entry.name + ": " + e.what());
    } catch (...) {
      h.native_error.clear();
    }
  } catch (...) {
    h.native_error.clear();
  }
  return -1;
}

constexpr int kMaxKeptArguments = 4;

int kept_trampoline(lua_State* L) {
  State& h = state_of(L);
  const auto* entry = static_cast<const detail::KeptNativeEntry*>(lua_touserdata(L, lua_upvalueindex(1)));
  detail::charge(L, 1);
  const int n = std::min(lua_gettop(L), kMaxKeptArguments);
  std::string_view args[kMaxKeptArguments];
  for (int i = 0; i < n; ++i) {
    if (lua_type(L, i + 1) != LUA_TSTRING) continue;
    std::size_t len = 0;
    const char* s = lua_tolstring(L, i + 1, &len);
    args[i] = std::string_view(s, len);
  }
  const Handle result = invoke_kept(h, *entry, std::span<const std::string_view>(args, static_cast<std::size_t>(n)));
  if (result < 0) return luaL_error(L, "%s", h.native_error.empty() ? "palace function failed" : h.native_error.c_str());
  if (result == NoHandle) lua_pushnil(L);
  else lua_rawgeti(L, LUA_REGISTRYINDEX, result);
  return 1;
}

// Asks a record's lazy field for its list of kept values. Never raises, never throws.
bool invoke_lazy(State& h, const detail::RecordEntry& record) noexcept {
  try {
    h.lazy_values.clear();
    record.lazy(h.lazy_values);
    return true;
  } catch (const std::exception& e) {
    try {
      h.native_error = one_line(e.what());
    } catch (...) {
      h.native_error.clear();
    }
  } catch (...) {
    h.native_error.clear();
  }
  return false;
}

// __index of a record's shadow: upvalue 1 the record entry, 2 the lazy field's name. The list is
// made on the first read in a call and kept in the shadow until the record is filled again.
int lazy_index(lua_State* L) {
  if (lua_rawequal(L, 2, lua_upvalueindex(2)) == 0) return 0;
  State& h = state_of(L);
  auto* record = static_cast<detail::RecordEntry*>(lua_touserdata(L, lua_upvalueindex(1)));
  if (!invoke_lazy(h, *record)) return luaL_error(L, "%s", h.native_error.c_str());
  detail::charge(L, 1 + h.lazy_values.size());
  const int n = static_cast<int>(h.lazy_values.size());
  lua_createtable(L, n, 0);
  for (int i = 0; i < n; ++i) {
    lua_rawgeti(L, LUA_REGISTRYINDEX, h.lazy_values[static_cast<std::size_t>(i)]);
    lua_rawseti(L, -2, i + 1);
  }
  lua_pushvalue(L, 2);
  lua_pushvalue(L, -2);
  lua_rawset(L, 1);
  record->lazy_cached = record->lazy_field >= 0;
  return 1;
}

struct KeepContext {
  const Value* value;
  Handle handle = NoHandle;
};

// Pushes the value, freezes it when a table, and references it from the registry.
int do_keep(lua_State* L) {
  auto* c = static_cast<KeepContext*>(lua_touserdata(L, 1));
  push_value(L, *c->value);
  if (lua_type(L, -1) == LUA_TTABLE) freeze(L, -1, 0, false);
  c->handle = luaL_ref(L, LUA_REGISTRYINDEX);
  return 0;
}

struct RecordContext {
  detail::RecordEntry* entry;
  const std::vector<std::string>* names;
  const std::string* lazy_name;
  Handle proxy = NoHandle;
};

// An empty frozen table and its shadow, with the field names kept; the shadow's metatable
// answers the lazy field when there is one.
int do_record(lua_State* L) {
  auto* c = static_cast<RecordContext*>(lua_touserdata(L, 1));
  lua_newtable(L);
  freeze(L, -1, 0, false);
  const int proxy = lua_gettop(L);
  if (!push_shadow(L, proxy)) return luaL_error(L, "record without a shadow");
  const int shadow = lua_gettop(L);
  for (const std::string& name : *c->names) {
    lua_pushlstring(L, name.data(), name.size());
    c->entry->names.push_back(luaL_ref(L, LUA_REGISTRYINDEX));  // room reserved: cannot throw
  }
  if (!c->lazy_name->empty()) {
    const auto named = std::find(c->names->begin(), c->names->end(), *c->lazy_name);
    if (named == c->names->end()) return luaL_error(L, "the lazy field is not a field of the record");
    c->entry->lazy_field = static_cast<int>(named - c->names->begin());
    lua_createtable(L, 0, 1);
    lua_pushlightuserdata(L, c->entry);
    lua_pushlstring(L, c->lazy_name->data(), c->lazy_name->size());
    lua_pushcclosure(L, &lazy_index, 2);
    lua_setfield(L, -2, "__index");
    lua_setmetatable(L, shadow);
  }
  lua_pushvalue(L, shadow);
  c->entry->shadow = luaL_ref(L, LUA_REGISTRYINDEX);
  lua_pushvalue(L, proxy);
  c->proxy = luaL_ref(L, LUA_REGISTRYINDEX);
  return 0;
}

template <typename T>
void store_at(std::vector<std::unique_ptr<T>>& entries, Handle handle, std::unique_ptr<T> entry) {
  const auto at = static_cast<std::size_t>(handle);
  if (entries.size() <= at) entries.resize(at + 1);
  entries[at] = std::move(entry);
}

}  // namespace

// ---------------------------------------------------------------------------------------------
// LuaHost

LuaHost::LuaHost(Limits limits) : state_(std::make_unique<detail::LuaHostState>(limits)) {
  State& h = *state_;
  h.L = lua_newstate(&host_alloc, &h);
  if (h.L == nullptr) {
    throw HookError("LuaHost: memory cap of " + std::to_string(limits.memory_bytes) +
                    " bytes is too small for a Lua state");
  }
  int status = LUA_OK;
  {
    Operation op(h, "LuaHost", "setup", false);
    status = op.run(&do_setup, nullptr, 0);
  }
  if (status != LUA_OK) {
    lua_close(h.L);
    h.L = nullptr;
    throw HookError("LuaHost: memory cap of " + std::to_string(limits.memory_bytes) +
                    " bytes is too small for the Lua libraries");
  }
}

LuaHost::~LuaHost() {
  if (state_ && state_->L != nullptr) lua_close(state_->L);
}

namespace {

void check_registration(State& h, const std::string& name, bool empty_function) {
  if (h.running) throw HookError("LuaHost: re-entrant use from a native function is not supported");
  if (name.empty() || empty_function) throw HookError("register_function: empty name or function");
  if (!h.scripts.empty())
    throw HookError("register_function(" + quote(name) + "): must be called before load_script");
  if (h.natives.count(name) != 0 || h.kept_natives.count(name) != 0)
    throw HookError("register_function(" + quote(name) + "): already registered");
}

}  // namespace

void LuaHost::register_function(const std::string& name, NativeFunction fn) {
  State& h = *state_;
  check_registration(h, name, !fn);
  // The entry is owned by the map before Lua holds a pointer to it.
  const auto it = h.natives.emplace(name, std::make_unique<NativeEntry>(NativeEntry{name, std::move(fn)})).first;
  Operation op(h, "LuaHost", "register_function", false);
  Registration r{&it->first, &native_trampoline, it->second.get()};
  if (op.run(&do_register, &r, 0) != LUA_OK) {
    const std::string message = op.error_message();
    h.natives.erase(it);  // the closure was not stored: rawset is the last thing that can fail
    throw HookError(one_line("register_function(" + quote(name) + "): " + message));
  }
}

void LuaHost::register_kept_function(const std::string& name, KeptFunction fn) {
  State& h = *state_;
  check_registration(h, name, !fn);
  const auto it =
      h.kept_natives.emplace(name, std::make_unique<detail::KeptNativeEntry>(detail::KeptNativeEntry{name, std::move(fn)})).first;
  Operation op(h, "LuaHost", "register_function", false);
  Registration r{&it->first, &kept_trampoline, it->second.get()};
  if (op.run(&do_register, &r, 0) != LUA_OK) {
    const std::string message = op.error_message();
    h.kept_natives.erase(it);
    throw HookError(one_line("register_function(" + quote(name) + "): " + message));
  }
}

void LuaHost::load_script(const std::string& path, const std::string& display_name) {
  if (display_name.empty()) throw HookError("load_script(" + quote(path, kMaxQuoted) + "): empty display name");
  std::string text;
  try {
    text = read_text_file(path);
  } catch (const FileError& e) {
    throw HookError(one_line(display_name + ": cannot read " + quote(path, kMaxQuoted) + ": " + e.reason()));
  }
  load_source(text, display_name);
}

void LuaHost::load_source(const std::string& text, const std::string& display_name) {
  State& h = *state_;
  if (h.running) throw HookError("LuaHost: re-entrant use from a native function is not supported");
  if (display_name.empty()) throw HookError("load_source: empty display name");
  if (h.scripts.count(display_name) != 0)
    throw HookError(one_line(display_name + ": script already loaded"));

  // "=": Lua shows the name as it is, cut at the end if long (error_message puts it back whole).
  const std::string chunkname = "=" + display_name;
  LoadContext ctx{&text, &chunkname, &display_name};
  {
    Operation op(h, display_name, kTopLevel, true);
    if (op.run(&do_load, &ctx, 0) != LUA_OK) {
      const std::string message = op.error_message();  // before unpinning the chunk
      lua_pushcfunction(h.L, &do_forget);
      lua_pushlightuserdata(h.L, const_cast<std::string*>(&display_name));
      lua_pcall(h.L, 1, 0, 0);  // failing to forget only leaves an unreachable entry behind
      throw HookError(message);
    }
  }
  h.scripts[display_name] = detail::ScriptEntry{ctx.restore, ctx.restore_count};
  // The top level's garbage goes now: what it built to compute its tables is no call's business.
  lua_gc(h.L, LUA_GCCOLLECT);
}

void LuaHost::set_interrupt(std::function<bool()> stop) { state_->interrupt = std::move(stop); }

const std::function<bool()>& LuaHost::interrupt() const { return state_->interrupt; }

bool LuaHost::has_function(const std::string& display_name, const std::string& function) const {
  return function_line(display_name, function) != 0;
}

int LuaHost::function_line(const std::string& display_name, const std::string& function) const {
  State& h = *state_;
  if (h.running) throw HookError("LuaHost: re-entrant use from a native function is not supported");
  if (h.scripts.count(display_name) == 0) return 0;
  Operation op(h, display_name, function, false);
  CallContext ctx{&display_name, &function, nullptr, false};
  if (op.run(&do_lookup, &ctx, 0) != LUA_OK) throw HookError(op.error_message());
  return ctx.line;
}

Value LuaHost::call(const std::string& display_name, const std::string& function,
                    const std::vector<Value>& args) {
  State& h = *state_;
  if (h.running) throw HookError("LuaHost: re-entrant use from a native function is not supported");
  const auto script = h.scripts.find(display_name);
  if (script == h.scripts.end()) throw HookError(one_line(display_name + ": script not loaded"));
  if (args.size() > 10000) throw HookError(one_line(display_name + ": " + function + ": too many arguments"));
  for (std::size_t i = 0; i < args.size(); ++i) {
    if (const char* why = unpushable(args[i], 1))
      throw HookError(one_line(display_name + ": " + function + ": argument #" + std::to_string(i + 1) + " is " + why));
  }
  // Asked before the call too: most hook calls end before the count hook first runs.
  if (h.interrupt && h.interrupt()) throw HookInterrupted();
  Operation op(h, display_name, function, true);
  CallContext ctx{&display_name, &function, &args, false};
  const int status = op.run(&do_call, &ctx, 1);
  restore_upvalues(h.L, script->second.restore, script->second.restore_count);
  if (status != LUA_OK) {
    if (h.failure == State::Failure::interrupted) throw HookInterrupted();
    throw HookError(op.error_message());
  }
  if (!ctx.found) throw HookError(one_line(display_name + ": no function " + quote(function)));
  Value out;
  const char* why = nullptr;
  const char* type = nullptr;
  if (!to_value(h, -1, out, why, type))
    throw HookError(one_line(display_name + ": " + function + ": returned " + describe_failure(why, type)));
  return out;
}

Handle LuaHost::function_handle(const std::string& display_name, const std::string& function) {
  State& h = *state_;
  const auto script = h.scripts.find(display_name);
  if (script == h.scripts.end()) throw HookError(one_line(display_name + ": script not loaded"));
  CallContext ctx{&display_name, &function, nullptr, false};
  {
    Operation op(h, display_name, function, false);
    if (op.run(&do_reference, &ctx, 0) != LUA_OK) throw HookError(op.error_message());
  }
  if (!ctx.found) throw HookError(one_line(display_name + ": no function " + quote(function)));
  store_at(h.functions, ctx.handle,
           std::make_unique<detail::FunctionEntry>(
               detail::FunctionEntry{display_name, function, ctx.handle, script->second.restore, script->second.restore_count}));
  return ctx.handle;
}

Handle LuaHost::keep(const Value& value) {
  State& h = *state_;
  if (!value.is_string() && !value.is_table()) throw HookError(std::string("LuaHost::keep: a ") + value.type_name() + " is not kept");
  if (const char* why = unpushable(value, 1)) throw HookError(std::string("LuaHost::keep: ") + why);
  KeepContext ctx{&value};
  Operation op(h, "LuaHost", "keep", false);
  if (op.run(&do_keep, &ctx, 0) != LUA_OK) throw HookError(op.error_message());
  return ctx.handle;
}

Handle LuaHost::record(const std::vector<std::string>& names, const std::string& lazy_name,
                       std::function<void(std::vector<Handle>&)> lazy) {
  State& h = *state_;
  auto entry = std::make_unique<detail::RecordEntry>();
  entry->names.reserve(names.size());
  entry->last.resize(names.size());
  entry->lazy = std::move(lazy);
  const std::string none;
  RecordContext ctx{entry.get(), &names, entry->lazy ? &lazy_name : &none};
  {
    Operation op(h, "LuaHost", "record", false);
    if (op.run(&do_record, &ctx, 0) != LUA_OK) throw HookError(op.error_message());
  }
  const Handle proxy = ctx.proxy;
  store_at(h.records, proxy, std::move(entry));
  return proxy;
}

Value LuaHost::call(Handle function, std::span<const Fill> fills, std::span<const Slot> args) {
  State& h = *state_;
  const auto at = static_cast<std::size_t>(function);
  if (function <= NoHandle || at >= h.functions.size() || !h.functions[at]) throw HookError("LuaHost: no such function handle");
  for (const Fill& fill : fills) {
    const auto r = static_cast<std::size_t>(fill.record);
    if (fill.record <= NoHandle || r >= h.records.size() || !h.records[r]) throw HookError("LuaHost: no such record");
  }
  const detail::FunctionEntry& entry = *h.functions[at];
  if (h.interrupt && h.interrupt()) throw HookInterrupted();
  Operation op(h, entry.script, entry.function, true);
  // Most fills only change fields that hold a value (the `to` of the next move of a piece), which
  // needs no protected call of its own.
  bool protect = false;
  for (const Fill& fill : fills) protect = protect || fill_may_allocate(*h.records[static_cast<std::size_t>(fill.record)], fill.fields);
  int status = LUA_OK;
  if (protect) {
    FillContext ctx{&h, fills};
    status = op.run(&do_fill, &ctx, 0);
  } else if (lua_checkstack(h.L, 4) != 0) {
    fill_records(h.L, h, fills);
  } else {
    status = op.run(&too_many_arguments, nullptr, 0);
  }
  if (status == LUA_OK) status = op.call(entry.value, args);
  restore_upvalues(h.L, entry.restore, entry.restore_count);
  if (status != LUA_OK) {
    if (h.failure == State::Failure::interrupted) throw HookInterrupted();
    throw HookError(op.error_message());
  }
  switch (lua_type(h.L, -1)) {
    case LUA_TBOOLEAN:
      return Value::boolean(lua_toboolean(h.L, -1) != 0);
    case LUA_TNIL:
      return Value::nil();
    default:
      break;
  }
  Value out;
  const char* why = nullptr;
  const char* type = nullptr;
  if (!to_value(h, -1, out, why, type))
    throw HookError(one_line(entry.script + ": " + entry.function + ": returned " + describe_failure(why, type)));
  return out;
}

}  // namespace palace::hooks
