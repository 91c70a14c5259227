// In every position of tests/vectors/reference/NAME.moves the engine returns one of the legal moves the
// reference engine lists: at depth 1 and 2 everywhere, at depth 3 in every tenth position. The
// reference plays on after a royal is taken in a standoff; there the game is over for Palace and
// the engine answers with no move, in the positions counted here.
#include <gtest/gtest.h>

#include <algorithm>

#include "game/evaluator.h"
#include "search/search.h"
#include "test_support.h"

namespace palace::test {
namespace {

struct MoveVectors {
  std::string variant;
  int finished;  // positions whose game is already over by Palace's rules
};
const MoveVectors MoveVariants[] = {{"janggi", 0}, {"janggi-casual", 0}, {"janggi-modern", 1}, {"xiangqi", 0}, {"chess", 0}};

void PrintTo(const MoveVectors& v, std::ostream* out) { *out << v.variant; }

class SearchVectors : public ::testing::TestWithParam<MoveVectors> {};

TEST_P(SearchVectors, BestMoveIsLegal) {
  const auto variant = load_variant(variant_path(GetParam().variant));
  search::Searcher searcher(variant, 4);
  Position pos(variant);
  const auto lines = data_lines(vectors_path(GetParam().variant + ".moves"));
  ASSERT_EQ(lines.size(), 400u);
  int index = 0, finished = 0;
  for (const auto& line : lines) {
    const auto fields = split(line, '|');
    ASSERT_EQ(fields.size(), 3u) << line;
    pos.set_fen(fields[0]);
    const std::vector<std::string> legal = split(fields[2], ' ');
    if (evaluate(pos).finished()) {
      ++finished;
      EXPECT_FALSE(searcher.search(pos, {.depth = 1})) << line;
      continue;
    }
    const int deepest = index++ % 10 == 0 ? 3 : 2;
    for (int depth = 1; depth <= deepest; ++depth) {
      const Move best = searcher.search(pos, {.depth = depth});
      ASSERT_TRUE(best) << line << " at depth " << depth;
      EXPECT_TRUE(std::binary_search(legal.begin(), legal.end(), pos.move_text(best)))
          << pos.move_text(best) << " in " << line << " at depth " << depth;
    }
  }
  EXPECT_EQ(finished, GetParam().finished);
}

INSTANTIATE_TEST_SUITE_P(Variants, SearchVectors, ::testing::ValuesIn(MoveVariants), [](const auto& info) {
  return VariantParamName()(::testing::TestParamInfo<std::string>(info.param.variant, info.index));
});

}  // namespace
}  // namespace palace::test
