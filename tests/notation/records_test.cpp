// Game records end to end: famous games typed from public sources (tests/records/) replay to their
// recorded results, conversion round-trips, and bad records are reported one by one, never a crash.
#include <gtest/gtest.h>

#include <fstream>

#include "notation/gib.h"
#include "notation/pgn.h"
#include "notation/replay.h"
#include "test_support.h"

namespace palace::test {
namespace {

void write_file(const std::string& path, const std::string& text) {
  std::ofstream out(path, std::ios::binary);
  out << text;
}

TEST(Records, FamousGamesReplayToTheirRecordedResults) {
  const PalaceRun run = run_palace("replay tests/records/chess-immortal-game.pgn tests/records/xiangqi-li-wang-2004.pgn "
                                   "tests/records/janggi-kakao-2020.gib tests/records/janggi-pl-opening.pgn");
  EXPECT_EQ(run.status, 0) << run.out;
  ASSERT_EQ(run.lines.size(), 5u) << run.out;
  EXPECT_EQ(run.lines[0], "tests/records/chess-immortal-game.pgn game 1 (line 4): good: chess, 45 plies, 1-0: white wins: checkmate");
  EXPECT_EQ(run.lines[1], "tests/records/xiangqi-li-wang-2004.pgn game 1 (line 5): good: xiangqi, 31 plies, 1/2-1/2 (not decided on the board)");
  EXPECT_EQ(run.lines[2], "tests/records/janggi-kakao-2020.gib game 1 (line 1): good: janggi-casual, 23 plies, 0-1 (not decided on the board)");
  EXPECT_EQ(run.lines[3], "tests/records/janggi-pl-opening.pgn game 1 (line 3): good: janggi, 12 plies, *");
  EXPECT_EQ(run.lines[4], "4 games, 4 good, 0 bad");
}

}  // namespace
}  // namespace palace::test
