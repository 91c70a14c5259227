// State the new ways to win keep in a position: three-check's counters, read and written in the
// FEN and made and unmade with the move, and atomic's explosions, undone piece for piece.
#include <gtest/gtest.h>

#include "game/game.h"
#include "movegen/movegen.h"
#include "test_support.h"

namespace palace::test {
namespace {

std::string fen_error(const std::string& variant, const std::string& fen) { return fen_error_in(load_variant(variant_path(variant)), fen); }

TEST(CheckCounters, StartFenCarriesThem) {
  Position pos(load_variant(variant_path("three-check")));
  EXPECT_EQ(pos.fen(), "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 3+3 0 1");
}

TEST(CheckCounters, FenRoundTrip) {
  Position pos(load_variant(variant_path("three-check")));
  const std::string fen = "5knr/rp2pB2/8/pbp4p/P4R1P/2N5/1b1B2P1/4K2R b K - 1+1 4 26";
  pos.set_fen(fen);
  EXPECT_EQ(pos.fen(), fen);
}

TEST(CheckCounters, MissingCountersMeanFullCounts) {
  Position pos(load_variant(variant_path("three-check")));
  pos.set_fen("4k3/8/8/8/8/8/8/R3K3 w - - 0 1");
  EXPECT_EQ(pos.fen(), "4k3/8/8/8/8/8/8/R3K3 w - - 3+3 0 1");
}

TEST(CheckCounters, CheckCountsDownAndUndoRestores) {
  Position pos(load_variant(variant_path("three-check")));
  pos.set_fen("4k3/8/8/8/8/8/8/R3K3 w - - 3+3 0 1");
  const std::uint64_t hash = pos.state().hash;
  pos.do_move(Move(pos.variant().board().parse_point("a1"), pos.variant().board().parse_point("a8")));
  EXPECT_EQ(pos.fen(), "R3k3/8/8/8/8/8/8/4K3 b - - 2+3 1 1");
  EXPECT_TRUE(pos.is_consistent());
  pos.undo_move();
  EXPECT_EQ(pos.fen(), "4k3/8/8/8/8/8/8/R3K3 w - - 3+3 0 1");
  EXPECT_EQ(pos.state().hash, hash);
}

// Lichess's three-check: kings alone can give no check, so they draw; a knight may still check.
TEST(CheckCounters, KingsAloneDrawAndAKnightPlaysOn) {
  Game game(load_variant(variant_path("three-check")));
  game.set_fen("8/6K1/8/8/8/8/k7/8 b - - 3+3 0 1");
  EXPECT_EQ(game.game_state().str(game.variant()), "draw: insufficient material");
  game.set_fen("8/6K1/8/8/8/8/k7/7N b - - 3+3 0 1");
  EXPECT_EQ(game.game_state().str(game.variant()), "unfinished");
}

TEST(CheckCounters, BadCountersAreRefused) {
  const std::string expected =
      "FEN check counters: expected the checks each side still needs, two numbers from 0 to 3 like 3+3, got ";
  EXPECT_EQ(fen_error("three-check", "4k3/8/8/8/8/8/8/R3K3 w - - 4+3 0 1"), expected + "\"4+3\"");
  EXPECT_EQ(fen_error("three-check", "4k3/8/8/8/8/8/8/R3K3 w - - 3+ 0 1"), expected + "\"3+\"");
  EXPECT_EQ(fen_error("three-check", "4k3/8/8/8/8/8/8/R3K3 w - - x+1 0 1"), expected + "\"x+1\"");
}

TEST(Explosions, UndoPutsEveryPieceBack) {
  Position pos(load_variant(variant_path("atomic")));
  const std::string fen = "r3k2r/8/2b5/3np3/8/8/8/R2RK2R w KQkq - 0 1";
  pos.set_fen(fen);
  const std::uint64_t hash = pos.state().hash;
  const BoardDef& board = pos.variant().board();
  pos.do_move(Move(board.parse_point("d1"), board.parse_point("d5")));
  EXPECT_EQ(pos.fen(), "r3k2r/8/8/4p3/8/8/8/R3K2R b KQkq - 0 1");
  EXPECT_TRUE(pos.is_consistent());
  pos.undo_move();
  EXPECT_EQ(pos.fen(), fen);
  EXPECT_EQ(pos.state().hash, hash);
  EXPECT_TRUE(pos.is_consistent());
}

TEST(Explosions, ARookBlownUpOnItsSquareLosesItsRight) {
  Position pos(load_variant(variant_path("atomic")));
  pos.set_fen("r3k2r/8/8/8/8/8/6p1/R3KB1R w KQkq - 0 1");
  const BoardDef& board = pos.variant().board();
  // The bishop takes on g2; the blast takes the rook on h1 with it.
  pos.do_move(Move(board.parse_point("f1"), board.parse_point("g2")));
  EXPECT_EQ(pos.fen(), "r3k2r/8/8/8/8/8/8/R3K3 b Qkq - 0 1");
  EXPECT_TRUE(pos.is_consistent());
}

// A king next to the other king cannot be taken: the taker would blow up its own. Castling may
// start on or pass such a point though it is attacked, as the reference engine has it.
TEST(Explosions, CastlingMayCrossAttackedPointsNextToTheOtherKing) {
  Position pos(load_variant(variant_path("atomic")));
  pos.set_fen("5r2/8/8/8/8/8/6k1/4K2R w K - 0 1");  // the rook attacks f1, next to the king on g2
  EXPECT_EQ(join(legal_move_texts(pos)), "e1d1 e1d2 e1e2 e1f1 e1f2 e1g1 h1f1 h1g1 h1h2 h1h3 h1h4 h1h5 h1h6 h1h7 h1h8");
  pos.set_fen("4r3/8/8/8/8/8/3k4/4K2R w K - 0 1");  // the rook attacks e1, next to the king on d2
  EXPECT_EQ(join(legal_move_texts(pos)), "e1d1 e1e2 e1f1 e1f2 e1g1 h1f1 h1g1 h1h2 h1h3 h1h4 h1h5 h1h6 h1h7 h1h8");
  pos.set_fen("3r4/8/8/8/8/8/8/R3K1k1 w Q - 0 1");  // d1 is attacked and not next to the king on g1
  EXPECT_EQ(join(legal_move_texts(pos)), "a1a2 a1a3 a1a4 a1a5 a1a6 a1a7 a1a8 a1b1 a1c1 a1d1 e1e2 e1f1 e1f2");
}

TEST(Explosions, AFenWithoutAKingIsAFinishedGame) {
  EXPECT_EQ(fen_error("atomic", "8/8/8/8/8/8/8/4K3 b - - 0 1"), "(accepted: 8/8/8/8/8/8/8/4K3 b - - 0 1)");
  EXPECT_EQ(fen_error("chess", "8/8/8/8/8/8/8/4K3 b - - 0 1"), "FEN board: black has no king");
}

}  // namespace
}  // namespace palace::test
