// When each runtime hook is asked (scripts/README.md, "When each hook is asked"), shown by what
// the hooks of rule_scripts/asked.lua forbid and print: a move an allow_move hook forbids gives no
// check and attacks no point a castling crosses; drops ask it, once a point; promotions, castling
// and en passant carry their fields.
#include <gtest/gtest.h>

#include <algorithm>
#include <string>

#include "test_support.h"

namespace palace::test {
namespace {

const std::string Chess = "tests/hooks/variants/asked_chess.yaml";
const std::string Crazyhouse = "tests/hooks/variants/asked_crazyhouse.yaml";

// `palace moves FILE --fen FEN`: the moves (standard output), or what the hooks printed.
std::string moves(const std::string& file, const std::string& fen) {
  const PalaceRun run = run_palace("moves " + file + " --fen '" + fen + "' 2>/dev/null");
  EXPECT_EQ(run.status, 0) << run.out;
  return run.lines.empty() ? "" : run.lines[0];
}
std::vector<std::string> printed(const std::string& file, const std::string& fen) {
  const PalaceRun run = run_palace("moves " + file + " --fen '" + fen + "' 2>&1 >/dev/null");
  EXPECT_EQ(run.status, 0) << run.out;
  return run.lines;
}

// The rook on a8 may not take the king: it gives no check, so the king may stay on its rank.
TEST(WhenHooksAreAsked, AnAttackTheHookForbidsIsNoCheck) {
  const std::string fen = "R3k3/8/8/8/8/8/8/4K3 b - - 0 1";
  EXPECT_EQ(moves("variants/chess.yaml", fen), "e8d7 e8e7 e8f7");
  EXPECT_EQ(moves(Chess, fen), "e8d7 e8d8 e8e7 e8f7 e8f8");
}

// The bishop on b5 may not move to f1: it does not attack f1, which the king crosses to castle.
TEST(WhenHooksAreAsked, AnAttackTheHookForbidsLeavesACastlingsPointsSafe) {
  const std::string fen = "4k3/8/8/1b6/8/8/8/4K2R w K - 0 1";
  EXPECT_EQ(moves("variants/chess.yaml", fen), "e1d1 e1d2 e1f2 h1f1 h1g1 h1h2 h1h3 h1h4 h1h5 h1h6 h1h7 h1h8");
  EXPECT_EQ(moves(Chess, fen), "e1d1 e1d2 e1f1 e1f2 e1g1 h1f1 h1g1 h1h2 h1h3 h1h4 h1h5 h1h6 h1h7 h1h8");
}

TEST(WhenHooksAreAsked, PromotionCastlingAndEnPassantCarryTheirFields) {
  const std::string fen = "r3k3/1P6/8/3pP3/8/8/8/4K2R w K d6 0 1";
  std::vector<std::string> lines = printed(Chess, fen);
  std::sort(lines.begin(), lines.end());
  EXPECT_EQ(lines, (std::vector<std::string>{"castling\te1\tg1\th1\tf1\trook", "en passant\te5\td6\td5\tpawn",
                                             "promotion\tb7\ta8\tbishop", "promotion\tb7\ta8\tknight",
                                             "promotion\tb7\ta8\tqueen", "promotion\tb7\ta8\trook",
                                             "promotion\tb7\tb8\tbishop", "promotion\tb7\tb8\tknight",
                                             "promotion\tb7\tb8\tqueen", "promotion\tb7\tb8\trook"}));
}

// Each drop of the knight is asked once, on each of the 62 empty points, with no `from`; those on
// the fourth rank are refused.
TEST(WhenHooksAreAsked, DropsAskTheHookOnceAPoint) {
  const std::string fen = "4k3/8/8/8/8/8/8/4K3[N] w - - 0 1";
  const std::vector<std::string> lines = printed(Crazyhouse, fen);
  EXPECT_EQ(lines.size(), 62u);
  EXPECT_EQ(std::count_if(lines.begin(), lines.end(),
                          [](const std::string& l) { return l.rfind("drop\tnil\t", 0) == 0 && l.find("\tknight\twhite") != std::string::npos; }),
            62);
  const std::string listed = moves(Crazyhouse, fen);
  EXPECT_EQ(std::count(listed.begin(), listed.end(), ' ') + 1, 5 + 54);
  EXPECT_EQ(listed.find("N@a4"), std::string::npos) << listed;
  EXPECT_NE(listed.find("N@a3"), std::string::npos) << listed;
  const PalaceRun why = run_palace("status " + Crazyhouse + " --fen '" + fen + "' --moves N@d4 2>&1 | grep -v ^drop");
  EXPECT_EQ(why.lines, (std::vector<std::string>{"error: move 1 \"N@d4\": asked.knight does not allow that drop of the knight on d4"}))
      << why.out;
}

}  // namespace
}  // namespace palace::test
