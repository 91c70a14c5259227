// The new games' results from the reference engine (tests/vectors/reference/zoo/, its README gives the
// notation, and tests/vectors/current/ in the same notation), read in place: perft counts, exact legal move sets with the in-check flag, and the
// result for the side to move where the game is over.
#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <string_view>

#include "game/evaluator.h"
#include "movegen/reference_positions.h"
#include "reference_perft.h"
#include "test_support.h"

namespace palace::test {
namespace {

std::string result_for_side_to_move(const Position& pos, const Verdict& end) {
  if (end.winner) return *end.winner == pos.side_to_move() ? "win" : "loss";
  if (end.finished()) return "draw";
  return "unfinished";
}

class ZooVectors : public ::testing::TestWithParam<std::string> {
 protected:
  std::shared_ptr<const Variant> variant() const { return load_variant(variant_path(GetParam())); }
  std::string zoo_file(const std::string& suffix) const { return vector_file(GetParam(), suffix); }
};

TEST_P(ZooVectors, StartPositionPerft) { check_perft_file(variant(), zoo_file(".startpos.perft")); }

TEST_P(ZooVectors, RandomPositionPerft) { check_perft_file(variant(), zoo_file(".perft")); }

TEST_P(ZooVectors, LegalMoveSets) { EXPECT_GT(check_move_sets_file(variant(), zoo_file(".moves")), 0u); }

TEST_P(ZooVectors, ResultInTerminalPositions) {
  const auto v = variant();
  for (const auto& line : data_lines(vectors_path(zoo_file(".terminal")))) {
    const auto fields = split(line, '|');
    Position pos(v);
    pos.set_fen(fields.at(0));
    EXPECT_EQ(in_check(pos), fields.at(1) == "1") << fields[0];
    EXPECT_EQ(result_for_side_to_move(pos, evaluate(pos)), fields.at(2)) << fields[0];
  }
}

// Each group of games instantiates the suite as its variants/NAME.yaml files land (issue 9).
GTEST_ALLOW_UNINSTANTIATED_PARAMETERIZED_TEST(ZooVectors);
INSTANTIATE_TEST_SUITE_P(ZooChess, ZooVectors, ::testing::Values("makruk", "shatranj", "capablanca", "grand", "chess960", "berolina", "horde"), VariantParamName());
INSTANTIATE_TEST_SUITE_P(ZooWin, ZooVectors, ::testing::Values("king-of-the-hill", "three-check", "minixiangqi", "manchu", "atomic", "antichess"), VariantParamName());
INSTANTIATE_TEST_SUITE_P(ZooHands, ZooVectors, ::testing::Values("crazyhouse", "minishogi", "shogi", "dobutsu"), VariantParamName());

// Palace's own vectors (tests/vectors/current/): a game is checked once its files are there.
std::vector<std::string> games_with_current_vectors() {
  std::vector<std::string> games;
  for (const auto& entry : std::filesystem::directory_iterator(vectors_path("../current")))
    if (const std::string file = entry.path().filename().string(); file.ends_with(".startpos.perft"))
      games.push_back(file.substr(0, file.size() - std::string_view(".startpos.perft").size()));
  std::sort(games.begin(), games.end());
  return games;
}

INSTANTIATE_TEST_SUITE_P(ZooCurrent, ZooVectors, ::testing::ValuesIn(games_with_current_vectors()), VariantParamName());

}  // namespace
}  // namespace palace::test
