// The search's lazy generation: the moves generate_to_try offers that pass the LegalityTest are
// exactly generate_legal's, for every game and both kinds of list, in the reference positions and
// one ply on (mates, stalemates and positions a rule has ended included).
#include <gtest/gtest.h>

#include <algorithm>
#include <vector>

#include "movegen/reference_positions.h"

namespace palace::test {
namespace {

std::vector<std::uint32_t> sorted(const MoveList& list) {
  std::vector<std::uint32_t> raw;
  for (const Move m : list) raw.push_back(m.raw());
  std::sort(raw.begin(), raw.end());
  return raw;
}

std::vector<std::uint32_t> tried_and_legal(Position& pos, Keep keep) {
  MoveList list;
  const bool checked = in_check(pos);
  if (!generate_to_try(pos, list, keep, checked)) return sorted(list);
  const LegalityTest legal(pos, checked);
  MoveList kept;
  for (const Move m : list)
    if (legal(m)) kept.add(m);
  return sorted(kept);
}

class MovesToTry : public ::testing::TestWithParam<std::string> {};

TEST_P(MovesToTry, ThoseThatPassTheTestAreTheLegalMoves) {
  const auto variant = load_variant(variant_path(GetParam()));
  const std::vector<std::string> fens = reference_fens(GetParam());
  ASSERT_FALSE(fens.empty());
  int positions = 0;
  auto check = [&](Position& pos) {
    for (const Keep keep : {Keep::All, Keep::Captures}) {
      MoveList legal;
      generate_legal(pos, legal, keep);
      EXPECT_EQ(tried_and_legal(pos, keep), sorted(legal)) << pos.fen() << (keep == Keep::All ? " all" : " captures");
    }
    ++positions;
  };
  for_each_position_and_reply(variant, fens, check);
  EXPECT_GT(positions, 100);
}

INSTANTIATE_TEST_SUITE_P(
    AllGames, MovesToTry,
    ::testing::Values("janggi", "janggi-casual", "janggi-modern", "xiangqi", "chess", "makruk", "shatranj", "capablanca",
                      "grand", "chess960", "berolina", "horde", "king-of-the-hill", "three-check", "minixiangqi",
                      "manchu", "atomic", "antichess", "crazyhouse", "minishogi", "shogi", "dobutsu", "extinction",
                      "kinglet", "threekings"),
    VariantParamName());

// Hooks that allow, add and change moves: the test asks them as generate_legal does.
TEST(MovesToTry, WithHooksThatAddMovesAndChangeTheBoard) {
  Position pos(load_variant(source_path("tests/rules/variants/andernach-guards.yaml")));
  for (const char* fen : {"4k3/7p/8/8/8/8/7P/1N2K3 w - - 0 1", "4k3/8/8/4n3/4P3/8/8/4K3 w - - 0 1",
                          "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1"}) {
    pos.set_fen(fen);
    MoveList legal;
    generate_legal(pos, legal);
    ASSERT_GT(legal.size, 0) << fen;
    EXPECT_EQ(tried_and_legal(pos, Keep::All), sorted(legal)) << fen;
  }
}

}  // namespace
}  // namespace palace::test
