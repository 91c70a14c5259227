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
