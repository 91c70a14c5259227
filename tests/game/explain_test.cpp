// Refusal reasons, word for word, each on a real position; and, over the reference positions, an
// explanation for exactly the requests movegen refuses.
#include <gtest/gtest.h>

#include <algorithm>

#include "game/explain.h"
#include "game_test_support.h"

namespace palace::test {
namespace {

// Start position with the left cannon moved up to b9 (in front of the horse), or over to a8.
const std::string CannonOnB9 = "RNBA1ABNR/1C2K4/7C1/P1P1P1P1P/9/9/p1p1p1p1p/1c5c1/4k4/rnba1abnr w - - 0 1";
const std::string CannonOnA8 = "RNBA1ABNR/4K4/C6C1/P1P1P1P1P/9/9/p1p1p1p1p/1c5c1/4k4/rnba1abnr w - - 0 1";

// The reason a move is refused, checked to be the same from make_move, play and explain.
std::string refusal(Game& game, const std::string& from, const std::string& to) {
  const std::string fen = game.fen();
  const std::string explained = game.explain(sq(game, from), sq(game, to));
  EXPECT_FALSE(game.make_move(sq(game, from), sq(game, to))) << from << to;
  EXPECT_EQ(game.last_refusal(), explained);
  EXPECT_EQ(game.fen(), fen);
  return explained;
}

TEST(ExplainRefusals, Turn) {
  Game game = game_of("janggi");
  EXPECT_EQ(refusal(game, "b1", "c3"), "it is Cho's turn");
  ASSERT_TRUE(game.play("b10c8").accepted);
  EXPECT_EQ(refusal(game, "c8", "e7"), "it is Han's turn");
}

TEST(ExplainRefusals, EmptyPoint) {
  Game game = game_of("janggi");
  EXPECT_EQ(refusal(game, "e5", "e6"), "there is no piece on e5");
}

TEST(ExplainRefusals, LeapBlocked) {
  Game game = game_of("janggi", CannonOnB9);
  EXPECT_EQ(refusal(game, "b10", "c8"), "horse on b10 is blocked at b9");
  game.set_fen(JanggiStart);
  EXPECT_EQ(refusal(game, "b10", "d9"), "horse on b10 is blocked at c10");
  // An elephant passes two points; the first occupied one is named.
  EXPECT_EQ(refusal(game, "c10", "a7"), "elephant on c10 is blocked at b8");
}

TEST(ExplainRefusals, SlideBlocked) {
  Game game = game_of("janggi", CannonOnA8);
  EXPECT_EQ(refusal(game, "a10", "a6"), "chariot on a10 is blocked at a8");
}

TEST(ExplainRefusals, HopRules) {
  Game game = game_of("janggi");
  EXPECT_EQ(refusal(game, "b8", "b2"), "a cannon cannot jump over a cannon");
  EXPECT_EQ(refusal(game, "b8", "b7"), "the cannon on b8 needs exactly one piece to jump over");
  EXPECT_EQ(refusal(game, "b8", "b5"), "the cannon on b8 needs exactly one piece to jump over");
  // With a soldier on b7 as the screen, the cannon on b3 is in reach but may not be taken.
  ASSERT_EQ(play_all(game, "c7b7 a4a5"), "");
  EXPECT_EQ(refusal(game, "b8", "b3"), "a cannon cannot capture a cannon");
  EXPECT_TRUE(game.make_move(sq(game, "b8"), sq(game, "b4")));
}

TEST(ExplainRefusals, Zone) {
  Game game = game_of("janggi");
  EXPECT_EQ(refusal(game, "d10", "c10"), "the guard must stay in its palace");
  game.set_fen("9/3AK4/9/9/9/9/9/9/3k5/9 w - - 0 1");
  EXPECT_EQ(refusal(game, "d9", "c9"), "the guard must stay in its palace");
  EXPECT_EQ(refusal(game, "e9", "e7"), "a general cannot move from e9 to e7");
}

TEST(ExplainRefusals, NoPartReaches) {
  Game game = game_of("janggi");
  EXPECT_EQ(refusal(game, "b10", "b7"), "a horse cannot move from b10 to b7");
  EXPECT_EQ(refusal(game, "c10", "c9"), "an elephant cannot move from c10 to c9");
  EXPECT_EQ(refusal(game, "d10", "e9"), "your own general stands on e9");
  // Off the palace's diagonal lines a guard has no diagonal step.
  game.set_fen("4A4/3K5/9/9/9/9/9/9/3k5/9 w - - 0 1");
  EXPECT_EQ(refusal(game, "e10", "f9"), "a guard cannot move from e10 to f9");
}

TEST(ExplainRefusals, OwnPiece) {
  Game game = game_of("janggi");
  EXPECT_EQ(refusal(game, "c10", "e7"), "your own soldier stands on e7");
}

TEST(ExplainRefusals, LeavesRoyalInCheck) {
  Game game = game_of("janggi", "9/4K4/4N4/9/9/9/9/9/3k5/4r4 w - - 0 1");
  EXPECT_EQ(refusal(game, "e8", "c7"), "that leaves your general in check from the chariot on e1");
  // Still in check after a move that does not answer it.
  game.set_fen("9/4K4/9/P8/9/9/9/9/3k5/4r4 w - - 0 1");
  EXPECT_EQ(refusal(game, "a7", "a6"), "that leaves your general in check from the chariot on e1");
}

TEST(ExplainRefusals, FacingRoyals) {
  Game formal = game_of("janggi", "9/4K4/9/4P4/9/9/9/9/4k4/9 w - - 0 1");
  EXPECT_EQ(refusal(formal, "e7", "d7"), "the generals would face each other on an open file");
  Game modern = game_of("janggi-modern", "9/4K4/9/P8/9/9/9/9/4k4/9 w - - 0 1");
  EXPECT_EQ(refusal(modern, "a7", "a6"), "the generals face each other: break the standoff or pass");
  EXPECT_TRUE(modern.make_move(sq(modern, "e9"), sq(modern, "d9")));
}

TEST(ExplainRefusals, Passing) {
  Game formal = game_of("janggi");
  EXPECT_FALSE(formal.pass());
  EXPECT_EQ(formal.last_refusal(), "passing is not allowed in this variant");
  EXPECT_EQ(formal.explain(sq(formal, "e9"), sq(formal, "e9")), "passing is not allowed in this variant");
  Game casual = game_of("janggi-casual", "9/4K4/9/9/9/9/9/9/3k5/4r4 w - - 0 1");
  EXPECT_FALSE(casual.pass());
  EXPECT_EQ(casual.last_refusal(), "you cannot pass while in check");
  // In a standoff a player may pass even in check.
  Game modern = game_of("janggi-modern", "9/r3K4/9/9/9/9/9/9/4k4/9 w - - 0 1");
  EXPECT_TRUE(modern.is_in_check(First));
  EXPECT_EQ(modern.explain(sq(modern, "e9"), sq(modern, "e9")), "");
  EXPECT_TRUE(modern.pass());
}

TEST(ExplainRefusals, GameOver) {
  Game game = game_of("janggi", "4K4/7R1/7C1/P7P/9/p1p2R3/8p/n4kr2/5n3/r1ba1a3 b - - 0 27");
  EXPECT_EQ(refusal(game, "f3", "e3"), "the game is over: cho wins: checkmate");
  EXPECT_FALSE(game.pass());
  EXPECT_EQ(game.last_refusal(), "the game is over: cho wins: checkmate");
}

TEST(ExplainRefusals, NotAMove) {
  Game casual = game_of("janggi-casual");
  EXPECT_EQ(casual.play("xyz").reason, "\"xyz\" is not a move (expected squares like b10c8, or pass)");
  Game formal = game_of("janggi");
  EXPECT_EQ(formal.play("xyz").reason, "\"xyz\" is not a move (expected squares like b10c8)");
  EXPECT_EQ(formal.move_example(), "b10c8");
}

TEST(ExplainRefusals, RuntimeHook) {
  // The hook tests' house rule: no sideways soldier step while the enemy general holds its centre.
  Game game(load_variant(source_path("tests/hooks/variants/house_rules.yaml")));
  EXPECT_EQ(refusal(game, "a7", "b7"), "house.soldier_move does not allow that move of the soldier on a7");
  EXPECT_TRUE(game.play("a7a6").accepted);
}

TEST(ExplainRefusals, Articles) {
  EXPECT_EQ(with_article("elephant"), "an elephant");
  EXPECT_EQ(with_article("horse"), "a horse");
  EXPECT_EQ(with_article("guard"), "a guard");
}

// Over the reference positions: every request for a piece of the side to move is either legal
// with no explanation, or refused with a specific one (never the catch-all).
class ExplainAgreesWithMovegen : public ::testing::TestWithParam<std::string> {};

TEST_P(ExplainAgreesWithMovegen, OnReferencePositions) {
  constexpr std::size_t Positions = 40;
  const auto variant = load_variant(variant_path(GetParam()));
  const auto lines = data_lines(vectors_path(GetParam() + ".moves"));
  ASSERT_GE(lines.size(), Positions);
  for (std::size_t n = 0; n < Positions; ++n) {
    Position pos(variant);
    pos.set_fen(split(lines[n], '|').at(0));
    MoveList legal;
    generate_legal(pos, legal);
    const std::string fen = pos.fen();
    for (int i = 0; i < pos.piece_count(pos.side_to_move()); ++i) {
      const Point from = pos.piece_square(pos.side_to_move(), i);
      for (Point to = Point(0); to < variant->squares(); ++to) {
        if (to == from) continue;
        // Asked without a promotion: legal only where the move may end without one.
        const bool is_legal = std::any_of(legal.begin(), legal.end(), [&](Move m) {
          return !m.is_pass() && m.from() == from && m.to() == to && m.promotion_kind() < 0;
        });
        const std::string why = explain_move(pos, from, to);
        const std::string where = pos.fen() + " " + pos.move_text(Move(from, to));
        EXPECT_EQ(why.empty(), is_legal) << where << ": " << why;
        EXPECT_NE(why, UnexplainedRefusal) << where;
      }
    }
    for (const Move m : legal) {
      if (m.promotion_kind() >= 0) {
        EXPECT_EQ(explain_move(pos, m.from(), m.to(), m.promotion_kind()), "") << fen;
      }
    }
    EXPECT_EQ(pos.fen(), fen);
    const bool may_pass = std::any_of(legal.begin(), legal.end(), [](Move m) { return m.is_pass(); });
    EXPECT_EQ(explain_pass(pos).empty(), may_pass) << fen;
  }
}

INSTANTIATE_TEST_SUITE_P(ExplainVariants, ExplainAgreesWithMovegen,
                         ::testing::Values("janggi", "janggi-casual", "janggi-modern"), [](const auto& info) {
                           std::string name = info.param;
                           std::replace(name.begin(), name.end(), '-', '_');
                           return name;
                         });

}  // namespace
}  // namespace palace::test
