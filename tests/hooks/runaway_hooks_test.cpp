// Hooks on the command line: the inputs of tests/repro/ (written as an attacker would) end fast
// with one line naming the script and the budget, and what a hook prints stays off standard output.
#include <gtest/gtest.h>

#include "test_support.h"

namespace palace::test {
namespace {

// `palace validate FILE`, standard error included. `timeout` kills it after 20 seconds: a guard
// against hanging the suite, not a claim about its speed.
PalaceRun validate_guarded(const std::string& file) {
  return run_shell("cd " + shell_quoted(PALACE_SOURCE_DIR) + " && timeout 20 " + shell_quoted(PALACE_BINARY) + " validate " +
                   file + " 2>&1");
}

class RunawayHook : public testing::TestWithParam<const char*> {};

// spin.lua builds a 4 MiB string at its top level for its hooks to chew on; string.rep is charged
// for its count, so loading the script already runs out of budget. Each hook's own way of
// running away is tested without it in LuaHost.LibraryWorkIsChargedToTheBudget.
TEST_P(RunawayHook, EndsWithTheBudgetAtOnce) {
  const std::string file = std::string("tests/repro/") + GetParam() + ".yaml";
  const PalaceRun run = validate_guarded(file);
  EXPECT_EQ(run.status, 2) << run.out;
  ASSERT_EQ(run.lines.size(), 1u) << run.out;
  EXPECT_EQ(run.lines[0], "error: spin.lua:2: instruction budget of 1000000 exceeded");
}

INSTANTIATE_TEST_SUITE_P(Repro, RunawayHook,
                         testing::Values("spin_may_jump", "spin_utf8_spin", "spin_sort_spin", "spin_eq_spin"));

TEST(HookPrint, GoesToStandardErrorNotStandardOutput) {
  const std::string file = "tests/hooks/variants/prints.yaml";
  const PalaceRun out = run_palace("validate " + file + " 2>/dev/null");
  EXPECT_EQ(out.status, 0);
  ASSERT_EQ(out.lines.size(), 1u) << out.out;
  EXPECT_EQ(out.lines[0].rfind(file + ": ok: ", 0), 0u) << out.lines[0];

  const PalaceRun err = run_palace("validate " + file + " 2>&1 >/dev/null");
  // The top level prints once, as the script loads; then each call prints.
  ASSERT_GE(err.lines.size(), 3u) << err.out;
  EXPECT_EQ(err.lines[0], "loading\t1\tnil");
  EXPECT_EQ(err.lines[1].rfind("asked\tcannon\t", 0), 0u) << err.lines[1];
  EXPECT_EQ(err.lines[2].rfind("asked\tcannon\t", 0), 0u) << err.lines[2];
}

}  // namespace
}  // namespace palace::test
