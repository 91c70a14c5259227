#include "hooks/lua_host.h"

#include <gtest/gtest.h>

#include <memory>
#include <ostream>
#include <string>
#include <utility>
#include <vector>

#ifndef PALACE_SOURCE_DIR
#error "PALACE_SOURCE_DIR must name the repository root"
#endif

namespace palace::hooks {
// Lets GoogleTest print Values readably when an expectation fails.
void PrintTo(const Value& value, std::ostream* os) { *os << value.debug_string(); }
}  // namespace palace::hooks

namespace {

using palace::hooks::HookError;
using palace::hooks::Limits;
using palace::hooks::LuaHost;
using palace::hooks::Table;
using palace::hooks::Value;

// Small limits keep the hostile scripts quick, also under the sanitizers.
constexpr Limits kLimits{200'000, 4u << 20};

std::string fixture(const std::string& name) {
  return std::string(PALACE_SOURCE_DIR) + "/tests/hooks/scripts/" + name;
}

// Loads tests/hooks/scripts/NAME as "scripts/NAME".
void load(LuaHost& host, const std::string& name) { host.load_script(fixture(name), "scripts/" + name); }

// The message of the HookError thrown by f, or a note that nothing (or something else) was thrown.
template <typename F>
std::string error_of(F&& f) {
  try {
    f();
  } catch (const HookError& e) {
    return e.what();
  } catch (const std::exception& e) {
    return std::string("unexpected exception: ") + e.what();
  }
  return "no exception";
}

std::string call_error(LuaHost& host, const std::string& script, const std::string& function,
                       const std::vector<Value>& args = {}) {
  return error_of([&] { host.call("scripts/" + script, function, args); });
}

// After any failure the same host must still run well-behaved code.
void expect_usable(LuaHost& host) {
  if (!host.has_function("scripts/ok.lua", "answer")) load(host, "ok.lua");
  EXPECT_EQ(host.call("scripts/ok.lua", "answer", {}), Value::integer(42));
}

Value str(const char* s) { return Value::string(s); }
Value num(std::int64_t i) { return Value::integer(i); }

TEST(LuaHost, InfiniteLoopHitsInstructionBudget) {
  LuaHost host(kLimits);
  load(host, "loop.lua");
  EXPECT_EQ(call_error(host, "loop.lua", "spin"),
            "scripts/loop.lua:3: spin: instruction budget of 200000 exceeded");
  expect_usable(host);
  // The budget is per call, not per host.
  EXPECT_EQ(call_error(host, "loop.lua", "spin"),
            "scripts/loop.lua:3: spin: instruction budget of 200000 exceeded");
  expect_usable(host);
}

TEST(LuaHost, PcallCannotSwallowTheBudget) {
  LuaHost host(kLimits);
  load(host, "loop.lua");
  EXPECT_EQ(call_error(host, "loop.lua", "spin_in_pcall"),
            "scripts/loop.lua:7: spin_in_pcall: instruction budget of 200000 exceeded");
  expect_usable(host);
}

TEST(LuaHost, XpcallHandlerCannotSwallowTheBudget) {
  LuaHost host(kLimits);
  load(host, "loop.lua");
  EXPECT_EQ(call_error(host, "loop.lua", "spin_in_xpcall"),
            "scripts/loop.lua:11: spin_in_xpcall: instruction budget of 200000 exceeded");
  expect_usable(host);
}

TEST(LuaHost, CloseHandlerCannotExtendTheBudget) {
  LuaHost host(kLimits);
  load(host, "loop.lua");
  EXPECT_EQ(call_error(host, "loop.lua", "spin_after_close"),
            "scripts/loop.lua:16: spin_after_close: instruction budget of 200000 exceeded");
  expect_usable(host);
}

TEST(LuaHost, TopLevelLoopHitsInstructionBudget) {
  LuaHost host(kLimits);
  EXPECT_EQ(error_of([&] { load(host, "toplevel_loop.lua"); }),
            "scripts/toplevel_loop.lua:2: instruction budget of 200000 exceeded");
  EXPECT_FALSE(host.has_function("scripts/toplevel_loop.lua", "anything"));
  EXPECT_EQ(call_error(host, "toplevel_loop.lua", "anything"),
            "scripts/toplevel_loop.lua: script not loaded");
  expect_usable(host);
}

TEST(LuaHost, TableGrowthHitsMemoryCap) {
  LuaHost host(kLimits);
  load(host, "memory.lua");
  EXPECT_EQ(call_error(host, "memory.lua", "grow"),
            "scripts/memory.lua:4: grow: memory cap of 4194304 bytes exceeded");
  expect_usable(host);
  // The garbage of the failed call was collected: the bomb gets as far the second time.
  EXPECT_EQ(call_error(host, "memory.lua", "grow"),
            "scripts/memory.lua:4: grow: memory cap of 4194304 bytes exceeded");
  expect_usable(host);
}

TEST(LuaHost, StringsAreCappedAt8KiB) {
  LuaHost host(kLimits);
  load(host, "memory.lua");
  EXPECT_EQ(call_error(host, "memory.lua", "long_rep"), "scripts/memory.lua:8: long_rep: string longer than 8192 bytes");
  expect_usable(host);
  EXPECT_EQ(call_error(host, "memory.lua", "concat"), "scripts/memory.lua:23: concat: string longer than 8192 bytes");
  expect_usable(host);
  // string.rep is charged for its count before it allocates anything.
  EXPECT_EQ(call_error(host, "memory.lua", "too_large_rep"),
            "scripts/memory.lua:13: too_large_rep: instruction budget of 200000 exceeded");
  expect_usable(host);
  EXPECT_EQ(host.call("scripts/memory.lua", "longest_string", {}), num(8192));
}

TEST(LuaHost, PcallCannotSwallowTheMemoryCap) {
  LuaHost host(kLimits);
  load(host, "memory.lua");
  EXPECT_EQ(call_error(host, "memory.lua", "grow_in_pcall"),
            "scripts/memory.lua:4: grow_in_pcall: memory cap of 4194304 bytes exceeded");
  expect_usable(host);
}

TEST(LuaHost, SingleLargeAllocationHitsMemoryCap) {
  // Filling the table takes more instructions than the usual test budget.
  LuaHost host(Limits{20'000'000, kLimits.memory_bytes});
  load(host, "memory.lua");
  EXPECT_EQ(call_error(host, "memory.lua", "jump"),
            "scripts/memory.lua:28: jump: memory cap of 4194304 bytes exceeded");
  expect_usable(host);
}

TEST(LuaHost, MemoryCapWithoutKnownLineNamesTheScript) {
  // A buffer inside one library call growing from under half the cap to over it fails in a
  // reallocation, where the call stack may not be read, and no instruction ran in between.
  LuaHost host(kLimits);
  load(host, "memory.lua");
  EXPECT_EQ(call_error(host, "memory.lua", "buffer_growth"),
            "scripts/memory.lua: buffer_growth: memory cap of 4194304 bytes exceeded");
  expect_usable(host);
}

// Each of these runs one library function far past the budget, in C where the count hook never
// fires: each must end with the budget, at the line of the call.
TEST(LuaHost, LibraryWorkIsChargedToTheBudget) {
  LuaHost host(kLimits);
  load(host, "library.lua");
  const std::pair<const char*, int> cases[] = {
      {"move_huge", 5},        {"sort_large", 6},       {"sort_huge_len", 8},  {"utf8_len_loop", 10},
      {"codes_step_loop", 13}, {"compare_loop", 15},    {"less_loop", 16},     {"rep_empty", 17},
      {"unpack_huge", 18},     {"concat_huge_len", 20}, {"insert_loop", 25},   {"remove_huge_len", 29},
      {"tonumber_loop", 32},   {"byte_loop", 33},       {"format_loop", 34}};
  for (const auto& [function, line] : cases) {
    EXPECT_EQ(call_error(host, "library.lua", function), "scripts/library.lua:" + std::to_string(line) + ": " +
                                                             function + ": instruction budget of 200000 exceeded");
  }
  expect_usable(host);
}

TEST(LuaHost, ChargedLibraryAnswersAsStockLua) {
  // The expected text is what the stock Lua 5.4 library returns.
  LuaHost host(kLimits);
  load(host, "library.lua");
  EXPECT_EQ(host.call("scripts/library.lua", "ordinary", {}),
            str("1,3,5,9 9,5,3,1 0,9,5,3,1,7 7 0 9,5,3,1 1,1,2,3 b c ab-ab-ab xx 1 2 5 233 4 1:97 2:233 4:98 "
                "255 10 4-x false bad argument #2 to 'table.insert' (position out of bounds)"));
}

TEST(LuaHost, PatternFunctionsAreAbsent) {
  LuaHost host(kLimits);
  load(host, "library.lua");
  EXPECT_EQ(host.call("scripts/library.lua", "pattern_functions", {}), str("nil nil nil nil"));
  EXPECT_EQ(call_error(host, "library.lua", "method_find"),
            "scripts/library.lua:59: method_find: attempt to call a nil value (method 'find')");
}

TEST(LuaHost, LongScriptNamesAppearWholeAndOnce) {
  // Lua cuts chunk names to LUA_IDSIZE (60) characters in its own messages.
  const std::string name = "scripts/" + std::string(150, 'd') + "/errors.lua";
  LuaHost host(kLimits);
  host.load_script(fixture("errors.lua"), name);
  EXPECT_EQ(error_of([&] { host.call(name, "boom", {}); }), name + ":3: boom: boom");
  EXPECT_EQ(error_of([&] { host.call(name, "index_nil", {}); }),
            name + ":8: index_nil: attempt to index a nil value (local 't')");
  const std::string broken = "scripts/" + std::string(150, 's') + "/syntax.lua";
  EXPECT_EQ(error_of([&] { host.load_script(fixture("syntax.lua"), broken); }),
            broken + ":6: <name> or '...' expected near 'return'");
}

TEST(LuaHost, RuntimeErrorsNameScriptAndLine) {
  LuaHost host(kLimits);
  load(host, "errors.lua");
  EXPECT_EQ(call_error(host, "errors.lua", "boom"), "scripts/errors.lua:3: boom: boom");
  expect_usable(host);
  EXPECT_EQ(call_error(host, "errors.lua", "index_nil"),
            "scripts/errors.lua:8: index_nil: attempt to index a nil value (local 't')");
  EXPECT_EQ(call_error(host, "errors.lua", "multiline"),
            "scripts/errors.lua:12: multiline: first line second line");
  EXPECT_EQ(call_error(host, "errors.lua", "table_error"),
            "scripts/errors.lua:16: table_error: (error object is a table value)");
  EXPECT_EQ(call_error(host, "errors.lua", "level_zero"), "scripts/errors.lua: level_zero: no position");
  expect_usable(host);
}

TEST(LuaHost, UnsupportedResultsAreErrors) {
  LuaHost host(kLimits);
  load(host, "errors.lua");
  EXPECT_EQ(call_error(host, "errors.lua", "returns_function"),
            "scripts/errors.lua: returns_function: returned an unsupported value (function)");
  EXPECT_EQ(call_error(host, "errors.lua", "returns_deep"),
            "scripts/errors.lua: returns_deep: returned a table nested deeper than 32 levels");
  expect_usable(host);
}

TEST(LuaHost, SyntaxErrorNamesScriptAndLine) {
  LuaHost host(kLimits);
  EXPECT_EQ(error_of([&] { load(host, "syntax.lua"); }),
            "scripts/syntax.lua:6: <name> or '...' expected near 'return'");
  EXPECT_FALSE(host.has_function("scripts/syntax.lua", "fine"));
  expect_usable(host);
}

TEST(LuaHost, BinaryChunksAreRejected) {
  LuaHost host(kLimits);
  EXPECT_EQ(error_of([&] { load(host, "binary_chunk.lua"); }),
            "scripts/binary_chunk.lua: attempt to load a binary chunk (mode is 't')");
  expect_usable(host);
}

TEST(LuaHost, MissingFileAndDuplicateLoad) {
  LuaHost host(kLimits);
  const std::string path = fixture("does_not_exist.lua");
  EXPECT_EQ(error_of([&] { host.load_script(path, "scripts/nope.lua"); }),
            "scripts/nope.lua: cannot read \"" + path + "\": cannot open file");
  // A device never ends: it is refused, not read.
  EXPECT_EQ(error_of([&] { host.load_script("/dev/zero", "scripts/zero.lua"); }),
            "scripts/zero.lua: cannot read \"/dev/zero\": cannot open file: not a regular file");
  load(host, "ok.lua");
  EXPECT_EQ(error_of([&] { load(host, "ok.lua"); }), "scripts/ok.lua: script already loaded");
  expect_usable(host);
}

TEST(LuaHost, ForbiddenGlobalsAreNil) {
  LuaHost host(kLimits);
  load(host, "sandbox.lua");
  for (const char* name : {"io", "os", "debug", "package", "require", "dofile", "loadfile", "load",
                           "loadstring", "collectgarbage", "coroutine", "warn"}) {
    EXPECT_EQ(host.call("scripts/sandbox.lua", "global_type", {str(name)}), str("nil")) << name;
  }
  for (const char* name : {"string", "table", "math", "utf8", "palace"}) {
    EXPECT_EQ(host.call("scripts/sandbox.lua", "global_type", {str(name)}), str("table")) << name;
  }
  for (const char* name : {"print", "pairs", "pcall", "xpcall", "setmetatable", "tostring"}) {
    EXPECT_EQ(host.call("scripts/sandbox.lua", "global_type", {str(name)}), str("function")) << name;
  }
  for (const char* name : {"dump", "find", "match", "gmatch", "gsub"})
    EXPECT_EQ(host.call("scripts/sandbox.lua", "field_type", {str("string"), str(name)}), str("nil")) << name;
  EXPECT_EQ(host.call("scripts/sandbox.lua", "field_type", {str("_G"), str("global_type")}),
            str("function"));
  EXPECT_EQ(host.call("scripts/sandbox.lua", "string_metatable", {}), Value::boolean(false));
  EXPECT_EQ(call_error(host, "sandbox.lua", "string_methods_table"),
            "scripts/sandbox.lua:19: string_methods_table: attempt to index a boolean value");
  EXPECT_EQ(call_error(host, "sandbox.lua", "finalizer"),
            "scripts/sandbox.lua:15: finalizer: __gc metamethods are not allowed");
  expect_usable(host);
}

TEST(LuaHost, ScriptCannotChangeLibrariesOfAnotherScript) {
  LuaHost host(kLimits);
  host.register_function("echo", [](const std::vector<Value>&) { return Value::nil(); });
  load(host, "tamper.lua");
  load(host, "victim.lua");
  // The string method table is shared and out of reach; the global copy is per script.
  EXPECT_EQ(host.call("scripts/tamper.lua", "rep", {}), str("hackedabab"));
  EXPECT_EQ(host.call("scripts/victim.lua", "rep", {}), str("abababab"));
  EXPECT_EQ(host.call("scripts/victim.lua", "has_echo", {}), Value::boolean(true));
}

TEST(LuaHost, HasFunctionAndMissingFunction) {
  LuaHost host(kLimits);
  load(host, "ok.lua");
  EXPECT_TRUE(host.has_function("scripts/ok.lua", "answer"));
  EXPECT_FALSE(host.has_function("scripts/ok.lua", "question"));
  EXPECT_FALSE(host.has_function("scripts/ok.lua", "print"));  // inherited, not defined
  EXPECT_FALSE(host.has_function("scripts/unknown.lua", "answer"));
  EXPECT_EQ(call_error(host, "ok.lua", "question"), "scripts/ok.lua: no function \"question\"");
  EXPECT_EQ(call_error(host, "ok.lua", "print"), "scripts/ok.lua: no function \"print\"");
  expect_usable(host);
}

// A host with a few natives and natives.lua loaded.
std::unique_ptr<LuaHost> native_host() {
  auto host = std::make_unique<LuaHost>(kLimits);
  host->register_function("echo", [](const std::vector<Value>& args) {
    Table t;
    for (std::size_t i = 0; i < args.size(); ++i)
      t.emplace_back(Value::integer(static_cast<std::int64_t>(i + 1)), args[i]);
    return Value::table(std::move(t));
  });
  host->register_function("sum", [](const std::vector<Value>& args) {
    std::int64_t total = 0;
    for (const auto& [key, value] : args.at(0).as_table()) total += value.as_integer();
    return Value::integer(total);
  });
  host->register_function("make", [](const std::vector<Value>&) {
    return Value::table({{str("board"), Value::table({{num(1), str("a1")}, {num(2), str("b2")}})},
                         {str("meta"), Value::table({{str("size"), num(8)}})}});
  });
  host->register_function("fail", [](const std::vector<Value>& args) -> Value {
    throw HookError(args.at(0).as_string());
  });
  load(*host, "natives.lua");
  return host;
}

TEST(LuaHost, NativeArgumentsAndResultsRoundTrip) {
  auto owned = native_host();
  LuaHost& host = *owned;
  const Value nested = Value::table({{str("deep"), Value::table({{num(1), Value::number(2.5)},
                                                                  {num(2), Value::boolean(true)}})},
                                     {str("s"), Value::string(std::string("a\0b", 3))}});
  const std::vector<Value> args = {num(7), Value::number(-0.5), str("text"), Value::boolean(false),
                                   nested, Value::string(std::string("nul\0inside", 10))};
  Table expected;
  for (std::size_t i = 0; i < args.size(); ++i)
    expected.emplace_back(num(static_cast<std::int64_t>(i + 1)), args[i]);
  EXPECT_EQ(host.call("scripts/natives.lua", "roundtrip", args), Value::table(expected));
}

TEST(LuaHost, NativeTablesComeBackInDeterministicOrder) {
  auto owned = native_host();
  LuaHost& host = *owned;
  const Value arg = Value::table({{str("name"), str("cannon")},
                                  {str("values"), Value::table({{num(1), num(3)}, {num(2), num(4)}})},
                                  {str("nested"), Value::table({{str("inner"), Value::table({{num(1), num(1)}})}})},
                                  {str("flag"), Value::boolean(false)}});
  const Value expected = Value::table({{str("flipped"), Value::boolean(true)},
                                       {str("inner"), Value::table({{num(1), num(1)}})},
                                       {str("name"), str("cannon")},
                                       {str("total"), num(7)}});
  EXPECT_EQ(host.call("scripts/natives.lua", "summarize", {arg}), expected);
  EXPECT_EQ(host.call("scripts/natives.lua", "read_native_table", {}), str("b2:8"));
}

TEST(LuaHost, NativeExceptionBecomesLuaErrorAtScriptLine) {
  auto owned = native_host();
  LuaHost& host = *owned;
  EXPECT_EQ(call_error(host, "natives.lua", "throws"), "scripts/natives.lua:17: throws: palace.fail: bad square");
  EXPECT_EQ(call_error(host, "natives.lua", "throws_tail"), "scripts/natives.lua:22: throws_tail: palace.fail: tail");
  EXPECT_EQ(host.call("scripts/natives.lua", "catches", {}), str("false palace.fail: caught"));
  expect_usable(host);
}

TEST(LuaHost, NativeUnsupportedArgument) {
  auto owned = native_host();
  LuaHost& host = *owned;
  EXPECT_EQ(call_error(host, "natives.lua", "bad_argument"),
            "scripts/natives.lua:26: bad_argument: palace.echo: argument #1 is an unsupported value (function)");
  expect_usable(host);
}

TEST(LuaHost, InvalidHostArguments) {
  auto owned = native_host();
  LuaHost& host = *owned;
  Value deep = Value::table();
  for (int i = 0; i < 40; ++i) deep = Value::table({{num(1), deep}});
  EXPECT_EQ(call_error(host, "natives.lua", "roundtrip", {deep}),
            "scripts/natives.lua: roundtrip: argument #1 is a table nested deeper than 32 levels");
  EXPECT_EQ(call_error(host, "natives.lua", "roundtrip", {Value::table({{Value::nil(), num(1)}})}),
            "scripts/natives.lua: roundtrip: argument #1 is a table with a nil key");
  expect_usable(host);
}

TEST(LuaHost, RegistrationAfterLoadIsRefused) {
  auto owned = native_host();
  LuaHost& host = *owned;
  EXPECT_EQ(error_of([&] { host.register_function("late", [](const std::vector<Value>&) { return Value(); }); }),
            "register_function(\"late\"): must be called before load_script");
}

TEST(LuaHost, ValueHelpers) {
  const Value t = Value::table({{str("a"), num(1)}, {num(1), Value::number(1.5)}});
  ASSERT_NE(t.find("a"), nullptr);
  EXPECT_EQ(t.find("a")->as_integer(), 1);
  EXPECT_EQ(t.find(num(1))->as_number(), 1.5);
  EXPECT_EQ(t.find("missing"), nullptr);
  EXPECT_TRUE(Value().is_nil());
  EXPECT_FALSE(num(1) == Value::number(1.0));
  EXPECT_EQ(num(3).as_number(), 3.0);
  EXPECT_EQ(error_of([&] { (void)str("x").as_integer(); }), "expected integer value, got string");
}

TEST(LuaHost, TooSmallMemoryCapIsReported) {
  EXPECT_EQ(error_of([] { LuaHost host(Limits{1000, 1024}); }),
            "LuaHost: memory cap of 1024 bytes is too small for a Lua state");
}

}  // namespace

namespace {

// The top level runs once and what it built is frozen: every way keeps_state.lua tries to keep
// something for the next call is refused, or put back once the call ends.
TEST(LuaHost, NothingACallDoesOutlivesIt) {
  LuaHost host(kLimits);
  load(host, "keeps_state.lua");
  const std::string global = "attempt to set global 'total': globals are read-only in a call, so that no call leaves "
                             "state for the next (use a local)";
  const auto table = [](const char* key) {
    return std::string("attempt to change a read-only table (key '") + key +
           "'): the tables a script's top level built and those a call is given are read-only in a call";
  };
  EXPECT_EQ(call_error(host, "keeps_state.lua", "set_global"), "scripts/keeps_state.lua:14: set_global: " + global);
  EXPECT_EQ(call_error(host, "keeps_state.lua", "set_through_g"), "scripts/keeps_state.lua:15: set_through_g: " + global);
  EXPECT_EQ(call_error(host, "keeps_state.lua", "fill_local_table"),
            "scripts/keeps_state.lua:16: fill_local_table: " + table("1"));
  EXPECT_EQ(call_error(host, "keeps_state.lua", "fill_nested_table"),
            "scripts/keeps_state.lua:17: fill_nested_table: " + table("depth"));
  EXPECT_EQ(call_error(host, "keeps_state.lua", "fill_library"), "scripts/keeps_state.lua:18: fill_library: " + table("calls"));
  EXPECT_EQ(call_error(host, "keeps_state.lua", "change_metatable"),
            "scripts/keeps_state.lua:19: change_metatable: " + table("double"));
  EXPECT_EQ(call_error(host, "keeps_state.lua", "replace_metatable"),
            "scripts/keeps_state.lua:20: replace_metatable: cannot change the metatable of a read-only table");
  EXPECT_EQ(host.call("scripts/keeps_state.lua", "raw_write", {}), str("nil"));
  // Top-level locals (upvalues) are put back after each call, whether it ends well or not.
  for (int call = 0; call < 3; ++call) {
    EXPECT_EQ(host.call("scripts/keeps_state.lua", "count_upvalue", {}), num(1)) << call;
    EXPECT_EQ(call_error(host, "keeps_state.lua", "count_then_fail"),
              "scripts/keeps_state.lua:27: count_then_fail: failed with n = 1") << call;
  }
  EXPECT_EQ(host.call("scripts/keeps_state.lua", "replace_upvalue_table", {}), num(2));
  EXPECT_EQ(host.call("scripts/keeps_state.lua", "read_upvalue_table", {}), num(0));
  EXPECT_EQ(host.call("scripts/keeps_state.lua", "save_closure", {}), str("kept"));
  EXPECT_EQ(host.call("scripts/keeps_state.lua", "read_closure", {}), Value::boolean(true));
  EXPECT_EQ(host.call("scripts/keeps_state.lua", "change_env", {}), num(1));
  // ... and the frozen tables read as they did, _ENV put back.
  for (int call = 0; call < 2; ++call)
    EXPECT_EQ(host.call("scripts/keeps_state.lua", "reads", {}), str("list,sub 10,20,30 3 true 1 3 0 42 true true 3"));
  EXPECT_EQ(host.call("scripts/keeps_state.lua", "own_table", {}), num(3));
  expect_usable(host);
}

// No randomness: math.random is absent, and no address can be read, each a source of it.
TEST(LuaHost, NoRandomness) {
  LuaHost host(kLimits);
  load(host, "keeps_state.lua");
  EXPECT_EQ(host.call("scripts/keeps_state.lua", "no_randomness", {}), str("nil nil table function table"));
  EXPECT_EQ(call_error(host, "keeps_state.lua", "format_address"),
            "scripts/keeps_state.lua:51: format_address: invalid conversion '%p' to 'format': an address differs from run to run");
}

// gc_near_cap.lua's case (tests/repro/audit-4/), with its table count found here: a heap held just
// under the cap made every allocation run a full collection, and a call ran for minutes inside its
// budget. Each of those collections is charged, so the call ends with the budget.
TEST(LuaHost, CollectionsAtTheCapAreChargedToTheBudget) {
  LuaHost host;
  load(host, "near_cap.lua");
  // The largest count of small tables that fits under the cap beside the strings.
  int fits = 0, fails = 200000;
  while (fails - fits > 1) {
    const int mid = (fits + fails) / 2;
    const std::string error = call_error(host, "near_cap.lua", "fill", {num(mid), num(0)});
    if (error == "no exception") fits = mid;
    else {
      ASSERT_EQ(error, "scripts/near_cap.lua:8: fill: memory cap of 16777216 bytes exceeded") << mid;
      fails = mid;
    }
  }
  ASSERT_GT(fits, 50000);
  EXPECT_EQ(call_error(host, "near_cap.lua", "fill", {num(fits - 3), num(100000)}),
            "scripts/near_cap.lua:10: fill: instruction budget of 1000000 exceeded");
  expect_usable(host);
}

}  // namespace
