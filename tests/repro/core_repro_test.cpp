// Regression tests for the defects of the reliability review that lived in the core: each loads
// the input that showed the defect (tests/repro/, copied from the review) and asserts the answer.
#include <gtest/gtest.h>

#include <fstream>

#include "game/game.h"
#include "test_support.h"

namespace palace::test {
namespace {

std::string repro(const std::string& file) { return source_path("tests/repro/" + file); }

// 35 queens on a 16x15 board: more moves than the lists of the review's day held. 698 is the
// count of a separate walk of the queens' lines (and the king's steps) written for this test.
TEST(CoreRepro, ManyQueensOnALargeBoardMakeAllTheirMoves) {
  Position pos(load_variant(repro("crowded.yaml")));
  EXPECT_EQ(perft(pos, 1), 698u);
}

// The same board with a queen on every point of ranks 2 to 14: past what a list holds.
TEST(CoreRepro, MoreMovesThanAListHoldsIsRefusedAtLoad) {
  const std::string path = temp_path("crowded.yaml");
  std::ofstream file(path);
  file << "name: more-queens\n"
          "board: {files: 16, ranks: 15, diagonals: all}\n"
          "sides: {white: {forward: up}, black: {forward: down}}\n"
          "pieces:\n"
          "  king: {letter: K, royal: true, moves: [{step: all}]}\n"
          "  queen: {letter: Q, moves: [{slide: all}]}\n"
          "setup:\n"
          "  white: {pieces: {king: a1, queen: [";
  for (int rank = 2; rank <= 14; ++rank)
    for (char f = 'a'; f <= 'p'; ++f) file << (rank == 2 && f == 'a' ? "" : ", ") << f << rank;
  file << "]}}\n  black: {pieces: {king: p15}}\n";
  file.close();
  EXPECT_EQ(rule_error_of([&] { load_variant(path); }),
            path + ": setup: white could have up to 10107 moves in one position; Palace supports at most 8192");
}

TEST(CoreRepro, AFenThatCouldOverflowTheMoveListIsRefused) {
  Position pos(load_variant(repro("crowded.yaml")));
  const std::string before = pos.fen();
  std::string board = "15k/";
  for (int rank = 14; rank >= 3; --rank) board += "QQQQQQQQQQQQQQQQ/";
  try {
    pos.set_fen(board + "16/K15 w - - 0 1");
    FAIL() << "192 queens accepted";
  } catch (const FenError& e) {
    EXPECT_STREQ(e.what(), "FEN board: white has 193 pieces, which could make up to 9403 moves; at most 8192 are supported");
  }
  EXPECT_EQ(pos.fen(), before);
}

TEST(CoreRepro, CastlingOntoThePartnersStartKeepsBothPieces) {
  Game game(load_variant(repro("c960.yaml")));
  game.set_fen("r4k2/8/8/8/8/8/8/R4KR1 w KQq - 0 1");
  ASSERT_TRUE(game.play("f1g1").accepted) << game.last_refusal();
  EXPECT_EQ(game.fen(), "r4k2/8/8/8/8/8/8/R4RK1 b q - 1 1");
  EXPECT_TRUE(game.position().is_consistent());
  ASSERT_TRUE(game.undo());
  EXPECT_EQ(game.fen(), "r4k2/8/8/8/8/8/8/R4KR1 w KQq - 0 1");
  EXPECT_TRUE(game.position().is_consistent());
}

TEST(CoreRepro, AMoveHookThatForbidsACaptureForbidsTheCheckToo) {
  Game game(load_variant(repro("v_nk.yaml")));
  game.set_fen("4K4/9/9/9/9/9/9/9/4r4/3k5 w - - 0 1");
  EXPECT_FALSE(game.is_in_check(game.side_to_move()));
  // Han's chariot sees the general down the open file, but its hook forbids the capture.
  Position pos(game.variant_ptr());
  pos.set_fen("4K4/9/9/9/9/9/9/9/4r4/3k5 b - - 0 1");
  EXPECT_EQ(join(legal_move_texts(pos)),
            "d1d2 d1e1 e2a2 e2b2 e2c2 e2d2 e2d3 e2e1 e2e3 e2e4 e2e5 e2e6 e2e7 e2e8 e2e9 e2f1 e2f2 e2f3 e2g2 e2h2 e2i2");
}

// The standoff counts the position the record starts from: after a pass it has held two plies.
TEST(CoreRepro, AStandoffHeldFromTheStartEndsAfterOnePass) {
  const std::string fen = "1N6B/9/3AK4/5P3/R8/1p5P1/9/9/4k4/1n1n5 w - - 6 44";
  Game game(load_variant(variant_path("janggi-modern")));
  game.set_fen(fen);
  ASSERT_TRUE(game.play("pass").accepted);
  EXPECT_EQ(game.game_state().str(game.variant()), "cho wins: standoff, 28 to 13.5 points");
  Position pos(load_variant(variant_path("janggi-modern")));
  pos.set_fen(fen);
  EXPECT_EQ(perft(pos, 2), 42u);
}

}  // namespace
}  // namespace palace::test
