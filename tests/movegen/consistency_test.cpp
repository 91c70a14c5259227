// Make and unmake keep the board, the piece lists, the royals and the hash in agreement: checked
// after every move and every undo of a perft over the reference positions of every variant.
#include <gtest/gtest.h>

#include "test_support.h"

namespace palace::test {
namespace {

// The number of leaves, failing the test at the first position that is not consistent.
std::uint64_t checked_perft(Position& pos, int depth) {
  if (depth == 0) return 1;
  MoveList list;
  generate_legal(pos, list);
  std::uint64_t nodes = 0;
  for (const Move m : list) {
    const std::uint64_t hash = pos.state().hash;
    pos.do_move(m);
    EXPECT_TRUE(pos.is_consistent()) << pos.fen() << " after " << pos.move_text(m);
    nodes += checked_perft(pos, depth - 1);
    pos.undo_move();
    EXPECT_TRUE(pos.is_consistent()) << pos.fen() << " after undoing " << pos.move_text(m);
    EXPECT_EQ(pos.state().hash, hash) << pos.fen();
    if (::testing::Test::HasFailure()) return nodes;
  }
  return nodes;
}

class Consistency : public ::testing::TestWithParam<std::string> {};

TEST_P(Consistency, EveryMakeAndUnmakeOfAPerft) {
  const auto variant = load_variant(variant_path(GetParam()));
  const auto lines = data_lines(vectors_path(GetParam() + ".perft"));
  ASSERT_FALSE(lines.empty());
  for (std::size_t i = 0; i < lines.size() && i < 25; ++i) {
    Position pos(variant);
    pos.set_fen(split(lines[i], ';').at(0));
    ASSERT_TRUE(pos.is_consistent()) << lines[i];
    const std::uint64_t expected = perft(pos, 2);
    EXPECT_EQ(checked_perft(pos, 2), expected) << lines[i];
  }
}

INSTANTIATE_TEST_SUITE_P(AllVariants, Consistency, ::testing::Values("janggi", "janggi-casual", "janggi-modern", "xiangqi", "chess"), VariantParamName());

TEST(Consistency, CastlingOntoThePartnersStart) {
  Position pos(load_variant(source_path("tests/repro/c960.yaml")));
  pos.set_fen("r4kr1/8/8/8/8/8/8/R4KR1 w KQkq - 0 1");
  EXPECT_GT(checked_perft(pos, 3), 0u);
}

}  // namespace
}  // namespace palace::test
