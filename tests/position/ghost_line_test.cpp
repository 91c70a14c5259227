// A leap over several points (tests/rules/variants/triple-step.yaml: b2-b5 skips b3 and b4) leaves
// them all capturable; the FEN names every skipped point, lowest first, and reads back the same.
#include <gtest/gtest.h>

#include "movegen/movegen.h"
#include "test_support.h"

namespace palace::test {
namespace {

std::shared_ptr<const Variant> triple_step() { return load_variant(source_path("tests/rules/variants/triple-step.yaml")); }

std::string fen_error(const std::string& fen) { return fen_error_in(triple_step(), fen); }

TEST(GhostLine, EverySkippedPointIsWrittenAndReadBack) {
  Position pos(triple_step());
  pos.set_fen("4k/5/5/5/2p2/5/1P3/K4 w - - 0 1");
  pos.do_move(Move(pos.variant().board().parse_point("b2"), pos.variant().board().parse_point("b5"), MoveType::LeaveGhost,
                   pos.variant().board().parse_point("b3")));
  const std::string fen = "4k/5/5/1P3/2p2/5/5/K4 b - b3b4 1 1";
  ASSERT_EQ(pos.fen(), fen);
  Position read(triple_step());
  read.set_fen("4k/5/5/1P3/2p2/5/5/K4 b - b4b3 1 1");
  EXPECT_EQ(read.fen(), fen);
  EXPECT_EQ(read.state().hash, pos.state().hash);
  EXPECT_EQ(legal_move_texts(read), legal_move_texts(pos));
}

TEST(GhostLine, SkippedPointsMustRunUpToTheLeaper) {
  // b3 alone: the point beyond it, b4, is empty, so no pawn skipped b3 alone.
  EXPECT_EQ(fen_error("4k/5/5/1P3/5/5/5/K4 b - b3 0 1"), "FEN ghost square: no white piece has just skipped b3");
  // b3 and b5 with nothing between them in the list: b4 was skipped too, or nothing was.
  EXPECT_EQ(fen_error("4k/5/5/5/5/5/5/K4 b - b3b5 0 1"), "FEN ghost square: no white piece has just skipped b3b5");
  EXPECT_EQ(fen_error("4k/1P3/5/5/5/5/5/K4 b - b3b5 0 1"), "FEN ghost square: no white piece has just skipped b3b5");
  EXPECT_EQ(fen_error("4k/5/5/1P3/5/5/5/K4 b - a3b4 0 1"), "FEN ghost square: no white piece has just skipped a3b4");
}

}  // namespace
}  // namespace palace::test
