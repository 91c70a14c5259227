// Every `NAME.terminal` line of tests/vectors/reference/: the side to move has no legal move left, and the
// game state must give it the reference engine's result (loss, draw or win) for the right reason.
#include <gtest/gtest.h>

#include <algorithm>

#include "game_test_support.h"

namespace palace::test {
namespace {

// Variants whose terminal vectors are checked; a new variant is one more name here.
const std::string TerminalVariants[] = {"janggi", "janggi-casual", "janggi-modern", "xiangqi", "chess", "janggi-kakao"};

class TerminalVectors : public ::testing::TestWithParam<std::string> {};

TEST_P(TerminalVectors, ResultForTheSideToMove) {
  Game game = game_of(GetParam());
  const auto lines = data_lines(vectors_path(GetParam() + ".terminal"));
  ASSERT_FALSE(lines.empty());
  for (const auto& line : lines) {
    const auto fields = split(line, '|');
    ASSERT_EQ(fields.size(), 3u) << line;
    game.set_fen(fields[0]);
    const Side us = game.side_to_move();
    const bool checked = fields[1] == "1";
    EXPECT_EQ(game.is_in_check(us), checked) << line;

    const Verdict& state = game.game_state();
    const std::string& result = fields[2];
    if (result == "loss") {
      EXPECT_EQ(state.winner, opponent(us)) << line;
    } else if (result == "win") {
      EXPECT_EQ(state.winner, us) << line;
    } else {
      ASSERT_EQ(result, "draw") << line;
      EXPECT_TRUE(state.finished() && !state.winner) << line;
    }
    const bool royal_missing = game.position().royal(us) == NoPoint;
    EXPECT_EQ(state.termination, checked ? Termination::Checkmate : royal_missing ? Termination::RoyalCaptured : Termination::Stalemate) << line;

    // A finished game refuses every move, with the result as the reason.
    EXPECT_TRUE(game.legal_moves().empty()) << line;
    EXPECT_FALSE(game.pass()) << line;
    EXPECT_EQ(game.last_refusal(), "the game is over: " + state.str(game.variant())) << line;
  }
}

INSTANTIATE_TEST_SUITE_P(TerminalFiles, TerminalVectors, ::testing::ValuesIn(TerminalVariants), VariantParamName());

}  // namespace
}  // namespace palace::test
