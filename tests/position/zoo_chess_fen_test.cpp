// FENs of the zoo's chess games (issue 9) in the reference's forms: Berolina's two-point ghost,
// Chess960's castling rights by file or by wing, and a side without a royal.
#include <gtest/gtest.h>

#include "test_support.h"

namespace palace::test {
namespace {

std::string fen_after(const std::string& variant, const std::string& fen) {
  Position pos(load_variant(variant_path(variant)));
  pos.set_fen(fen);
  return pos.fen();
}

std::string fen_error(const std::string& variant, const std::string& fen) { return fen_error_in(load_variant(variant_path(variant)), fen); }

// The pawn that leapt b2-d4 stands diagonally beyond the skipped c3, so both points are written.
TEST(ZooChessFen, BerolinaGhostNamesTheLeaperToo) {
  const std::string fen = "4k3/8/8/8/2Pp4/8/8/4K3 b - d3c4 0 1";
  EXPECT_EQ(fen_after("berolina", fen), fen);
  EXPECT_EQ(fen_after("berolina", "4k3/8/8/8/2Pp4/8/8/4K3 b - c4d3 0 1"), fen);
}

TEST(ZooChessFen, BerolinaGhostNeedsItsLeaper) {
  EXPECT_EQ(fen_error("berolina", "4k3/8/8/8/3p4/8/8/4K3 b - d3c4 0 1"), "FEN ghost square: no white piece has just skipped d3c4");
}

// Shredder letters name the rooks' files; the outermost rook of a wing is written K or Q.
TEST(ZooChessFen, Chess960RightsByFileOrWing) {
  EXPECT_EQ(fen_after("chess960", "1r2k1r1/8/8/8/8/8/8/RR2K1R1 w GBgb - 0 1"), "1r2k1r1/8/8/8/8/8/8/RR2K1R1 w KBkq - 0 1");
  EXPECT_EQ(fen_after("chess960", "qrkbnrbn/pppppppp/8/8/8/8/PPPPPPPP/QRKBNRBN w FBfb - 0 1"),
            "qrkbnrbn/pppppppp/8/8/8/8/PPPPPPPP/QRKBNRBN w KQkq - 0 1");
}

TEST(ZooChessFen, Chess960RightNeedsItsRook) {
  EXPECT_EQ(fen_error("chess960", "1r2k1r1/8/8/8/8/8/8/RR2K1R1 w C - 0 1"), "FEN rights: 'C' needs the king on e1 and the rook on c1");
}

TEST(ZooChessFen, HordeWhiteHasNoKing) {
  EXPECT_EQ(fen_error("horde", "4k3/8/8/8/8/8/8/4K3 w - - 0 1"), "FEN board: white plays without a royal piece but has a king on e1");
  EXPECT_EQ(fen_after("horde", "4k3/8/8/8/8/8/8/4P3 w - - 0 1"), "4k3/8/8/8/8/8/8/4P3 w - - 0 1");
}

}  // namespace
}  // namespace palace::test
