#include "hooks/lua_host.h"

#include <algorithm>
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
constexpr const char* kTopLevel = "main chunk";
// A new string's block holds a header before its characters; this bounds the header's size.
constexpr std::size_t kStringHeader = 64;

// Registry keys: the addresses are what matters.
char kTemplateKey;  // table of everything a fresh environment starts with
char kEnvsKey;      // display name -> the functions its top level defined (do_load)
char kChunksKey;    // display name -> main chunk (pins the chunk's source string)
char kAbortKey;     // preallocated error value used once a limit is hit

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
  if (ar->event == LUA_HOOKCOUNT && on_count(state_of(L), L, ar)) raise_abort(L, true);
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

// setmetatable without __gc: finalizers run at arbitrary points, including inside the host's
// own collections and lua_close, where no instruction budget is armed.
int safe_setmetatable(lua_State* L) {
  const int t = lua_type(L, 2);
  luaL_checktype(L, 1, LUA_TTABLE);
  luaL_argexpected(L, t == LUA_TNIL || t == LUA_TTABLE, 2, "nil or table");
  if (t == LUA_TTABLE) {
    lua_pushliteral(L, "__gc");
    const int gc = lua_rawget(L, 2);
    lua_pop(L, 1);
    if (gc != LUA_TNIL) return luaL_error(L, "__gc metamethods are not allowed");
  }
  if (luaL_getmetafield(L, 1, "__metatable") != LUA_TNIL)
    return luaL_error(L, "cannot change a protected metatable");
  lua_settop(L, 2);
  lua_setmetatable(L, 1);
  return 1;
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

// Copied from the base library; print and tonumber are the charged ones (lua_library.cpp).
const char* const kBaseNames[] = {"assert", "error",  "getmetatable", "ipairs", "next",     "pairs",
                                  "print",  "rawequal", "rawget",     "rawlen", "rawset",   "select",
                                  "tonumber", "tostring", "type",     "_VERSION"};
const luaL_Reg kSafeBase[] = {{"pcall", &safe_pcall},
                              {"xpcall", &safe_xpcall},
                              {"setmetatable", &safe_setmetatable},
                              {nullptr, nullptr}};
// No script uses Lua patterns, and their matcher backtracks in C, out of the budget's sight: a
// five-character pattern can run for hours. scripts/README.md says what to use instead.
const char* const kAbsentStringFunctions[] = {"dump", "find", "match", "gmatch", "gsub"};
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

  lua_newtable(L);
  lua_rawsetp(L, LUA_REGISTRYINDEX, &kEnvsKey);
  lua_newtable(L);
  lua_rawsetp(L, LUA_REGISTRYINDEX, &kChunksKey);
  lua_pushliteral(L, "palace: hook stopped by the host");
  lua_rawsetp(L, LUA_REGISTRYINDEX, &kAbortKey);
  return 0;
}

int do_register(lua_State* L) {
  const auto* entry = static_cast<const NativeEntry*>(lua_touserdata(L, 1));
  lua_rawgetp(L, LUA_REGISTRYINDEX, &kTemplateKey);
  lua_getfield(L, -1, "palace");
  lua_pushlstring(L, entry->name.data(), entry->name.size());
  lua_pushlightuserdata(L, const_cast<NativeEntry*>(entry));
  lua_pushcclosure(L, &native_trampoline, 1);
  lua_rawset(L, -3);
  return 0;
}

// Fresh environment: the template's entries, with every table (string, math, palace, ...)
// shallow-copied so that whatever a script does to them stays its own business.
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
};

void set_registry_entry(lua_State* L, void* key, const std::string& name, int value_idx) {
  value_idx = lua_absindex(L, value_idx);
  lua_rawgetp(L, LUA_REGISTRYINDEX, key);
  lua_pushlstring(L, name.data(), name.size());
  lua_pushvalue(L, value_idx);
  lua_rawset(L, -3);
  lua_pop(L, 1);
}

int do_load(lua_State* L) {
  const auto* c = static_cast<const LoadContext*>(lua_touserdata(L, 1));
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
  // Kept for lookups: the functions the script defined itself, not what else its top level built
  // (which each call builds again, and which could hold most of the heap cap).
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
  int line = 0;  // where the function is defined, for function_line
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

// Hooks must answer the same for the same position, so nothing a call does may outlive it:
// not the globals it sets, not a table of the environment it fills, not a top-level `local` its
// functions share as an upvalue. Each call therefore runs the script's main chunk again in a fresh
// environment (new locals, new closures, new tables) and calls the function that run defined; the
// top level counts against the call's budget.
int do_call(lua_State* L) {
  auto* c = static_cast<CallContext*>(lua_touserdata(L, 1));
  c->found = push_script_function(L, *c->script, *c->function);
  if (!c->found) return 0;
  lua_settop(L, 1);
  lua_rawgetp(L, LUA_REGISTRYINDEX, &kChunksKey);
  lua_pushlstring(L, c->script->data(), c->script->size());
  lua_rawget(L, -2);
  const int chunk = lua_gettop(L);
  push_environment(L);
  const int env = lua_gettop(L);
  lua_pushvalue(L, env);
  lua_setupvalue(L, chunk, 1);  // a main chunk's only upvalue is _ENV
  lua_pushvalue(L, chunk);
  lua_call(L, 0, 0);
  lua_pushlstring(L, c->function->data(), c->function->size());
  if (lua_rawget(L, env) != LUA_TFUNCTION)
    return luaL_error(L, "the top level defines %s only on some runs", c->function->c_str());
  const int nargs = static_cast<int>(c->args->size());
  luaL_checkstack(L, nargs + 1, "too many arguments");
  for (const Value& arg : *c->args) push_value(L, arg);
  lua_call(L, nargs, 1);
  return 1;
}

std::string number_text(lua_State* L, int idx) {
  if (lua_isinteger(L, idx)) return std::to_string(lua_tointeger(L, idx));
  char buf[64];
  std::snprintf(buf, sizeof buf, "%.14g", static_cast<double>(lua_tonumber(L, idx)));
  return buf;
}

// One operation on the state: resets the per-operation bookkeeping, optionally arms the
// budget, and always leaves the state clean (hook off, empty stack) however it ends.
class Operation {
 public:
  Operation(State& h, const std::string& script, const std::string& function, bool arm)
      : h_(h) {
    if (h.running) throw HookError("LuaHost: re-entrant use from a native function is not supported");
    h.script = script;
    h.function = function;
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

  ~Operation() {
    h_.armed = false;
    lua_sethook(h_.L, nullptr, 0, 0);
    lua_settop(h_.L, 0);
    // Give a failed script's garbage back at once, so that the next call does not start
    // right at the cap. Scripts cannot install finalizers, so no Lua code runs here.
    if (failed_) lua_gc(h_.L, LUA_GCCOLLECT);
    h_.running = false;
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
    const std::string function = h_.function == kTopLevel ? "" : h_.function + ": ";
    return one_line(where + ": " + function + what);
  }

 private:
  using Parts = std::pair<std::string, std::string>;  // where, what

  Parts limit_failure() const {
    if (h_.failure == State::Failure::none)
      h_.fail(State::Failure::memory, h_.memory_source, h_.memory_line);
    std::string where = h_.script;
    if (h_.failure_source != nullptr) {
      where = std::string(chunk_label(h_.failure_source));
      if (h_.failure_line > 0) where += ":" + std::to_string(h_.failure_line);
    }
    if (h_.failure == State::Failure::interrupted) return {where, "interrupted"};
    if (h_.failure == State::Failure::budget)
      return {where, "instruction budget of " + std::to_string(h_.limits.instructions) + " exceeded"};
    if (h_.string_too_long) return {where, "string longer than " + std::to_string(kMaxStringBytes) + " bytes"};
    return {where, "memory cap of " + std::to_string(h_.limits.memory_bytes) + " bytes exceeded"};
  }

  // Lua puts the chunk name in front of its messages, cut to LUA_IDSIZE: the script's name is cut
  // here, the full one put back in its place.
  Parts lua_error() const {
    lua_State* L = h_.L;
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
    const std::string chunk_id = h_.script.substr(0, LUA_IDSIZE - 1) + ":";
    if (message.compare(0, chunk_id.size(), chunk_id) != 0) return {h_.script, message};
    const std::size_t digits = message.find_first_not_of("0123456789", chunk_id.size());
    if (digits == std::string::npos || digits == chunk_id.size() || message.compare(digits, 2, ": ") != 0)
      return {h_.script, message.substr(chunk_id.size() + (message[chunk_id.size()] == ' ' ? 1 : 0))};
    return {h_.script + ":" + message.substr(chunk_id.size(), digits - chunk_id.size()), message.substr(digits + 2)};
  }

  State& h_;
  bool failed_ = false;
};

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

void LuaHost::register_function(const std::string& name, NativeFunction fn) {
  State& h = *state_;
  if (h.running) throw HookError("LuaHost: re-entrant use from a native function is not supported");
  if (name.empty() || !fn) throw HookError("register_function: empty name or function");
  if (!h.scripts.empty())
    throw HookError("register_function(" + quote(name) + "): must be called before load_script");
  if (h.natives.count(name) != 0) throw HookError("register_function(" + quote(name) + "): already registered");
  // The entry is owned by the map before Lua holds a pointer to it.
  const auto it = h.natives.emplace(name, std::make_unique<NativeEntry>(NativeEntry{name, std::move(fn)})).first;
  Operation op(h, "LuaHost", "register_function", false);
  if (op.run(&do_register, it->second.get(), 0) != LUA_OK) {
    const std::string message = op.error_message();
    h.natives.erase(it);  // the closure was not stored: rawset is the last thing that can fail
    throw HookError(one_line("register_function(" + quote(name) + "): " + message));
  }
}

void LuaHost::load_script(const std::string& path, const std::string& display_name) {
  State& h = *state_;
  if (h.running) throw HookError("LuaHost: re-entrant use from a native function is not supported");
  if (display_name.empty()) throw HookError("load_script(" + quote(path, kMaxQuoted) + "): empty display name");
  if (h.scripts.count(display_name) != 0)
    throw HookError(one_line(display_name + ": script already loaded"));
  std::string text;
  try {
    text = read_text_file(path);
  } catch (const FileError& e) {
    throw HookError(one_line(display_name + ": cannot read " + quote(path, kMaxQuoted) + ": " + e.reason()));
  }

  // "=": Lua shows the name as it is, cut at the end if long (error_message puts it back whole).
  const std::string chunkname = "=" + display_name;
  Operation op(h, display_name, kTopLevel, true);
  LoadContext ctx{&text, &chunkname, &display_name};
  if (op.run(&do_load, &ctx, 0) != LUA_OK) {
    const std::string message = op.error_message();  // before unpinning the chunk
    lua_pushcfunction(h.L, &do_forget);
    lua_pushlightuserdata(h.L, const_cast<std::string*>(&display_name));
    lua_pcall(h.L, 1, 0, 0);  // failing to forget only leaves an unreachable entry behind
    throw HookError(message);
  }
  h.scripts.insert(display_name);
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
  if (h.scripts.count(display_name) == 0)
    throw HookError(one_line(display_name + ": script not loaded"));
  if (args.size() > 10000) throw HookError(one_line(display_name + ": " + function + ": too many arguments"));
  for (std::size_t i = 0; i < args.size(); ++i) {
    if (const char* why = unpushable(args[i], 1))
      throw HookError(one_line(display_name + ": " + function + ": argument #" + std::to_string(i + 1) + " is " + why));
  }
  // Asked before the call too: most hook calls end before the count hook first runs.
  if (h.interrupt && h.interrupt()) throw HookInterrupted();
  Operation op(h, display_name, function, true);
  CallContext ctx{&display_name, &function, &args, false};
  if (op.run(&do_call, &ctx, 1) != LUA_OK) {
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

}  // namespace palace::hooks
