// Static exchange evaluation: the exact gain of the exchange a move starts, in chess, xiangqi and
// janggi, from each variant's own tables.
#include <gtest/gtest.h>

#include "search/eval.h"
#include "search/see.h"
#include "test_support.h"

namespace palace::test {
namespace {

struct Exchange {
  std::shared_ptr<const Variant> variant;
  search::Evaluation eval;
  explicit Exchange(const std::string& name) : variant(load_variant(variant_path(name))), eval(*variant) {}

  // The value of the kind written `letter` (white's or red's letter).
  int value(char letter) const { return eval.value(kind_of(variant->piece_from_letter(letter))); }

  // Whether the exchange `move` starts in `fen` gains exactly `gain`: at least it, not one more.
  ::testing::AssertionResult gains(const std::string& fen, const std::string& move, int gain) const {
    Position pos(variant);
    set_played_fen(pos, fen);
    const Move m = legal_move_named(pos, move);
    if (!m) return ::testing::AssertionFailure() << move << " is not legal in " << fen;
    const bool at_least = search::see_ge(pos, m, gain, eval), more = search::see_ge(pos, m, gain + 1, eval);
    if (at_least && !more) return ::testing::AssertionSuccess();
    return ::testing::AssertionFailure() << move << " in " << fen << ": see_ge(" << gain << ") " << at_least
                                         << ", see_ge(" << gain + 1 << ") " << more;
  }
};

TEST(StaticExchange, ChessRookTakesAnUndefendedPawn) {
  const Exchange chess("chess");
  EXPECT_TRUE(chess.gains("1k1r4/1pp4p/p7/4p3/8/P5P1/1PP4P/2K1R3 w - - 0 1", "e1e5", chess.value('P')));
}

TEST(StaticExchange, ChessQueenTakesADefendedPawn) {
  const Exchange chess("chess");
  EXPECT_TRUE(chess.gains("4k3/4p3/3p4/8/8/8/8/3QK3 w - - 0 1", "d1d6", chess.value('P') - chess.value('Q')));
}

TEST(StaticExchange, ChessRookBehindARookRecapturesThroughIt) {
  const Exchange chess("chess");
  // The back rook takes back once the front one has gone: a pawn up, not a rook down.
  EXPECT_TRUE(chess.gains("4r1k1/8/8/4p3/8/8/4R3/4R1K1 w - - 0 1", "e2e5", chess.value('P')));
  EXPECT_TRUE(chess.gains("4r1k1/8/8/4p3/8/8/4R3/6K1 w - - 0 1", "e2e5", chess.value('P') - chess.value('R')));
}

TEST(StaticExchange, ChessKingRecapturesOnlyAnUndefendedPiece) {
  const Exchange chess("chess");
  EXPECT_TRUE(chess.gains("4k3/3p4/8/8/8/8/8/3RK3 w - - 0 1", "d1d7", chess.value('P') - chess.value('R')));
  // The bishop on b5 guards d7: the king may not take.
  EXPECT_TRUE(chess.gains("4k3/3p4/8/1B6/8/8/8/3RK3 w - - 0 1", "d1d7", chess.value('P')));
}

TEST(StaticExchange, ChessQuietMoveOntoAGuardedPoint) {
  const Exchange chess("chess");
  EXPECT_TRUE(chess.gains("4k3/8/8/4p3/8/8/8/3QK3 w - - 0 1", "d1d4", -chess.value('Q')));
  EXPECT_TRUE(chess.gains("4k3/8/8/4p3/8/8/8/3QK3 w - - 0 1", "d1d3", 0));
}

TEST(StaticExchange, XiangqiCannonLosesItsScreenWhenTheScreenRecaptures) {
  const Exchange xiangqi("xiangqi");
  // The soldier on e6 is the screen of the cannon on e8: once it has taken the chariot on e5, the
  // cannon no longer reaches the horse that takes it back.
  EXPECT_TRUE(xiangqi.gains("5k3/9/4c4/9/4p4/4n4/9/3NR4/9/3K5 w - - 0 1", "e3e5",
                            xiangqi.value('N') - xiangqi.value('R') + xiangqi.value('P')));
}

TEST(StaticExchange, XiangqiCannonGainsAScreenWhenOneOfTwoLeaves) {
  const Exchange xiangqi("xiangqi");
  // The cannon on e10 looks at e5 over two pieces; once the soldier on e6 has left, over the elephant
  // alone: it would take the horse that takes back, so red stops a chariot for a horse down.
  EXPECT_TRUE(xiangqi.gains("4ck3/9/4b4/9/4p4/4n4/9/3NR4/9/3K5 w - - 0 1", "e3e5",
                            xiangqi.value('N') - xiangqi.value('R')));
}

TEST(StaticExchange, XiangqiHorseWithABlockedLegCannotRecapture) {
  const Exchange xiangqi("xiangqi");
  EXPECT_TRUE(xiangqi.gains("5k3/9/9/9/4p4/4n4/3P5/3NR4/9/3K5 w - - 0 1", "e3e5",
                            xiangqi.value('N') - xiangqi.value('R')));
  EXPECT_TRUE(xiangqi.gains("5k3/9/9/9/4p4/4n4/9/3NR4/9/3K5 w - - 0 1", "e3e5",
                            xiangqi.value('N') - xiangqi.value('R') + xiangqi.value('P')));
}

TEST(StaticExchange, XiangqiAdvisorGuardsOnlyInsideThePalace) {
  const Exchange xiangqi("xiangqi");
  // The advisor on d8 would step diagonally onto c7, outside its palace: the horse there hangs.
  EXPECT_TRUE(xiangqi.gains("5k3/9/3a5/2n6/9/9/9/2R6/9/3K5 w - - 0 1", "c3c7", xiangqi.value('N')));
  // From the palace's centre it guards d8.
  EXPECT_TRUE(xiangqi.gains("5k3/4a4/3n5/9/9/9/9/3R5/9/3K5 w - - 0 1", "d3d8",
                            xiangqi.value('N') - xiangqi.value('R')));
}

TEST(StaticExchange, JanggiCannonJumpsNoCannon) {
  const Exchange janggi("janggi");
  // The cannon on a1 guards a4 over the elephant on a2, not over a cannon.
  EXPECT_TRUE(janggi.gains("9/3K5/R8/9/9/9/n8/9/b3k4/c8 w - - 0 1", "a8a4", janggi.value('N') - janggi.value('R')));
  EXPECT_TRUE(janggi.gains("9/3K5/R8/9/9/9/n8/9/c3k4/c8 w - - 0 1", "a8a4", janggi.value('N')));
}

}  // namespace
}  // namespace palace::test
