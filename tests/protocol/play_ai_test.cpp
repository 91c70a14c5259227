// `palace play --ai SIDE`: the engine answers each move, saying its move and its evaluation.
#include <gtest/gtest.h>

#include "test_support.h"

namespace palace::test {
namespace {

TEST(PlayAgainstEngine, TheEngineAnswersAndUndoTakesBackBothMoves) {
  const auto run = run_palace("play variants/janggi-modern.yaml --ai han --depth 1 <<'EOF'\nb10c8\nundo\nEOF\n");
  EXPECT_EQ(run.status, 0);
  std::vector<std::string> said;
  for (const auto& line : run.lines)
    if (line.find(" plays ") != std::string::npos || line.rfind("took back", 0) == 0) said.push_back(line);
  ASSERT_EQ(said.size(), 3u) << run.out;
  EXPECT_EQ(said[0], "Cho plays b10c8");
  EXPECT_EQ(said[1].rfind("Han plays ", 0), 0u);
  EXPECT_NE(said[1].find(" for Han, depth 1)"), std::string::npos) << said[1];
  EXPECT_EQ(said[2], "took back b10c8 " + said[1].substr(10, said[1].find(' ', 10) - 10));
}

TEST(PlayAgainstEngine, TheEngineMovesFirstWhenItHasTheFirstSide) {
  const auto run = run_palace("play variants/xiangqi.yaml --ai red --depth 1 </dev/null");
  EXPECT_EQ(run.status, 0);
  EXPECT_NE(run.out.find("Red plays "), std::string::npos) << run.out;
}

TEST(PlayAgainstEngine, AnUnknownSideIsRefusedWithTheSidesThereAre) {
  const auto run = run_palace("play variants/chess.yaml --ai nobody 2>&1");
  EXPECT_EQ(run.status, 2);
  EXPECT_EQ(run.out, "error: --ai: no side named \"nobody\" (white, black)\n");
}

}  // namespace
}  // namespace palace::test

namespace palace::test {
namespace {

// trap.lua (tests/repro/serve-and-hooks/) errs once a piece stands on e4: the move that brings one
// there is refused with the script's line, taken back, and the game goes on.
TEST(PlayHostileHooks, AMoveAFailingHookRefusesIsTakenBackAndTheGameGoesOn) {
  const auto run = run_palace("play tests/repro/serve-and-hooks/trap.yaml 2>&1 <<'EOF'\nd2d4\ne7e5\ne2e4\nd4e5\nfen\nquit\nEOF\n");
  EXPECT_EQ(run.status, 2) << run.out;  // piped input that had a move refused
  std::vector<std::string> said;
  for (const std::string& line : run.lines)
    if (line.find("plays") != std::string::npos || line.find("trap.lua") != std::string::npos || line.find('/') != std::string::npos)
      said.push_back(line);
  EXPECT_EQ(said, (std::vector<std::string>{"White plays d2d4", "Black plays e7e5", "e2e4: trap.lua:3: knight: boom: e4 is occupied",
                                            "White plays d4e5", "rnbqkbnr/pppp1ppp/8/4P3/8/8/PPP1PPPP/RNBQKBNR b KQkq - 0 2"}));
}

}  // namespace
}  // namespace palace::test
