// Hooks written as an attacker would (tests/repro/serve-and-hooks/): whatever they answer, print or
// remember, each costs one clear line and bounded time and memory.
#include <gtest/gtest.h>

#include <atomic>

#include "hooks/lua_host.h"
#include "position/move_hooks.h"
#include "test_support.h"

namespace palace::test {
namespace {

using hooks::LuaHost;
using hooks::Value;

const std::string Repro = "tests/repro/serve-and-hooks/";

// `palace ARGS`, under a memory ceiling and `timeout`: a guard against taking the machine or the
// suite down, not a claim about speed.
PalaceRun guarded(const std::string& args) {
  return run_shell("cd " + shell_quoted(PALACE_SOURCE_DIR) + " && " + address_space_cap(2000000) + "timeout 20 " +
                   shell_quoted(PALACE_BINARY) + " " + args);
}

// Thirty levels of {t, t}: 2^30 leaves once copied, were shared tables not refused.
TEST(HostileHook, SharedTablesInAnAnswerAreRefusedInOneLine) {
  const PalaceRun run = guarded("moves " + Repro + "dag.yaml 2>&1");
  EXPECT_EQ(run.status, 2) << run.out;
  ASSERT_EQ(run.lines.size(), 1u) << run.out;
  EXPECT_EQ(run.lines[0], "error: dag.lua: allow: returned a table that holds the same table twice (shared or cyclic tables are refused)");
}

TEST(HostileHook, ConvertingAnAnswerIsChargedToTheBudget) {
  LuaHost host({200'000, 16u << 20});
  host.load_script(source_path(Repro + "addmany.lua"), "addmany.lua");
  try {
    host.call("addmany.lua", "h", {});
    FAIL() << "no error";
  } catch (const hooks::HookError& e) {
    EXPECT_EQ(std::string(e.what()).find("addmany.lua:"), 0u) << e.what();
  }
}

TEST(HostileHook, AListOfPointsLongerThanTheBoardIsRefused) {
  const PalaceRun run = guarded("moves " + Repro + "addmany.yaml 2>&1");
  EXPECT_EQ(run.status, 2) << run.out;
  ASSERT_EQ(run.lines.size(), 1u) << run.out;
  EXPECT_EQ(run.lines[0], "error: addmany.lua:2: h: returned 150000 points; at most 128 are allowed");
}

// A call may not set a global, directly or through _G: the error names the line, and the same
// question always gets the same answer (flip7.lua's every-seventh-call king capture cannot count).
TEST(HostileHook, GlobalsAreReadOnlyInACall) {
  LuaHost host;
  host.load_script(source_path(Repro + "state.lua"), "state.lua");
  const std::string refused = "state.lua:3: count: attempt to set global 'n': globals are read-only in a call, so that no "
                              "call leaves state for the next (use a local)";
  for (int call = 0; call < 2; ++call) {
    try {
      host.call("state.lua", "count", {});
      FAIL() << "no error";
    } catch (const hooks::HookError& e) {
      EXPECT_EQ(e.what(), refused);
    }
  }
  const PalaceRun run = guarded("perft " + Repro + "flip7.yaml --depth 3 2>&1");
  EXPECT_EQ(run.status, 2) << run.out;
  ASSERT_EQ(run.lines.size(), 1u) << run.out;
  EXPECT_EQ(run.lines[0], "error: flip7.lua:6: add: attempt to set global 'n': globals are read-only in a call, so that no "
                          "call leaves state for the next (use a local)");
}

// A top-level local is an upvalue every function of the script shares: it is put back after each
// call, so a counter kept there counts one call, always (flip7_local.lua's every-seventh-call king
// capture never happens). LuaHost.NothingACallDoesOutlivesIt tries the other ways.
TEST(HostileHook, TopLevelLocalsArePutBackAfterEachCall) {
  const PalaceRun run = guarded("perft " + Repro + "flip7_local.yaml --depth 3 2>&1");
  EXPECT_EQ(run.status, 0) << run.out;
  EXPECT_EQ(run.out, guarded("perft variants/chess.yaml --depth 3 2>&1").out);
}

// pf.lua prints 32 MB a call: a call may write 4 KiB, an interpreter 64 KiB, and the moves are right.
TEST(HostileHook, PrintIsCappedPerCallAndPerInterpreter) {
  const PalaceRun err = guarded("moves " + Repro + "pf.yaml 2>&1 >/dev/null");
  EXPECT_EQ(err.status, 0);
  EXPECT_GT(err.out.size(), 65536u);
  EXPECT_LT(err.out.size(), 65536u + 17 * 80u);  // and the note on each call cut
  EXPECT_NE(err.out.find("[print: output cut, at most 4096 bytes a call and 65536 an interpreter]"), std::string::npos);
  const PalaceRun out = guarded("moves " + Repro + "pf.yaml 2>/dev/null");
  EXPECT_EQ(out.out, guarded("moves variants/chess.yaml").out);
}

// A hook is stopped inside its call once its interrupt says so, and the caller can tell.
TEST(HostileHook, AnInterruptStopsAHookMidCall) {
  LuaHost host;
  host.load_script(source_path(Repro + "slow.lua"), "slow.lua");
  std::atomic<int> asked = 0;
  host.set_interrupt([&] { return ++asked > 3; });
  EXPECT_THROW(host.call("slow.lua", "slow", {Value::table()}), HookInterrupted);
  EXPECT_EQ(asked, 4);  // the call stopped at the first question answered yes
  host.set_interrupt({});
  EXPECT_EQ(host.call("slow.lua", "slow", {Value::table()}), Value::boolean(true));
}

}  // namespace
}  // namespace palace::test
