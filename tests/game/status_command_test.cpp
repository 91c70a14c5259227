// `palace status` as a user runs it: the built executable, its output lines and exit code.
#include <gtest/gtest.h>

#include <string>

#include "test_support.h"

namespace palace::test {
namespace {

// `palace status ARGS`; `out` holds its standard error instead of its standard output when asked.
PalaceRun run_status(const std::string& args, bool read_stderr = false) {
  return run_palace("status " + args + (read_stderr ? " 2>&1 >/dev/null" : " 2>/dev/null"));
}

std::string last_line(const std::string& text) {
  const auto lines = split(text, '\n');
  for (auto it = lines.rbegin(); it != lines.rend(); ++it)
    if (!it->empty()) return *it;
  return "";
}

std::string variant_arg(const std::string& name) { return shell_quoted(variant_path(name)); }

TEST(StatusCommand, SetUpIsUnfinished) {
  const PalaceRun run = run_status(variant_arg("janggi"));
  EXPECT_EQ(run.status, 0);
  EXPECT_NE(run.out.find("\nin check: no\n"), std::string::npos) << run.out;
  EXPECT_EQ(last_line(run.out), "unfinished");
}

TEST(StatusCommand, Checkmate) {
  const PalaceRun run = run_status(variant_arg("janggi") + " --fen '4K4/7R1/7C1/P7P/9/p1p2R3/8p/n4kr2/5n3/r1ba1a3 b - - 0 27'");
  EXPECT_EQ(run.status, 0);
  EXPECT_NE(run.out.find("\nin check: yes\n"), std::string::npos) << run.out;
  EXPECT_EQ(last_line(run.out), "cho wins: checkmate");
}

TEST(StatusCommand, MovesAsSeparateOrQuotedArguments) {
  const PalaceRun separate = run_status(variant_arg("janggi") + " --moves b10c8 b1c3 c8b10 c3b1 b10c8 b1c3 c8b10 c3b1");
  EXPECT_EQ(separate.status, 0);
  EXPECT_EQ(last_line(separate.out), "draw: repetition");
  const PalaceRun quoted = run_status(variant_arg("janggi-modern") + " --moves 'pass pass'");
  EXPECT_EQ(quoted.status, 0);
  EXPECT_EQ(last_line(quoted.out), "han wins: both sides passed, 73.5 to 72 points");
}

TEST(StatusCommand, AClaimableDrawIsALineBeforeTheState) {
  const PalaceRun run = run_status(variant_arg("chess") + " --moves g1f3 g8f6 f3g1 f6g8 g1f3 g8f6 f3g1 f6g8");
  EXPECT_EQ(run.status, 0);
  EXPECT_NE(run.out.find("\nin check: no\nclaimable: repetition\n"
                         "repetition: the position has occurred 3 times; White may claim a draw\nunfinished\n"), std::string::npos) << run.out;
  const PalaceRun later = run_status(variant_arg("chess") + " --moves g1f3 g8f6 f3g1 f6g8 g1f3 g8f6 f3g1 f6g8 e2e4");
  EXPECT_EQ(later.out.find("claimable"), std::string::npos) << later.out;
  EXPECT_EQ(last_line(later.out), "unfinished");
}

TEST(StatusCommand, AnIllegalMoveIsOneLineOnStderr) {
  const PalaceRun err = run_status(variant_arg("janggi") + " --moves a7a6 a4a5 b10b7", true);
  EXPECT_EQ(err.status, 2);
  EXPECT_EQ(err.out, "error: move 3 \"b10b7\": a horse cannot move from b10 to b7\n");
  const PalaceRun out = run_status(variant_arg("janggi") + " --moves a7a6 a4a5 b10b7");
  EXPECT_EQ(out.out, "");
}

TEST(StatusCommand, ABadFenIsOneLineOnStderr) {
  const PalaceRun err = run_status(variant_arg("janggi") + " --fen '9/9 w'", true);
  EXPECT_EQ(err.status, 2);
  EXPECT_EQ(err.out.rfind("error: FEN", 0), 0u) << err.out;
  EXPECT_EQ(err.out.find('\n'), err.out.size() - 1) << err.out;
}

}  // namespace
}  // namespace palace::test
