// The ends of a game that need more than the position: repetition, perpetual check, the standoff
// decided by counting, two passes, the move limit, insufficient material, a royal taken.
#include <gtest/gtest.h>

#include "game/evaluator.h"
#include "game_test_support.h"

namespace palace::test {
namespace {

// Both horses out and back twice: the set-up occurs for the third time after eight plies.
const std::string HorsesOutAndBack = "b10c8 b1c3 c8b10 c3b1 b10c8 b1c3 c8b10 c3b1";

// Cho's chariot checks Han's general along rank 2, then rank 1, while the general steps between.
const std::string ChariotChecks = "9/4K4/9/9/9/9/9/9/3k5/R8 w - - 0 1";
const std::string CheckingCycle = "a1a2 d2d1 a2a1 d1d2 a1a2 d2d1 a2a1 d1d2";

// Cho's chariot on i7 can take Han's on i9; then both sides shuffle.
const std::string AfterACapture = "4K4/8r/9/8R/9/9/9/9/3k5/1n7 w - - 2 1";

Termination termination_after(Game& game, const std::string& moves) {
  EXPECT_EQ(play_all(game, moves), "");
  return game.game_state().termination;
}

TEST(GameEndRules, ThirdRepetitionIsADraw) {
  Game game = game_of("janggi");
  ASSERT_EQ(play_all(game, "b10c8 b1c3 c8b10 c3b1 b10c8 b1c3 c8b10"), "");
  EXPECT_EQ(state_of(game), "unfinished");
  ASSERT_EQ(play_all(game, "c3b1"), "");
  EXPECT_EQ(state_of(game), "draw: repetition");
  EXPECT_EQ(game.play("b10c8").reason, "the game is over: draw: repetition");
  EXPECT_TRUE(game.undo());
  EXPECT_EQ(state_of(game), "unfinished");
}

TEST(GameEndRules, VariantsWithoutRepetitionPlayOn) {
  Game casual = game_of("janggi-casual");
  EXPECT_EQ(termination_after(casual, HorsesOutAndBack), Termination::None);
}

TEST(GameEndRules, RepetitionCountsFromTheCapture) {
  // Cho's chariot takes Han's; the position right after the capture is the first of the three.
  Game game = game_of("janggi", AfterACapture);
  ASSERT_EQ(play_all(game, "i7i9 b1c3 e10e9 c3b1 e9e10 b1c3 e10e9 c3b1"), "");
  EXPECT_EQ(state_of(game), "unfinished");
  ASSERT_EQ(play_all(game, "e9e10"), "");
  EXPECT_EQ(state_of(game), "draw: repetition");
}

TEST(GameEndRules, PerpetualCheckLoses) {
  Game game = game_of("janggi", ChariotChecks);
  ASSERT_EQ(play_all(game, "a1a2 d2d1 a2a1 d1d2 a1a2 d2d1 a2a1"), "");
  EXPECT_EQ(state_of(game), "unfinished");
  ASSERT_EQ(play_all(game, "d1d2"), "");
  EXPECT_EQ(state_of(game), "han wins: perpetual check");
}

TEST(GameEndRules, PerpetualCheckNeedsEveryMoveToCheck) {
  // Cho checks on rank 2, then retreats without check while the general steps up and back.
  Game game = game_of("janggi", ChariotChecks);
  ASSERT_EQ(play_all(game, "a1a2 d2d3 a2a1 d3d2 a1a2 d2d3 a2a1"), "");
  EXPECT_EQ(state_of(game), "unfinished");
  ASSERT_EQ(play_all(game, "d3d2"), "");
  EXPECT_EQ(state_of(game), "draw: repetition");
}

TEST(GameEndRules, PerpetualCheckIsOnlyARuleWhereTheVariantSaysSo) {
  Game casual = game_of("janggi-casual", ChariotChecks);
  EXPECT_EQ(termination_after(casual, CheckingCycle), Termination::None);
}

TEST(GameEndRules, StandoffIsDecidedByCounting) {
  // Chariot and soldier each: 15 points to 15, and Han's 1.5 for moving second decides.
  Game game = game_of("janggi-modern", "R8/4K4/9/4P4/9/9/p8/9/4k4/8r w - - 0 1");
  ASSERT_EQ(play_all(game, "e7d7"), "");  // the generals now face each other
  EXPECT_EQ(state_of(game), "unfinished");
  EXPECT_EQ(game.play("a4a5").reason, "the generals face each other: break the standoff or pass");
  ASSERT_TRUE(game.pass());
  EXPECT_EQ(state_of(game), "han wins: standoff, 16.5 to 15 points");
  EXPECT_DOUBLE_EQ(points(game.position(), First), 15);
  EXPECT_DOUBLE_EQ(points(game.position(), Second), 16.5);

  // A horse more for Cho outweighs the bonus.
  game.set_fen("RN7/4K4/9/4P4/9/9/p8/9/4k4/8r w - - 0 1");
  ASSERT_EQ(play_all(game, "e7d7 pass"), "");
  EXPECT_EQ(state_of(game), "cho wins: standoff, 20 to 16.5 points");
}

TEST(GameEndRules, StandoffBrokenInTimePlaysOn) {
  Game game = game_of("janggi-modern", "R8/4K4/9/4P4/9/9/p8/9/4k4/8r w - - 0 1");
  ASSERT_EQ(play_all(game, "e7d7 e2d2"), "");
  EXPECT_EQ(state_of(game), "unfinished");
}

TEST(GameEndRules, TwoPassesInARow) {
  Game casual = game_of("janggi-casual");
  ASSERT_EQ(play_all(casual, "pass pass"), "");
  EXPECT_EQ(state_of(casual), "draw: both sides passed");
  Game modern = game_of("janggi-modern");
  ASSERT_EQ(play_all(modern, "pass pass"), "");
  EXPECT_EQ(state_of(modern), "han wins: both sides passed, 73.5 to 72 points");
  // A move between two passes does not end the game.
  Game game = game_of("janggi-casual");
  ASSERT_EQ(play_all(game, "pass b1c3 pass"), "");
  EXPECT_EQ(state_of(game), "unfinished");
}

TEST(GameEndRules, RoyalCaptured) {
  // Han's chariot stands where Cho's general was.
  Game game = game_of("janggi-modern", "9/4r4/9/P8/9/9/9/9/4k4/9 w - - 0 1");
  EXPECT_EQ(state_of(game), "han wins: royal captured");
}

// A variant's rules changed in place, for rules the shipped Janggi files do not use.
Game janggi_with(void (*change)(EndRules&), const std::string& base = "janggi") {
  RuleSet rules = load_rules(variant_path(base));
  change(rules.ends);
  return Game(std::make_shared<const Variant>(std::move(rules)));
}

TEST(GameEndRules, MoveLimit) {
  Game game = janggi_with([](EndRules& r) { r.get<MoveLimit>().plies = 4; });
  ASSERT_EQ(play_all(game, "b10c8 b1c3 c8b10"), "");
  EXPECT_EQ(state_of(game), "unfinished");
  ASSERT_EQ(play_all(game, "c3b1"), "");
  EXPECT_EQ(state_of(game), "draw: move limit");
}

TEST(GameEndRules, MoveLimitCountsFromTheLastCapture) {
  Game game = janggi_with([](EndRules& r) { r.get<MoveLimit>().plies = 3; });
  game.set_fen(AfterACapture);  // two quiet plies already
  ASSERT_EQ(play_all(game, "i7i9 b1c3 e10e9"), "");
  EXPECT_EQ(state_of(game), "unfinished");
  ASSERT_EQ(play_all(game, "c3b1"), "");
  EXPECT_EQ(state_of(game), "draw: move limit");
}

TEST(GameEndRules, InsufficientMaterial) {
  // Generals and guards never leave their palaces, so neither side can ever give check.
  const std::string guards_only = "3A5/4K4/9/9/9/9/9/9/3k5/3a1a3 w - - 0 1";
  Game casual = game_of("janggi-casual", guards_only);
  EXPECT_EQ(state_of(casual), "draw: insufficient material");
  casual.set_fen("3A5/4K4/9/9/9/9/9/9/3k5/3a1ap2 w - - 0 1");  // Han's soldier could still mate
  EXPECT_EQ(state_of(casual), "unfinished");
  Game formal = game_of("janggi", guards_only);
  EXPECT_EQ(state_of(formal), "unfinished");
}

TEST(GameEndRules, RepetitionByCounting) {
  Game game = janggi_with([](EndRules& r) { r.get<Repetition>().by_counting = true; });
  ASSERT_EQ(play_all(game, HorsesOutAndBack), "");
  EXPECT_EQ(state_of(game), "han wins: repetition, 73.5 to 72 points");
}

}  // namespace
}  // namespace palace::test
