#include "hooks/lua_host.h"

#include <algorithm>
#include <cctype>
#include <climits>
#include <cmath>
#include <cstdarg>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <iterator>
#include <map>
#include <set>

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
// Value

Value Value::nil() { return Value{}; }

Value Value::boolean(bool b) {
  Value x;
  x.v.emplace<bool>(b);
  return x;
}

Value Value::integer(std::int64_t i) {
  Value x;
  x.v.emplace<std::int64_t>(i);
  return x;
}

Value Value::number(double d) {
  Value x;
  x.v.emplace<double>(d);
  return x;
}

Value Value::string(std::string s) {
  Value x;
  x.v.emplace<std::string>(std::move(s));
  return x;
}

Value Value::table(Table entries) {
  Value x;
  x.v.emplace<std::shared_ptr<Table>>(std::make_shared<Table>(std::move(entries)));
  return x;
}

bool Value::is_nil() const { return std::holds_alternative<std::monostate>(v); }
bool Value::is_bool() const { return std::holds_alternative<bool>(v); }
bool Value::is_integer() const { return std::holds_alternative<std::int64_t>(v); }
bool Value::is_number() const { return std::holds_alternative<double>(v); }
bool Value::is_numeric() const { return is_integer() || is_number(); }
bool Value::is_string() const { return std::holds_alternative<std::string>(v); }
bool Value::is_table() const { return std::holds_alternative<std::shared_ptr<Table>>(v); }

namespace {

[[noreturn]] void throw_type_error(const Value& value, const char* wanted) {
  throw HookError(std::string("expected ") + wanted + " value, got " + value.type_name());
}

const Table& empty_table() {
  static const Table kEmpty;
  return kEmpty;
}

}  // namespace

bool Value::as_bool() const {
  if (const bool* b = std::get_if<bool>(&v)) return *b;
  throw_type_error(*this, "boolean");
}

std::int64_t Value::as_integer() const {
  if (const std::int64_t* i = std::get_if<std::int64_t>(&v)) return *i;
  throw_type_error(*this, "integer");
}

double Value::as_number() const {
  if (const double* d = std::get_if<double>(&v)) return *d;
  if (const std::int64_t* i = std::get_if<std::int64_t>(&v)) return static_cast<double>(*i);
  throw_type_error(*this, "number");
}

const std::string& Value::as_string() const {
  if (const std::string* s = std::get_if<std::string>(&v)) return *s;
  throw_type_error(*this, "string");
}

const Table& Value::as_table() const {
  if (const auto* t = std::get_if<std::shared_ptr<Table>>(&v)) return *t ? **t : empty_table();
  throw_type_error(*this, "table");
}

Table& Value::as_table() {
  if (auto* t = std::get_if<std::shared_ptr<Table>>(&v)) {
    if (!*t) *t = std::make_shared<Table>();
    return **t;
  }
  throw_type_error(*this, "table");
}

const Value* Value::find(const Value& key) const {
  const auto* t = std::get_if<std::shared_ptr<Table>>(&v);
  if (!t || !*t) return nullptr;
  const Value* found = nullptr;
  for (const auto& [k, val] : **t) {
    if (k == key) found = &val;
  }
  return found;
}

const Value* Value::find(std::string_view key) const {
  const auto* t = std::get_if<std::shared_ptr<Table>>(&v);
  if (!t || !*t) return nullptr;
  const Value* found = nullptr;
  for (const auto& [k, val] : **t) {
    const std::string* s = std::get_if<std::string>(&k.v);
    if (s && *s == key) found = &val;
  }
  return found;
}

const char* Value::type_name() const {
  static constexpr const char* kNames[] = {"nil", "boolean", "integer", "number", "string", "table"};
  return kNames[v.index()];
}

std::string Value::debug_string() const {
  switch (v.index()) {
    case 0:
      return "nil";
    case 1:
      return std::get<bool>(v) ? "true" : "false";
    case 2:
      return std::to_string(std::get<std::int64_t>(v));
    case 3: {
      char buf[64];
      std::snprintf(buf, sizeof buf, "%.17g", std::get<double>(v));
      std::string out = buf;
      if (out.find_first_not_of("-0123456789") == std::string::npos) out += ".0";
      return out;
    }
    case 4: {
      std::string out = "\"";
      for (char c : std::get<std::string>(v)) {
        if (c == '"' || c == '\\') out += '\\';
        out += c;
      }
      return out + "\"";
    }
    default: {
      std::string out = "{";
      bool first = true;
      for (const auto& [k, val] : as_table()) {
        out += first ? "" : ", ";
        first = false;
        out += "[" + k.debug_string() + "] = " + val.debug_string();
      }
      return out + "}";
    }
  }
}

bool operator==(const Value& a, const Value& b) {
  if (a.v.index() != b.v.index()) return false;
  switch (a.v.index()) {
    case 0:
      return true;
    case 1:
      return std::get<bool>(a.v) == std::get<bool>(b.v);
    case 2:
      return std::get<std::int64_t>(a.v) == std::get<std::int64_t>(b.v);
    case 3:
      return std::get<double>(a.v) == std::get<double>(b.v);
    case 4:
      return std::get<std::string>(a.v) == std::get<std::string>(b.v);
    default: {
      const auto& pa = std::get<std::shared_ptr<Table>>(a.v);
      const auto& pb = std::get<std::shared_ptr<Table>>(b.v);
      if (pa == pb) return true;
      return a.as_table() == b.as_table();
    }
  }
}

// ---------------------------------------------------------------------------------------------
// Host state

namespace detail {

struct NativeEntry {
  std::string name;
  NativeFunction fn;
};

struct LuaHostState {
  enum class Failure { none, budget, memory, pattern };

  explicit LuaHostState(Limits l) : limits(l) {}

  Limits limits;
  lua_State* L = nullptr;

  // --- allocator bookkeeping (touched from inside Lua allocations: plain data only) ---
  std::size_t used = 0;
  // Lua retries a refused request once after an emergency collection, so a refusal is only
  // "pending" until we see whether that retry succeeds.
  bool refusal_pending = false;
  const void* refused_ptr = nullptr;
  std::size_t refused_osize = 0;
  std::size_t refused_nsize = 0;
  bool memory_exceeded = false;
  // Where the script was when the first refusal happened (see `track_source`).
  const char* memory_source = nullptr;
  int memory_line = 0;

  // --- per-operation state ---
  bool running = false;
  bool armed = false;           // the count hook is installed (script code may run)
  std::uint64_t remaining = 0;  // instructions left in the budget
  int hook_count = 0;           // the count the hook was last armed with by on_count
  bool count_disturbed = false;  // the allocator re-armed the hook with a count of 1 since
  std::size_t churn = 0;         // bytes allocated since the hook last charged them
  // Near the memory cap the hook fires on every instruction and records the position here:
  // an allocation failure inside the VM unwinds without calling any message handler, so this
  // is the only way to name the line of a plain `t[#t+1] = ...` memory bomb. The pointers
  // are the `source` strings of chunks pinned in the registry, so they outlive the error.
  const char* track_source = nullptr;
  int track_line = 0;
  Failure failure = Failure::none;
  const char* failure_source = nullptr;
  int failure_line = 0;
  std::size_t failure_subject = 0;  // subject length, for Failure::pattern
  // Pattern matching work (see "Pattern matching") not yet charged as a whole instruction.
  std::uint64_t pattern_carry = 0;
  std::string script;    // display name of the running script
  std::string function;  // function being called, for messages

  std::map<std::string, std::unique_ptr<NativeEntry>> natives;
  std::set<std::string> scripts;
  std::string native_error;  // message of the last failed native call (lives outside Lua frames)

  bool memory_failed() const { return memory_exceeded || refusal_pending; }

  void fail(Failure kind, const char* source, int line) {
    if (failure != Failure::none) return;
    failure = kind;
    failure_source = source;
    failure_line = line;
  }
};

}  // namespace detail

namespace {

using State = detail::LuaHostState;
using detail::NativeEntry;

constexpr int kMaxDepth = 32;
constexpr int kHookGranularity = 1000;
// One instruction can copy megabytes (`s = s .. s`, string.rep), so counting instructions
// alone would let quadratic string building run for minutes inside the budget. Allocation is
// therefore charged against the instruction budget too, at one instruction per this many bytes.
constexpr std::size_t kBytesPerInstruction = 256;
// Allocating this much makes the hook run at the next instruction to charge it.
constexpr std::size_t kChurnCheck = kBytesPerInstruction * kHookGranularity;
constexpr std::size_t kMaxMessage = 1000;
constexpr const char* kTopLevel = "main chunk";

// Registry keys: the addresses are what matters.
char kTemplateKey;  // table of everything a fresh environment starts with
char kEnvsKey;      // display name -> environment
char kChunksKey;    // display name -> main chunk (pins the chunk's source string)
char kAbortKey;     // preallocated error value used once a limit is hit

State& state_of(lua_State* L) {
  void* ud = nullptr;
  lua_getallocf(L, &ud);
  return *static_cast<State*>(ud);
}

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
    h.refusal_pending = true;
    h.refused_ptr = ptr;
    h.refused_osize = osize;
    h.refused_nsize = nsize;
    if (!h.memory_exceeded && h.memory_source == nullptr) {
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
  }
  fire_hook_soon(h);  // whatever caught the error is stopped at its next instruction
  return nullptr;
}

// ---------------------------------------------------------------------------------------------
// Limits: the count hook and the sticky abort

// Raises the preallocated abort value, so raising works even with the heap exhausted, and
// re-arms the hook on every instruction so that anything still running (a __close handler,
// code after a pcall) is stopped again at once. The real message is kept in C++.
int raise_abort(lua_State* L, bool in_hook) {
  State& h = state_of(L);
  h.hook_count = 1;
  h.count_disturbed = false;
  lua_sethook(L, &count_hook, LUA_MASKCOUNT, 1);
  if (!in_hook && lua_checkstack(L, 1) == 0) lua_settop(L, 0);
  lua_rawgetp(L, LUA_REGISTRYINDEX, &kAbortKey);
  return lua_error(L);
}

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
// Pattern matching
//
// string.find, match, gmatch and gsub backtrack in C, where the count hook never fires:
// ("a"):rep(3000):find(".-.-.-.-b") tries about n^5/120 paths, effectively forever. A static
// worst-case estimate (each quantifier tries up to n+1 lengths, an unanchored search every
// start) cannot fix that on its own: a bound loose enough for ordinary patterns (the usual
// trim "^%s*(.-)%s*$" is already n^4 on paper) still lets a call run for seconds, and a script
// then calls it in a loop, because nothing is charged; charging the estimate instead would
// refuse the trim of a 100-character string. So the host replaces the four functions, in the
// one string table that both `string.find` and `s:find` reach (strings share a metatable, so
// per-script method tables are not possible), by the same Lua 5.4 matcher written out with a
// step counter: every item tried, character tested and byte scanned counts, the steps are
// charged to the instruction budget, and a match stops the moment the budget is gone.
// Results and error messages are those of Lua 5.4 (checked against liblua by differential
// fuzzing). Plain finds use memmem, which unlike Lua's own search is linear in the worst case.
//
// When the budget runs out inside a match, a call that had used at least half of the whole
// budget by itself is reported as "pattern too complex for a subject of N characters";
// otherwise the script was spending its budget on many calls and gets the usual message.

// Measured (-O2, pathological and ordinary patterns): a step takes 3 to 15 ns, a VM
// instruction of a plain loop about 11 ns, so a full budget of matching lasts about as long
// as a full budget of Lua code.
constexpr std::uint64_t kPatternStepsPerInstruction = 1;
constexpr int kMaxCaptures = 32;     // LUA_MAXCAPTURES
constexpr int kMaxMatchDepth = 200;  // MAXCCALLS of lstrlib.c: deeper is "pattern too complex"
constexpr std::ptrdiff_t kCapUnfinished = -1;
constexpr std::ptrdiff_t kCapPosition = -2;
constexpr char kEsc = '%';

struct Capture {
  const char* init;
  std::ptrdiff_t len;  // or kCapUnfinished / kCapPosition
};

// Trivially destructible: it lives in frames that Lua errors jump over.
struct Matcher {
  lua_State* L;
  State* h;
  const char* src_init;
  const char* src_end;  // Lua strings are NUL-terminated, so *src_end and *p_end can be read
  const char* p_end;
  int depth_left;
  int level;  // captures opened so far
  Capture capture[kMaxCaptures];
  std::uint64_t steps;    // counted since the last charge
  std::uint64_t limit;    // steps may not exceed this: it is what is left of the budget
  std::uint64_t charged;  // steps of this call already charged
};

unsigned char uchar(char c) { return static_cast<unsigned char>(c); }

std::uint64_t pattern_steps_left(const State& h) {
  if (!h.armed) return UINT64_MAX;
  if (h.remaining > UINT64_MAX / kPatternStepsPerInstruction) return UINT64_MAX;
  const std::uint64_t steps = h.remaining * kPatternStepsPerInstruction;
  return steps > h.pattern_carry ? steps - h.pattern_carry : 0;
}

// Moves the counted steps onto the instruction budget and re-reads what is left of it (a
// gsub replacement function may have spent some in between). Never raises.
void charge(Matcher& m) {
  State& h = *m.h;
  if (h.armed) {
    const std::uint64_t total = h.pattern_carry + m.steps;
    h.remaining -= std::min(total / kPatternStepsPerInstruction, h.remaining);
    h.pattern_carry = total % kPatternStepsPerInstruction;
  }
  m.charged += m.steps;
  m.steps = 0;
  m.limit = pattern_steps_left(h);
}

void prepare(Matcher& m, lua_State* L, const char* s, std::size_t ls, const char* p, std::size_t lp) {
  m.L = L;
  m.h = &state_of(L);
  m.src_init = s;
  m.src_end = s + ls;
  m.p_end = p + lp;
  m.depth_left = kMaxMatchDepth;
  m.level = 0;
  m.steps = 0;
  m.charged = 0;
  m.limit = pattern_steps_left(*m.h);
}

// Before each attempt at a new starting position.
void restart(Matcher& m) {
  m.level = 0;
  m.depth_left = kMaxMatchDepth;
}

// The budget ran out in the middle of a match: stop the script like any other limit.
int pattern_exhausted(Matcher& m) {
  State& h = *m.h;
  const char* source = nullptr;
  int line = 0;
  locate(m.L, 1, &source, &line);
  const std::uint64_t call = (m.charged + m.steps) / kPatternStepsPerInstruction;
  h.remaining = 0;
  if (h.failure == State::Failure::none && call >= h.limits.instructions / 2) {
    h.failure_subject = static_cast<std::size_t>(m.src_end - m.src_init);
    h.fail(State::Failure::pattern, source, line);
  } else {
    h.fail(State::Failure::budget, source, line);
  }
  return raise_abort(m.L, false);
}

void tick(Matcher& m, std::uint64_t n) {
  m.steps += n;
  if (m.steps > m.limit) pattern_exhausted(m);
}

// luaL_error for the matcher: the work done so far is charged first, so that a script cannot
// run an expensive match into a deliberate error and catch it with pcall, again and again.
int pattern_error(Matcher& m, const char* fmt, ...) {
  charge(m);
  luaL_where(m.L, 1);
  va_list ap;
  va_start(ap, fmt);
  lua_pushvfstring(m.L, fmt, ap);
  va_end(ap);
  lua_concat(m.L, 2);
  return lua_error(m.L);
}

// End of the single-character class starting at p (a plain character, %x or [set]).
const char* class_end(Matcher& m, const char* p) {
  const char c = *p++;
  if (c == kEsc) {
    if (p == m.p_end) pattern_error(m, "malformed pattern (ends with '%%')");
    return p + 1;
  }
  if (c == '[') {
    if (*p == '^') ++p;
    do {  // the first character is never the closing ']'
      if (p == m.p_end) pattern_error(m, "malformed pattern (missing ']')");
      if (*p++ == kEsc && p < m.p_end) ++p;
    } while (*p != ']');
    return p + 1;
  }
  return p;
}

bool class_matches(int c, int cl) {
  int res = 0;
  switch (std::tolower(cl)) {
    case 'a': res = std::isalpha(c); break;
    case 'c': res = std::iscntrl(c); break;
    case 'd': res = std::isdigit(c); break;
    case 'g': res = std::isgraph(c); break;
    case 'l': res = std::islower(c); break;
    case 'p': res = std::ispunct(c); break;
    case 's': res = std::isspace(c); break;
    case 'u': res = std::isupper(c); break;
    case 'w': res = std::isalnum(c); break;
    case 'x': res = std::isxdigit(c); break;
    case 'z': res = c == 0; break;  // deprecated, but Lua 5.4 still has it
    default: return cl == c;
  }
  return std::isupper(cl) ? res == 0 : res != 0;
}

// p is at the '[' of a set and ec at its closing ']'.
bool set_matches(int c, const char* p, const char* ec) {
  bool hit = true;
  if (p[1] == '^') {
    hit = false;
    ++p;
  }
  while (++p < ec) {
    if (*p == kEsc) {
      ++p;
      if (class_matches(c, uchar(*p))) return hit;
    } else if (p[1] == '-' && p + 2 < ec) {
      p += 2;
      if (uchar(p[-2]) <= c && c <= uchar(*p)) return hit;
    } else if (uchar(*p) == c) {
      return hit;
    }
  }
  return !hit;
}

bool single_matches(Matcher& m, const char* s, const char* p, const char* ep) {
  tick(m, 1);
  if (s >= m.src_end) return false;
  const int c = uchar(*s);
  switch (*p) {
    case '.': return true;
    case kEsc: return class_matches(c, uchar(p[1]));
    case '[': tick(m, static_cast<std::uint64_t>(ep - p) / 8); return set_matches(c, p, ep - 1);
    default: return uchar(*p) == c;
  }
}

const char* match(Matcher& m, const char* s, const char* p);

// %bxy at s; p points at x.
const char* match_balance(Matcher& m, const char* s, const char* p) {
  if (p >= m.p_end - 1) pattern_error(m, "malformed pattern (missing arguments to '%%b')");
  if (s >= m.src_end || *s != *p) return nullptr;
  const char open = p[0];
  const char close = p[1];
  std::ptrdiff_t depth = 1;
  for (const char* q = s + 1; q < m.src_end; ++q) {
    if (*q == close) {
      if (--depth == 0) {
        tick(m, static_cast<std::uint64_t>(q - s) / 2);
        return q + 1;
      }
    } else if (*q == open) {
      ++depth;
    }
  }
  tick(m, static_cast<std::uint64_t>(m.src_end - s) / 2);
  return nullptr;
}

// Greedy: the longest run first, then shorter ones.
const char* max_expand(Matcher& m, const char* s, const char* p, const char* ep) {
  std::ptrdiff_t i = 0;
  while (single_matches(m, s + i, p, ep)) ++i;
  for (; i >= 0; --i) {
    if (const char* res = match(m, s + i, ep + 1)) return res;
  }
  return nullptr;
}

// Lazy: the shortest run first.
const char* min_expand(Matcher& m, const char* s, const char* p, const char* ep) {
  for (;;) {
    if (const char* res = match(m, s, ep + 1)) return res;
    if (!single_matches(m, s, p, ep)) return nullptr;
    ++s;
  }
}

const char* start_capture(Matcher& m, const char* s, const char* p, std::ptrdiff_t what) {
  if (m.level >= kMaxCaptures) pattern_error(m, "too many captures");
  m.capture[m.level].init = s;
  m.capture[m.level].len = what;
  ++m.level;
  const char* res = match(m, s, p);
  if (res == nullptr) --m.level;
  return res;
}

const char* end_capture(Matcher& m, const char* s, const char* p) {
  int l = m.level - 1;
  while (l >= 0 && m.capture[l].len != kCapUnfinished) --l;
  if (l < 0) pattern_error(m, "invalid pattern capture");
  m.capture[l].len = s - m.capture[l].init;
  const char* res = match(m, s, p);
  if (res == nullptr) m.capture[l].len = kCapUnfinished;
  return res;
}

// %1 .. %9 in a pattern.
const char* match_backreference(Matcher& m, const char* s, int digit) {
  const int l = digit - '1';
  if (l < 0 || l >= m.level || m.capture[l].len == kCapUnfinished)
    pattern_error(m, "invalid capture index %%%d", l + 1);
  const auto len = static_cast<std::size_t>(m.capture[l].len);  // a position is never equal
  if (static_cast<std::size_t>(m.src_end - s) < len) return nullptr;
  tick(m, len / 16);
  return std::memcmp(m.capture[l].init, s, len) == 0 ? s + len : nullptr;
}

// Matches the pattern from p against the subject from s; the end of the match or nullptr.
const char* match(Matcher& m, const char* s, const char* p) {
  if (m.depth_left-- == 0) pattern_error(m, "pattern too complex");
  tick(m, 1);
  while (p != m.p_end) {
    tick(m, 1);
    if (*p == '(') {
      s = p[1] == ')' ? start_capture(m, s, p + 2, kCapPosition)
                      : start_capture(m, s, p + 1, kCapUnfinished);
      break;
    }
    if (*p == ')') {
      s = end_capture(m, s, p + 1);
      break;
    }
    if (*p == '$' && p + 1 == m.p_end) {
      if (s != m.src_end) s = nullptr;
      break;
    }
    if (*p == kEsc && p[1] == 'b') {
      s = match_balance(m, s, p + 2);
      if (s == nullptr) break;
      p += 4;
      continue;
    }
    if (*p == kEsc && p[1] == 'f') {
      p += 2;
      if (*p != '[') pattern_error(m, "missing '[' after '%%f' in pattern");
      const char* ep = class_end(m, p);
      tick(m, 1 + static_cast<std::uint64_t>(ep - p) / 4);
      const int previous = s == m.src_init ? 0 : uchar(s[-1]);
      if (!set_matches(previous, p, ep - 1) && set_matches(uchar(*s), p, ep - 1)) {
        p = ep;
        continue;
      }
      s = nullptr;
      break;
    }
    if (*p == kEsc && std::isdigit(uchar(p[1]))) {
      s = match_backreference(m, s, uchar(p[1]));
      if (s == nullptr) break;
      p += 2;
      continue;
    }
    // A single-character class, possibly followed by a quantifier.
    const char* ep = class_end(m, p);
    tick(m, static_cast<std::uint64_t>(ep - p) / 8);
    const char quantifier = *ep;  // *p_end is the terminating NUL
    if (!single_matches(m, s, p, ep)) {
      if (quantifier == '*' || quantifier == '?' || quantifier == '-') {
        p = ep + 1;  // zero occurrences are fine
        continue;
      }
      s = nullptr;
      break;
    }
    if (quantifier == '?') {
      if (const char* res = match(m, s + 1, ep + 1)) {
        s = res;
        break;
      }
      p = ep + 1;
      continue;
    }
    if (quantifier == '+' || quantifier == '*') {
      s = max_expand(m, quantifier == '+' ? s + 1 : s, p, ep);
      break;
    }
    if (quantifier == '-') {
      s = min_expand(m, s, p, ep);
      break;
    }
    ++s;
    p = ep;
  }
  ++m.depth_left;
  return s;
}

// Capture i of a match from s to e (the whole match when there are no captures); a position
// capture is pushed instead and kCapPosition returned.
std::ptrdiff_t get_capture(Matcher& m, int i, const char* s, const char* e, const char** cap) {
  if (i >= m.level) {
    if (i != 0) pattern_error(m, "invalid capture index %%%d", i + 1);
    *cap = s;
    return e - s;
  }
  const std::ptrdiff_t len = m.capture[i].len;
  *cap = m.capture[i].init;
  if (len == kCapUnfinished) pattern_error(m, "unfinished capture");
  if (len == kCapPosition) lua_pushinteger(m.L, (m.capture[i].init - m.src_init) + 1);
  return len;
}

void push_capture(Matcher& m, int i, const char* s, const char* e) {
  const char* cap = nullptr;
  const std::ptrdiff_t len = get_capture(m, i, s, e, &cap);
  if (len != kCapPosition) lua_pushlstring(m.L, cap, static_cast<std::size_t>(len));
}

// s == nullptr: only the explicit captures (string.find's extra results).
int push_captures(Matcher& m, const char* s, const char* e) {
  const int n = (m.level == 0 && s != nullptr) ? 1 : m.level;
  luaL_checkstack(m.L, n, "too many captures");
  for (int i = 0; i < n; ++i) push_capture(m, i, s, e);
  return n;
}

std::size_t start_index(lua_Integer pos, std::size_t len) {
  if (pos > 0) return static_cast<std::size_t>(pos);
  if (pos == 0) return 1;
  if (pos < -static_cast<lua_Integer>(len)) return 1;
  return len + static_cast<std::size_t>(pos) + 1;
}

bool has_specials(const char* p, std::size_t lp) {
  for (std::size_t i = 0; i < lp; ++i) {
    if (std::strchr("^$*+?.([%-", p[i]) != nullptr && p[i] != '\0') return true;
  }
  return false;
}

int find_or_match(lua_State* L, bool find) {
  std::size_t ls = 0;
  std::size_t lp = 0;
  const char* s = luaL_checklstring(L, 1, &ls);
  const char* p = luaL_checklstring(L, 2, &lp);
  const std::size_t init = start_index(luaL_optinteger(L, 3, 1), ls) - 1;
  if (init > ls) {
    luaL_pushfail(L);
    return 1;
  }
  Matcher m;
  prepare(m, L, s, ls, p, lp);
  if (find && (lua_toboolean(L, 4) || !has_specials(p, lp))) {
    // glibc's memmem is linear in the worst case (two-way), unlike a naive search.
    tick(m, 1 + (ls - init + lp) / 16);
    const void* hit = memmem(s + init, ls - init, p, lp);
    charge(m);
    if (hit != nullptr) {
      const std::ptrdiff_t at = static_cast<const char*>(hit) - s;
      lua_pushinteger(L, at + 1);
      lua_pushinteger(L, at + static_cast<lua_Integer>(lp));
      return 2;
    }
  } else {
    const bool anchor = *p == '^';
    if (anchor) ++p;  // p_end stays
    const char* s1 = s + init;
    do {
      restart(m);
      if (const char* e = match(m, s1, p)) {
        charge(m);
        if (!find) return push_captures(m, s1, e);
        lua_pushinteger(L, (s1 - s) + 1);
        lua_pushinteger(L, e - s);
        return push_captures(m, nullptr, nullptr) + 2;
      }
    } while (s1++ < m.src_end && !anchor);
    charge(m);
  }
  luaL_pushfail(L);
  return 1;
}

int pattern_find(lua_State* L) { return find_or_match(L, true); }
int pattern_match(lua_State* L) { return find_or_match(L, false); }

// The one deliberate difference from liblua: its iterator keeps a lowered recursion depth
// after an error raised inside it, so calling it again after a caught error eventually says
// "pattern too complex"; this one repeats the original error.
struct GmatchState {
  std::size_t next;       // where the next search starts
  std::size_t last_end;   // end of the last match, which an empty match may not repeat
  bool matched;
};

// Upvalues: subject, pattern, GmatchState.
int gmatch_step(lua_State* L) {
  std::size_t ls = 0;
  std::size_t lp = 0;
  const char* s = lua_tolstring(L, lua_upvalueindex(1), &ls);
  const char* p = lua_tolstring(L, lua_upvalueindex(2), &lp);
  auto* g = static_cast<GmatchState*>(lua_touserdata(L, lua_upvalueindex(3)));
  Matcher m;
  prepare(m, L, s, ls, p, lp);
  for (std::size_t at = g->next; at <= ls; ++at) {
    restart(m);
    const char* e = match(m, s + at, p);
    if (e != nullptr && !(g->matched && e == s + g->last_end)) {
      g->next = g->last_end = static_cast<std::size_t>(e - s);
      g->matched = true;
      charge(m);
      return push_captures(m, s + at, e);
    }
  }
  charge(m);
  return 0;
}

int pattern_gmatch(lua_State* L) {
  std::size_t ls = 0;
  luaL_checklstring(L, 1, &ls);
  luaL_checklstring(L, 2, nullptr);
  std::size_t init = start_index(luaL_optinteger(L, 3, 1), ls) - 1;
  lua_settop(L, 2);  // the closure keeps both strings alive
  auto* g = static_cast<GmatchState*>(lua_newuserdatauv(L, sizeof(GmatchState), 0));
  if (init > ls) init = ls + 1;  // nothing to find
  g->next = init;
  g->last_end = 0;
  g->matched = false;
  lua_pushcclosure(L, &gmatch_step, 3);
  return 1;
}

// A replacement string with %0 .. %9 and %%; the string is at stack index 3.
void add_replacement_string(Matcher& m, luaL_Buffer* b, const char* s, const char* e) {
  lua_State* L = m.L;
  std::size_t l = 0;
  const char* news = lua_tolstring(L, 3, &l);
  tick(m, 1 + l / 16);
  const char* p = nullptr;
  while ((p = static_cast<const char*>(std::memchr(news, kEsc, l))) != nullptr) {
    luaL_addlstring(b, news, static_cast<std::size_t>(p - news));
    ++p;  // *p is the NUL terminator when the string ends with '%'
    if (*p == kEsc) {
      luaL_addchar(b, *p);
    } else if (*p == '0') {
      luaL_addlstring(b, s, static_cast<std::size_t>(e - s));
    } else if (std::isdigit(uchar(*p))) {
      const char* cap = nullptr;
      const std::ptrdiff_t len = get_capture(m, *p - '1', s, e, &cap);
      if (len == kCapPosition) {
        luaL_addvalue(b);
      } else {
        luaL_addlstring(b, cap, static_cast<std::size_t>(len));
      }
    } else {
      pattern_error(m, "invalid use of '%c' in replacement string", kEsc);
    }
    l -= static_cast<std::size_t>(p + 1 - news);
    news = p + 1;
  }
  luaL_addlstring(b, news, l);
}

// Adds the replacement of the match from s to e; false when the original text was kept.
bool add_replacement(Matcher& m, luaL_Buffer* b, const char* s, const char* e, int type) {
  lua_State* L = m.L;
  if (type == LUA_TFUNCTION || type == LUA_TTABLE) {
    charge(m);  // Lua code may run (the function, or an __index): it spends the budget itself
    if (type == LUA_TFUNCTION) {
      lua_pushvalue(L, 3);
      const int n = push_captures(m, s, e);
      lua_call(L, n, 1);
    } else {
      push_capture(m, 0, s, e);
      lua_gettable(L, 3);
    }
    charge(m);  // re-reads what is left of the budget
  } else {
    add_replacement_string(m, b, s, e);
    return true;
  }
  if (!lua_toboolean(L, -1)) {  // nil or false: keep the original text
    lua_pop(L, 1);
    luaL_addlstring(b, s, static_cast<std::size_t>(e - s));
    return false;
  }
  if (!lua_isstring(L, -1)) pattern_error(m, "invalid replacement value (a %s)", luaL_typename(L, -1));
  luaL_addvalue(b);
  return true;
}

int pattern_gsub(lua_State* L) {
  std::size_t srcl = 0;
  std::size_t lp = 0;
  const char* src = luaL_checklstring(L, 1, &srcl);
  const char* p = luaL_checklstring(L, 2, &lp);
  const int type = lua_type(L, 3);
  const lua_Integer max_n = luaL_optinteger(L, 4, static_cast<lua_Integer>(srcl) + 1);
  luaL_argexpected(L, type == LUA_TNUMBER || type == LUA_TSTRING || type == LUA_TFUNCTION ||
                          type == LUA_TTABLE, 3, "string/function/table");
  const bool anchor = *p == '^';
  const char* last_match = nullptr;
  lua_Integer n = 0;
  bool changed = false;
  luaL_Buffer b;
  luaL_buffinit(L, &b);
  Matcher m;
  prepare(m, L, src, srcl, p, lp);
  if (anchor) ++p;  // p_end stays
  while (n < max_n) {
    restart(m);
    const char* e = match(m, src, p);
    if (e != nullptr && e != last_match) {
      ++n;
      changed = add_replacement(m, &b, src, e, type) || changed;
      src = last_match = e;
    } else if (src < m.src_end) {
      luaL_addchar(&b, *src++);
    } else {
      break;
    }
    if (anchor) break;
  }
  charge(m);
  if (!changed) {
    lua_pushvalue(L, 1);
  } else {
    luaL_addlstring(&b, src, static_cast<std::size_t>(m.src_end - src));
    luaL_pushresult(&b);
  }
  lua_pushinteger(L, n);
  return 2;
}

struct LibraryFunction {
  const char* name;
  lua_CFunction fn;
};
const LibraryFunction kPatternFunctions[] = {{"find", &pattern_find},
                                             {"match", &pattern_match},
                                             {"gmatch", &pattern_gmatch},
                                             {"gsub", &pattern_gsub}};

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

// Reads the Lua value at `idx`. Uses only Lua calls that cannot raise (raw access, no
// conversions in place), so it may build C++ objects freely; may throw std::bad_alloc.
// On failure `why` says what was wrong and the Lua stack is restored.
bool to_value(lua_State* L, int idx, int depth, Value& out, const char*& why, const char*& type) {
  idx = lua_absindex(L, idx);
  switch (lua_type(L, idx)) {
    case LUA_TNIL:
      out = Value::nil();
      return true;
    case LUA_TBOOLEAN:
      out = Value::boolean(lua_toboolean(L, idx) != 0);
      return true;
    case LUA_TNUMBER:
      out = lua_isinteger(L, idx) ? Value::integer(lua_tointeger(L, idx))
                                  : Value::number(lua_tonumber(L, idx));
      return true;
    case LUA_TSTRING: {
      std::size_t len = 0;
      const char* s = lua_tolstring(L, idx, &len);
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
    if (!to_value(L, -2, depth + 1, key, why, type) || !to_value(L, -1, depth + 1, val, why, type)) {
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
      if (!to_value(L, i, 1, args[static_cast<std::size_t>(i - 1)], why, type)) {
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

const char* const kBaseNames[] = {"assert",   "error",    "getmetatable", "ipairs", "next",
                                  "pairs",    "print",    "rawequal",     "rawget", "rawlen",
                                  "rawset",   "select",   "tonumber",     "tostring", "type",
                                  "_VERSION"};
const char* const kLibraries[] = {LUA_STRLIBNAME, LUA_TABLIBNAME, LUA_MATHLIBNAME, LUA_UTF8LIBNAME};

int do_setup(lua_State* L) {
  luaL_requiref(L, LUA_GNAME, luaopen_base, 1);
  luaL_requiref(L, LUA_STRLIBNAME, luaopen_string, 1);
  luaL_requiref(L, LUA_TABLIBNAME, luaopen_table, 1);
  luaL_requiref(L, LUA_MATHLIBNAME, luaopen_math, 1);
  luaL_requiref(L, LUA_UTF8LIBNAME, luaopen_utf8, 1);
  lua_settop(L, 0);

  // string.dump is useless without load, and the original string table stays reachable
  // through the string metatable, so strip it there.
  lua_getglobal(L, LUA_STRLIBNAME);
  lua_pushnil(L);
  lua_setfield(L, -2, "dump");
  // This is also the table behind s:find(...), so both spellings get the budgeted matcher
  // (see "Pattern matching"); the originals stay out of reach of every script.
  for (const LibraryFunction& f : kPatternFunctions) {
    lua_pushcfunction(L, f.fn);
    lua_setfield(L, -2, f.name);
  }
  lua_pop(L, 1);
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
  lua_pushcfunction(L, &safe_pcall);
  lua_setfield(L, -2, "pcall");
  lua_pushcfunction(L, &safe_xpcall);
  lua_setfield(L, -2, "xpcall");
  lua_pushcfunction(L, &safe_setmetatable);
  lua_setfield(L, -2, "setmetatable");
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
      lua_newtable(L);
      lua_pushnil(L);
      while (lua_next(L, -3) != 0) {
        lua_pushvalue(L, -2);
        lua_insert(L, -2);
        lua_rawset(L, -4);
      }
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
  set_registry_entry(L, &kEnvsKey, *c->script, -1);
  lua_setupvalue(L, chunk, 1);  // a main chunk's only upvalue is _ENV
  lua_call(L, 0, 0);
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
  if (lua_rawget(L, -2) != LUA_TFUNCTION) return false;
  lua_rawgetp(L, LUA_REGISTRYINDEX, &kTemplateKey);
  lua_pushlstring(L, name.data(), name.size());
  lua_rawget(L, -2);
  const bool inherited = lua_rawequal(L, -1, -3) != 0;
  lua_pop(L, 2);
  return !inherited;
}

struct CallContext {
  const std::string* script;
  const std::string* function;
  const std::vector<Value>* args;
  bool found;
};

int do_lookup(lua_State* L) {
  auto* c = static_cast<CallContext*>(lua_touserdata(L, 1));
  c->found = push_script_function(L, *c->script, *c->function);
  return 0;
}

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
    h.memory_source = nullptr;
    h.track_source = nullptr;
    h.failure = State::Failure::none;
    h.failure_source = nullptr;
    h.remaining = h.limits.instructions;
    h.running = true;
    h.count_disturbed = false;
    h.churn = 0;
    h.pattern_carry = 0;
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

  // The one-line message for a failed run(); the error value is on top of the stack.
  std::string error_message() const {
    if (h_.failure == State::Failure::none && h_.memory_failed())
      h_.fail(State::Failure::memory, h_.memory_source, h_.memory_line);
    std::string where;
    if (h_.failure != State::Failure::none) {
      if (h_.failure_source != nullptr) {
        where = std::string(chunk_label(h_.failure_source));
        if (h_.failure_line > 0) where += ":" + std::to_string(h_.failure_line);
      } else {
        where = h_.script;
      }
      if (h_.failure == State::Failure::pattern)
        return one_line(where + ": pattern too complex for a subject of " +
                        std::to_string(h_.failure_subject) + " characters in " + h_.function);
      if (h_.failure == State::Failure::budget)
        return one_line(where + ": instruction budget of " + std::to_string(h_.limits.instructions) +
                        " exceeded in " + h_.function);
      return one_line(where + ": memory cap of " + std::to_string(h_.limits.memory_bytes) +
                      " bytes exceeded in " + h_.function);
    }
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
    message = one_line(message);
    if (message.compare(0, h_.script.size() + 1, h_.script + ":") != 0)
      message = h_.script + ": " + message;
    return one_line(message);
  }

 private:
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
    throw HookError(one_line("register_function('" + name + "'): must be called before load_script"));
  if (h.natives.count(name) != 0) throw HookError(one_line("palace." + name + " is already registered"));
  // The entry is owned by the map before Lua holds a pointer to it.
  const auto it = h.natives.emplace(name, std::make_unique<NativeEntry>(NativeEntry{name, std::move(fn)})).first;
  Operation op(h, "LuaHost", "register_function", false);
  if (op.run(&do_register, it->second.get(), 0) != LUA_OK) {
    const std::string message = op.error_message();
    h.natives.erase(it);  // the closure was not stored: rawset is the last thing that can fail
    throw HookError(one_line("register_function('" + name + "'): " + message));
  }
}

void LuaHost::load_script(const std::string& path, const std::string& display_name) {
  State& h = *state_;
  if (h.running) throw HookError("LuaHost: re-entrant use from a native function is not supported");
  if (display_name.empty()) throw HookError("load_script('" + one_line(path) + "'): empty display name");
  if (h.scripts.count(display_name) != 0)
    throw HookError(one_line(display_name + ": script already loaded"));
  std::ifstream in(path, std::ios::binary);
  if (!in.is_open()) throw HookError(one_line(display_name + ": cannot read '" + path + "'"));
  std::string text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  if (in.bad()) throw HookError(one_line(display_name + ": cannot read '" + path + "'"));

  const std::string chunkname = "@" + display_name;
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

bool LuaHost::has_function(const std::string& display_name, const std::string& function) const {
  State& h = *state_;
  if (h.running) throw HookError("LuaHost: re-entrant use from a native function is not supported");
  if (h.scripts.count(display_name) == 0) return false;
  Operation op(h, display_name, function, false);
  CallContext ctx{&display_name, &function, nullptr, false};
  if (op.run(&do_lookup, &ctx, 0) != LUA_OK) throw HookError(op.error_message());
  return ctx.found;
}

Value LuaHost::call(const std::string& display_name, const std::string& function,
                    const std::vector<Value>& args) {
  State& h = *state_;
  if (h.running) throw HookError("LuaHost: re-entrant use from a native function is not supported");
  if (h.scripts.count(display_name) == 0)
    throw HookError(one_line(display_name + ": script not loaded"));
  if (args.size() > 10000) throw HookError(one_line(display_name + ": too many arguments to " + function));
  for (std::size_t i = 0; i < args.size(); ++i) {
    if (const char* why = unpushable(args[i], 1))
      throw HookError(one_line(display_name + ": argument #" + std::to_string(i + 1) + " to " +
                               function + " is " + why));
  }
  Operation op(h, display_name, function, true);
  CallContext ctx{&display_name, &function, &args, false};
  if (op.run(&do_call, &ctx, 1) != LUA_OK) throw HookError(op.error_message());
  if (!ctx.found) throw HookError(one_line(display_name + ": no function '" + function + "'"));
  Value out;
  const char* why = nullptr;
  const char* type = nullptr;
  if (!to_value(h.L, -1, 1, out, why, type))
    throw HookError(one_line(display_name + ": " + function + " returned " + describe_failure(why, type)));
  return out;
}

}  // namespace palace::hooks
