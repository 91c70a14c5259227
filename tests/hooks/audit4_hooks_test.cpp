// The hook inputs of the fourth audit (tests/repro/audit-4/README.md, H3 and H4), each answered at
// once and the same way every time. `timeout` guards the suite against a hang; it claims no speed.
#include <gtest/gtest.h>

#include "test_support.h"

namespace palace::test {
namespace {

const std::string Audit = "tests/repro/audit-4/";

PalaceRun guarded(const std::string& args) {
  return run_shell("cd " + shell_quoted(PALACE_SOURCE_DIR) + " && timeout 20 " + shell_quoted(PALACE_BINARY) + " " + args);
}

// H3: the hook fills its heap to the cap: one line naming it, not minutes of collections; the
// collections near the cap are charged (LuaHost.CollectionsAtTheCapAreChargedToTheBudget).
TEST(Audit4Hooks, AHeapAtTheCapEndsTheCallAtOnce) {
  const std::string line = "gc_near_cap.lua:10: h: memory cap of 16777216 bytes exceeded";
  const PalaceRun run = guarded("moves " + Audit + "gc_near_cap.yaml --fen '4k3/8/8/8/8/8/4P3/4K3 w - - 0 1' 2>&1");
  EXPECT_EQ(run.status, 2) << run.out;
  EXPECT_EQ(run.lines, (std::vector<std::string>{"error: " + line})) << run.out;
  const PalaceRun uci = guarded("uci " + Audit + "gc_near_cap.yaml < /dev/stdin <<'EOF'\nposition fen 4k3/8/8/8/8/8/4P3/4K3 w - - 0 1\n"
                                "go movetime 500\nEOF\n");
  EXPECT_EQ(uci.status, 0) << uci.out;
  EXPECT_EQ(uci.lines, (std::vector<std::string>{"info string search stopped: " + line, "bestmove (none)"})) << uci.out;
}

// H4: math.random is absent, so a hook that calls it fails the same way each time: perft gives one
// answer, and `go depth 1` answers.
TEST(Audit4Hooks, AHookCannotCallMathRandom) {
  for (const auto& [file, line] :
       {std::pair{"random_king_capture.yaml", "random_king_capture.lua:4: add: attempt to call a nil value (field 'random')"},
        std::pair{"random_allow.yaml", "random_allow.lua:2: h: attempt to call a nil value (field 'random')"}}) {
    for (int run = 0; run < 3; ++run) {
      const PalaceRun perft = guarded("perft " + Audit + file + " --depth 3 2>&1");
      EXPECT_EQ(perft.status, 2) << perft.out;
      EXPECT_EQ(perft.lines, (std::vector<std::string>{std::string("error: ") + line})) << perft.out;
    }
    const PalaceRun uci = guarded("uci " + Audit + file + " < " + Audit + "uci_depth1.txt");
    EXPECT_EQ(uci.status, 0) << uci.out;
    ASSERT_GE(uci.lines.size(), 2u) << uci.out;
    EXPECT_EQ(uci.lines[uci.lines.size() - 2], std::string("info string search stopped: ") + line);
    EXPECT_EQ(uci.lines.back(), "bestmove (none)");
  }
}

}  // namespace
}  // namespace palace::test
