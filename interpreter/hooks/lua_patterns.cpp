#include "hooks/lua_patterns.h"

#include <algorithm>
#include <cctype>
#include <cstdarg>
#include <cstddef>
#include <cstdint>
#include <cstring>

#include "hooks/lua_sandbox_internal.h"

extern "C" {
#include <lauxlib.h>
#include <lua.h>
}

// Ground rules as in lua_host.cpp, because liblua reports errors with longjmp: a Lua API call
// that can raise only runs in a frame whose automatic objects are all trivially destructible
// (hence the plain Matcher and GmatchState), and no C++ exception may leave a function that
// Lua calls. Nothing in this file constructs an object with a destructor.

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

namespace palace::hooks::detail {
namespace {

using State = LuaHostState;

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

}  // namespace

// ---------------------------------------------------------------------------------------------
// The four replacements

int pattern_find(lua_State* L) { return find_or_match(L, true); }
int pattern_match(lua_State* L) { return find_or_match(L, false); }

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

}  // namespace palace::hooks::detail
