// ends.game_end: a Lua hook ends the game where no other rule says so (scripts/README.md).
#include <gtest/gtest.h>

#include "game/evaluator.h"
#include "game/game.h"
#include "movegen/movegen.h"
#include "test_support.h"

namespace palace::test {
namespace {

std::shared_ptr<const Variant> race(const std::string& which = "knight_race") {
  return load_variant(source_path("tests/hooks/variants/" + which + ".yaml"));
}

TEST(GameEnd, TheHookEndsTheGameInTheVariantsWords) {
  Game game(race());
  game.set_fen("4k3/pppp4/1N6/8/8/8/PPPP4/4K3 w - - 0 1");
  EXPECT_EQ(game.game_state().str(game.variant()), "unfinished");
  game.play("b6a8");
  EXPECT_EQ(game.game_state().str(game.variant()), "white wins: knight home");
  EXPECT_EQ(game.legal_moves().size(), 0u);
  // Decided before any move is generated: the move generator lists none past it.
  Position pos(race());
  pos.set_fen("N3k3/pppp4/8/8/8/8/PPPP4/4K3 b - - 0 1");
  MoveList list;
  EXPECT_FALSE(generate_legal(pos, list));
  EXPECT_EQ(perft(pos, 2), 0u);
}

TEST(GameEnd, TheHookIsAskedForEitherSide) {
  Position pos(race());
  // Pawns keep the material rules out of it: they are asked first (rules/README.md).
  pos.set_fen("4k3/pppp4/8/8/8/8/3n4/4K3 b - - 0 1");
  EXPECT_EQ(evaluate(pos).str(pos.variant()), "unfinished");
  pos.set_fen("4k3/pppp4/8/8/8/8/PPPP4/1n2K3 w - - 0 1");
  EXPECT_EQ(evaluate(pos).str(pos.variant()), "black wins: knight home");
}

TEST(GameEnd, PerftAgreesWithChessWhileNoKnightGetsHome) {
  Position chess(load_variant(variant_path("chess")));
  Position pos(race());
  EXPECT_EQ(perft(pos, 3), perft(chess, 3));
}

TEST(GameEnd, AnAnswerTheRulesCannotReadIsAnError) {
  Position pos(race("knight_race_answers_a_number"));
  try {
    evaluate(pos);
    FAIL() << "a number was read as an end";
  } catch (const Error& e) {
    EXPECT_EQ(std::string(e.what()), "../rule_scripts/knight_race.lua:16: answers_a_number: must return nil while the game "
                                     "goes on, or {winner = SIDE} or {draw = true}, not \"42\"");
  }
  Position other(race("knight_race_names_no_side"));
  try {
    evaluate(other);
    FAIL() << "a winner no side is called was read";
  } catch (const Error& e) {
    EXPECT_EQ(std::string(e.what()), "../rule_scripts/knight_race.lua:18: names_no_side: winner must name a side, not \"green\"");
  }
}

TEST(GameEnd, TheHookMustNameAScript) {
  try {
    load_variant(source_path("tests/loader/bad/game_end_no_script.yaml"));
    FAIL() << "a hook without its script was loaded";
  } catch (const RuleError& e) {
    EXPECT_EQ(std::string(e.what()), source_path("tests/loader/bad/game_end_no_script.yaml") +
                                         ":5:20: ends.game_end.hook: expected script.function naming a script under "
                                         "`scripts:`, got \"race.home\"");
  }
}

}  // namespace
}  // namespace palace::test
