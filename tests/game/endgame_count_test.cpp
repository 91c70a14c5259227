// The endgame count (ends.endgame_count) in Makruk, move by move, as the reference engine counts
// and writes it: the limit in plies in the en passant field, the plies counted in the half-move
// field. Every FEN after a move below is the reference engine's for the same moves.
#include <gtest/gtest.h>

#include "game/evaluator.h"
#include "test_support.h"

namespace palace::test {
namespace {

std::shared_ptr<const Variant> makruk() {
  static const auto variant = load_variant(variant_path("makruk"));
  return variant;
}

// The FEN after each of `moves` (space-separated) from `fen`, joined by " | ".
std::string fens_after(const std::string& fen, const std::string& moves) {
  Position pos(makruk());
  pos.set_fen(fen);
  std::istringstream in(moves);
  std::string out;
  for (std::string move; in >> move;) {
    play_moves(pos, move);
    out += (out.empty() ? "" : " | ") + pos.fen();
  }
  return out;
}

TEST(EndgameCount, TheReferenceFenReadsAndWritesBack) {
  Position pos(makruk());
  pos.set_fen("8/7s/7s/3K4/8/8/8/7k w - 44 24 83");
  EXPECT_EQ(pos.fen(), "8/7s/7s/3K4/8/8/8/7k w - 44 24 83");
  EXPECT_EQ(pos.state().count_limit, 44);
  EXPECT_EQ(pos.state().count_plies, 24);
  EXPECT_EQ(pos.state().quiet_plies, 0);
}

TEST(EndgameCount, ACaptureThatBaresAKingStartsThePiecesHonour) {
  // One rook against a bare king: 16 moves, counted from the three pieces on the board.
  EXPECT_EQ(fens_after("8/8/8/3n4/8/2k5/8/K2R4 w - - 0 60", "d1d5 c3b3"),
            "8/8/8/3R4/8/2k5/8/K7 b - 32 6 60 | 8/8/8/3R4/8/1k6/8/K7 w - 32 7 61");
}

TEST(EndgameCount, ABareKingThatTakesTheLastPawnCountsFromItsOwnMove) {
  EXPECT_EQ(fens_after("7r/8/8/4k3/1p6/K7/8/8 w - - 0 60", "a3b4 h8h1"),
            "7r/8/8/4k3/1K6/8/8/8 b - 32 5 60 | 8/8/8/4k3/1K6/8/8/7r w - 32 6 61");
}

TEST(EndgameCount, TheLastPawnPromotedStartsTheBoardsHonourThenACaptureRestartsIt) {
  EXPECT_EQ(fens_after("8/8/8/4k3/1p6/8/K7/3R4 b - - 0 60", "b4b3m a2b3"),
            "8/8/8/4k3/8/1m6/K7/3R4 w - 128 0 61 | 8/8/8/4k3/8/1K6/8/3R4 b - 32 6 61");
}

TEST(EndgameCount, NoCountStartsForASideWhoseOpponentIsBare) {
  // From a FEN without a count: Black's bare king moves first, and counts only at its next turn.
  EXPECT_EQ(fens_after("8/8/3k4/8/8/8/8/R2K3R b - - 0 60", "d6e5 h1h2"),
            "8/8/8/4k3/8/8/8/R2K3R w - - 1 61 | 8/8/8/4k3/8/8/7R/R2K4 b - 16 8 61");
}

TEST(EndgameCount, BeforeAnyCountTheClockStartsAgainAtAPawnsMove) {
  EXPECT_EQ(fens_after("rnsmksnr/8/pppppppp/8/8/PPPPPPPP/8/RNSKMSNR w - - 0 1", "b1d2 b8d7 a3a4"),
            "rnsmksnr/8/pppppppp/8/8/PPPPPPPP/3N4/R1SKMSNR b - - 1 1 | "
            "r1smksnr/3n4/pppppppp/8/8/PPPPPPPP/3N4/R1SKMSNR w - - 2 2 | "
            "r1smksnr/3n4/pppppppp/8/P7/1PPPPPPP/3N4/R1SKMSNR b - - 0 2");
}

TEST(EndgameCount, UndoRestoresTheCount) {
  Position pos(makruk());
  pos.set_fen("8/8/8/3n4/8/2k5/8/K2R4 w - - 0 60");
  play_moves(pos, "d1d5 c3b3");
  pos.undo_move();
  pos.undo_move();
  EXPECT_EQ(pos.fen(), "8/8/8/3n4/8/2k5/8/K2R4 w - - 0 60");
}

TEST(EndgameCount, ThePlyPastTheLimitDraws) {
  Position pos(makruk());
  pos.set_fen("8/7s/7s/3K4/8/8/8/7k b - 44 44 83");
  EXPECT_FALSE(evaluate(pos).finished());
  play_moves(pos, "h1g1");
  EXPECT_EQ(evaluate(pos).str(pos.variant()), "draw: endgame count");
}

TEST(EndgameCount, BadCountFields) {
  EXPECT_EQ(fen_error_in(makruk(), "8/7s/7s/3K4/8/8/8/7k w - 44 x 83"),
            "FEN endgame count: expected a number from 0 to 65535, got \"x\"");
  EXPECT_EQ(fen_error_in(makruk(), "8/7s/7s/3K4/8/8/8/7k w - 0 24 83"),
            "FEN endgame count limit: expected a number from 1 to 65535, got \"0\"");
  EXPECT_EQ(fen_error_in(makruk(), "8/7s/7s/3K4/8/8/8/7k w - 99999 24 83"),
            "FEN endgame count limit: expected a number from 1 to 65535, got \"99999\"");
  // Where no count is kept, the field is the ghost square it always was.
  EXPECT_EQ(fen_error_in(load_variant(variant_path("chess")), "8/8/8/3K4/8/8/8/7k w - 44 24 83"),
            "FEN ghost square: \"44\" is not a point of the board");
}

}  // namespace
}  // namespace palace::test
