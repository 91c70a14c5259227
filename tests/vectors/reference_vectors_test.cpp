// The reference engine's results in tests/vectors/reference/, read from the copy: perft counts, exact legal
// move sets with the in-check flag, and positions where the side to move has no move left.
#include <gtest/gtest.h>

#include "reference_perft.h"
#include "test_support.h"

namespace palace::test {
namespace {

class ReferenceVectors : public ::testing::TestWithParam<std::string> {
 protected:
  std::shared_ptr<const Variant> variant() const { return load_variant(variant_path(GetParam())); }
};

TEST_P(ReferenceVectors, StartPositionPerft) { check_perft_file(variant(), GetParam() + ".startpos.perft"); }

TEST_P(ReferenceVectors, RandomPositionPerft) { check_perft_file(variant(), GetParam() + ".perft"); }

TEST_P(ReferenceVectors, LegalMoveSets) {
  // 400 positions a file, but 200 in janggi-kakao's.
  EXPECT_EQ(check_move_sets_file(variant(), GetParam() + ".moves"), GetParam() == "janggi-kakao" ? 200u : 400u);
}

TEST_P(ReferenceVectors, NoMoveLeftInTerminalPositions) {
  const auto v = variant();
  const auto lines = data_lines(vectors_path(GetParam() + ".terminal"));
  ASSERT_FALSE(lines.empty());
  for (const auto& line : lines) {
    const auto fields = split(line, '|');
    Position pos(v);
    pos.set_fen(fields.at(0));
    EXPECT_EQ(in_check(pos), fields.at(1) == "1") << fields[0];
    EXPECT_EQ(join(legal_move_texts(pos)), "") << fields[0];
  }
}

INSTANTIATE_TEST_SUITE_P(AllVariants, ReferenceVectors, ::testing::Values("janggi", "janggi-casual", "janggi-modern", "xiangqi", "chess", "janggi-kakao"),
                         VariantParamName());

}  // namespace
}  // namespace palace::test
