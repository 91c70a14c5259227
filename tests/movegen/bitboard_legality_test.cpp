// The bitboard back end's legal moves found from checks and pins (generate_bitboard_legal), not by
// making each move, or, where pieces hop, tried where a move could expose the royal: the exact
// moves in the positions where that reasoning is easiest to get wrong, the same from the mailbox
// generator, which makes and tests each move, and perft's last ply, which counts them without
// listing them, giving their number.
#include <gtest/gtest.h>

#include <vector>

#include "compiler/bitboards.h"
#include "test_support.h"

namespace palace::test {
namespace {

// A variant from each back end, loaded once.
struct Backends {
  std::vector<std::shared_ptr<const Variant>> variants;
  explicit Backends(const std::string& path) {
    for (const MoveBackend backend : {MoveBackend::Fastest, MoveBackend::MagicBitboards, MoveBackend::Mailbox})
      variants.push_back(load_variant(path, backend));
  }
};

// The legal moves of `fen`, sorted, from each back end; and their number as perft's last ply
// counts it.
void expect_moves(const Backends& backends, const std::string& fen, const std::string& expected) {
  for (std::size_t i = 0; i < backends.variants.size(); ++i) {
    Position pos(backends.variants[i]);
    pos.set_fen(fen);
    const auto moves = legal_move_texts(pos);
    EXPECT_EQ(join(moves), expected) << fen << " (back end " << i << ")";
    EXPECT_EQ(perft(pos, 1), moves.size()) << fen << " (back end " << i << ")";
  }
}

void expect_chess_moves(const std::string& fen, const std::string& expected) {
  static const Backends chess(variant_path("chess"));
  expect_moves(chess, fen, expected);
}

TEST(BitboardLegality, DecidedFromTheCompiledRules) {
  EXPECT_TRUE(load_variant(variant_path("chess"))->bitboards()->legal_by_pins());
  EXPECT_TRUE(load_variant(variant_path("makruk"))->bitboards()->legal_by_pins());
  // A capture that explodes changes more than its two points: every move is tried on the board.
  EXPECT_FALSE(load_variant(variant_path("atomic"))->bitboards()->legal_by_pins());
  EXPECT_TRUE(load_variant(variant_path("shogi"))->wide_bitboards()->legal_by_pins());
  // A piece put between a cannon and the royal gives check: moves are tested, not found from pins.
  EXPECT_FALSE(load_variant(variant_path("xiangqi"))->wide_bitboards()->legal_by_pins());
  EXPECT_FALSE(load_variant(variant_path("minixiangqi"))->bitboards()->legal_by_pins());
}

TEST(BitboardLegality, AScreenPutOrLeftBeforeACannonChecksItsOwnRoyal) {
  static const Backends xiangqi(variant_path("xiangqi"));
  // The rook may go anywhere but e3, where it would screen the cannon's capture of the king (and the
  // king may not step to d1, facing the other).
  expect_moves(xiangqi, "3k5/9/4c4/9/9/9/9/2R6/9/4K4 w - - 0 1",
               "c3a3 c3b3 c3c1 c3c10 c3c2 c3c4 c3c5 c3c6 c3c7 c3c8 c3c9 c3d3 c3f3 c3g3 c3h3 c3i3 e1e2 e1f1");
  // Two screens: either leaving the file would leave one. The rook moves along it only.
  expect_moves(xiangqi, "3k5/9/4c4/9/4N4/9/4R4/9/9/4K4 w - - 0 1", "e1e2 e1f1 e4e2 e4e3 e4e5");
}

TEST(BitboardLegality, JanggiCannonsNeitherHopOverNorTakeCannons) {
  // The cannon on e5 hops over its own soldier to b5 but may not take the cannon on a5; over the
  // enemy soldier on g5 to h5 and onto the horse on i5; not over the cannon on e4 at all.
  static const Backends janggi(variant_path("janggi"));
  expect_moves(janggi, "3K5/9/9/9/9/c1P1C1p1n/4c4/9/4k4/9 w - - 0 1", "c5b5 c5c4 c5d5 d10d9 d10e10 d10e9 e5b5 e5h5 e5i5");
}

TEST(BitboardLegality, APinAcrossTheWordsOfATwoWordBoard) {
  // Capablanca's 80 points: the rook on e7, the 65th point, pins the chancellor on e2, the 15th,
  // which may slide along the file or take its pinner, but not leap.
  static const Backends capablanca(variant_path("capablanca"));
  expect_moves(capablanca, "4k5/4r5/10/10/10/10/4C5/4K5 w - - 0 1", "e1d1 e1d2 e1f1 e1f2 e2e3 e2e4 e2e5 e2e6 e2e7");
}

TEST(BitboardLegality, APinnedPieceMovesAlongItsPinOnly) {
  // The rook may step up the file or take its pinner; the king steps aside.
  expect_chess_moves("4k3/8/8/8/4r3/8/4R3/4K3 w - - 0 1", "e1d1 e1d2 e1f1 e1f2 e2e3 e2e4");
  // A knight pinned on a diagonal has no move.
  expect_chess_moves("4k3/8/8/1b6/8/3N4/8/5K2 w - - 0 1", "f1e1 f1e2 f1f2 f1g1 f1g2");
  // A pinned pawn may take its pinner, but not push off the diagonal.
  expect_chess_moves("4k3/8/8/8/8/2b5/3P4/4K3 w - - 0 1", "d2c3 e1d1 e1e2 e1f1 e1f2");
}

TEST(BitboardLegality, InDoubleCheckOnlyTheRoyalMoves) {
  // Knight and rook both give check: the rook on h3 may not take the knight, and the king may not
  // step along the first rank away from the rook (f1 is attacked through the king's own point).
  expect_chess_moves("4k3/8/8/8/8/5n1R/8/r3K3 w - - 0 1", "e1e2 e1f2");
}

TEST(BitboardLegality, APinnedPieceCannotAnswerACheck) {
  // The knight could stand between rook and king on b1, but a bishop pins it.
  expect_chess_moves("4k3/8/8/8/1b6/8/3N4/r3K3 w - - 0 1", "e1e2 e1f2");
}

TEST(BitboardLegality, TakingAGhostTriedOnTheBoard) {
  // Taking en passant empties two points of the king's rank and opens the rook's line to it.
  expect_chess_moves("8/8/8/K2pP2r/8/8/8/7k w - d6 0 1", "a5a4 a5a6 a5b4 a5b5 a5b6 e5e6");
  expect_chess_moves("8/8/8/K2pP3/8/8/8/7k w - d6 0 1", "a5a4 a5a6 a5b4 a5b5 a5b6 e5d6 e5e6");
  // Taking en passant the pawn that gives check answers it, though the capture lands elsewhere.
  expect_chess_moves("8/8/8/2k5/3Pp3/8/8/4K3 b - d3 0 1", "c5b4 c5b5 c5b6 c5c4 c5c6 c5d4 c5d5 c5d6 e4d3");
}

TEST(BitboardLegality, CastlingNeitherThroughNorOutOfCheck) {
  // f1 is attacked: no castling on the king's side, and the king may not step to f1 or f2.
  expect_chess_moves("4kr2/8/8/8/8/8/8/R3K2R w KQ - 0 1",
                     "a1a2 a1a3 a1a4 a1a5 a1a6 a1a7 a1a8 a1b1 a1c1 a1d1 e1c1 e1d1 e1d2 e1e2 h1f1 h1g1 h1h2 h1h3 h1h4 "
                     "h1h5 h1h6 h1h7 h1h8");
  // In check: no castling, and nothing can stand between.
  expect_chess_moves("4k3/4r3/8/8/8/8/8/R3K2R w KQ - 0 1", "e1d1 e1d2 e1f1 e1f2");
  // Only the king's path must be safe: the rook may pass an attacked point.
  expect_chess_moves("1r2k3/8/8/8/8/8/8/R3K2R w KQ - 0 1",
                     "a1a2 a1a3 a1a4 a1a5 a1a6 a1a7 a1a8 a1b1 a1c1 a1d1 e1c1 e1d1 e1d2 e1e2 e1f1 e1f2 e1g1 h1f1 h1g1 "
                     "h1h2 h1h3 h1h4 h1h5 h1h6 h1h7 h1h8");
}

TEST(BitboardLegality, DropsOutOfCheckCountedInCheckTried) {
  // Out of check every drop on an empty point is legal, and perft's last ply counts them without
  // listing them (the reference engine's moves, zoo/dobutsu.moves).
  const Backends dobutsu(variant_path("dobutsu"));
  expect_moves(dobutsu, "C1e/c2/2l/E1L[Gg] w - - 1 11", "G@a2 G@b1 G@b2 G@b3 G@b4 G@c3 a1b2 c1b1 c1b2 c1c2");
  // In check a drop must stand between the rook and the king.
  const Backends crazyhouse(variant_path("crazyhouse"));
  expect_moves(crazyhouse, "4r2k/8/8/8/8/8/8/4K3[N] w - - 0 1",
               "N@e2 N@e3 N@e4 N@e5 N@e6 N@e7 e1d1 e1d2 e1f1 e1f2");
}

// Chess with a knight whose leap is blocked by a piece on the point next to it (a Xiangqi horse).
std::string lame_knight_chess() {
  return overlay_path("chess", "pieces:\n  knight:\n    moves:\n      - leap: [1, 2]\n        block: [[0, 1]]\n");
}

TEST(BitboardLegality, APieceOnABlockedLeapsPathIsTriedOnTheBoard) {
  const Backends lame(lame_knight_chess());
  ASSERT_NE(lame.variants[0]->bitboards(), nullptr);
  ASSERT_TRUE(lame.variants[0]->bitboards()->legal_by_pins());
  // The bishop on e3 blocks the knight's leap to f2: it may not move. The king may not go to g3.
  expect_moves(lame, "4k3/8/8/8/4n3/4B3/5K2/8 w - - 0 1", "f2e1 f2e2 f2f1 f2f3 f2g1 f2g2");
  // In check by that leap, the rook answers by standing on the point it passes.
  expect_moves(lame, "4k3/8/8/8/4n3/R7/5K2/8 w - - 0 1", "a3e3 f2e1 f2e2 f2e3 f2f1 f2f3 f2g1 f2g2");
}

}  // namespace
}  // namespace palace::test
