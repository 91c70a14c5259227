// The Game interface: moves by squares and by text, refusals that change nothing, undo, history,
// check for either side, legal moves and destinations.
#include <gtest/gtest.h>

#include "game_test_support.h"

namespace palace::test {
namespace {

// Everything a refusal must leave as it was.
struct Snapshot {
  std::string fen;
  std::uint64_t hash;
  std::vector<std::string> history;
  int plies;
  bool operator==(const Snapshot&) const = default;
};

Snapshot snapshot(const Game& game) {
  return {game.fen(), game.position().state().hash, game.history_texts(), game.position().plies_recorded()};
}

TEST(GameMoves, StartsAtTheSetUp) {
  Game game = game_of("janggi");
  EXPECT_EQ(game.fen(), JanggiStart);
  EXPECT_EQ(game.side_to_move(), 0);
  EXPECT_TRUE(game.history().empty());
  EXPECT_FALSE(game.undo());
  EXPECT_EQ(state_of(game), "unfinished");
  Position pos(load_variant(variant_path("janggi")));
  EXPECT_EQ(game.legal_moves().size(), legal_move_texts(pos).size());
}

TEST(GameMoves, MakeMoveAndUndo) {
  Game game = game_of("janggi");
  const Snapshot before = snapshot(game);
  ASSERT_TRUE(game.make_move(sq(game, "b10"), sq(game, "c8")));
  EXPECT_EQ(game.last_refusal(), "");
  EXPECT_EQ(game.side_to_move(), 1);
  EXPECT_EQ(game.fen(), "R1BA1ABNR/4K4/1CN4C1/P1P1P1P1P/9/9/p1p1p1p1p/1c5c1/4k4/rnba1abnr b - - 1 1");
  ASSERT_TRUE(game.play("b1c3").accepted);
  EXPECT_EQ(game.history_texts(), (std::vector<std::string>{"b10c8", "b1c3"}));
  EXPECT_TRUE(game.undo());
  EXPECT_TRUE(game.undo());
  EXPECT_FALSE(game.undo());
  EXPECT_EQ(snapshot(game), before);
}

TEST(GameMoves, RefusalsLeaveEverythingUnchanged) {
  Game game = game_of("janggi");
  ASSERT_TRUE(game.play("b10c8").accepted);
  const Snapshot before = snapshot(game);
  struct Case {
    std::string text, reason;
  };
  const Case cases[] = {
      {"c8e7", "it is Han's turn"},
      // Cho's moves, in coordinates and in Kakao's numeric notation, on Han's turn.
      {"c7c6", "it is Han's turn: \"c7c6\" is a move of Cho"},
      {"79卒78", "it is Han's turn: \"79卒78\" is a move of Cho"},
      {"e5e6", "there is no piece on e5"},
      {"b1b4", "a horse cannot move from b1 to b4"},
      {"pass", "passing is not allowed in this variant"},
      {"xyz", "\"xyz\" is not a move (expected squares like b10c8)"},
      {"b1", "\"b1\" is not a move (expected squares like b10c8)"},
      {"b1c3x", "\"b1c3x\" is not a move (expected squares like b10c8)"},
      {"", "\"\" is not a move (expected squares like b10c8)"},
      {"1234", "\"1234\" is not a move (expected squares like b10c8)"},
      {"b10c", "\"b10c\" is not a move (expected squares like b10c8)"},
      {"a11a12", "\"a11\" is not a point of this board"},
      {"b1c3r", "a horse does not promote on c3"},
  };
  for (const Case& c : cases) {
    const MoveVerdict v = game.play(c.text);
    EXPECT_FALSE(v.accepted) << c.text;
    EXPECT_EQ(v.reason, c.reason) << c.text;
    EXPECT_EQ(game.last_refusal(), c.reason) << c.text;
    EXPECT_EQ(snapshot(game), before) << c.text;
  }
  EXPECT_FALSE(game.make_move(Point(200), sq(game, "c3")));
  EXPECT_EQ(game.last_refusal(), "that is not a point of this board");
  EXPECT_FALSE(game.make_move(sq(game, "b1"), NoPoint));
  EXPECT_FALSE(game.pass());
  EXPECT_EQ(snapshot(game), before);
}

TEST(GameMoves, AMoveOfTheOtherSideIsRefusedForWhoseTurnItIs) {
  Game game = game_of("chess");
  EXPECT_EQ(game.play("e5").reason, "it is White's turn: \"e5\" is a move of Black");
  EXPECT_EQ(game.play("Nf6").reason, "it is White's turn: \"Nf6\" is a move of Black");
  EXPECT_EQ(game.play("e6").reason, "it is White's turn: \"e6\" is a move of Black");
  ASSERT_TRUE(game.play("e4").accepted);
  // Neither side's move: why this side's cannot be.
  EXPECT_EQ(game.play("e4").reason, "a pawn cannot move from e7 to e4");
}

TEST(GameMoves, TextIsReadLeniently) {
  Game game = game_of("janggi");
  EXPECT_TRUE(game.play(" B10C8 ").accepted);
  EXPECT_EQ(game.history_texts(), std::vector<std::string>{"b10c8"});
}

TEST(GameMoves, SameSquareTwiceIsAPass) {
  Game game = game_of("janggi-casual");
  const std::string fen = game.fen();
  ASSERT_TRUE(game.make_move(sq(game, "e9"), sq(game, "e9")));
  EXPECT_EQ(game.history_texts(), std::vector<std::string>{"pass"});
  ASSERT_TRUE(game.pass());
  EXPECT_EQ(game.history_texts(), (std::vector<std::string>{"pass", "pass"}));
  // Two passes end this variant; a pass is undone like any move.
  EXPECT_EQ(state_of(game), "draw: both sides passed");
  EXPECT_TRUE(game.undo());
  EXPECT_EQ(state_of(game), "unfinished");
}

TEST(GameMoves, SetFenKeepsTheGameWhenTheFenIsBad) {
  Game game = game_of("janggi");
  ASSERT_TRUE(game.play("b10c8").accepted);
  const Snapshot before = snapshot(game);
  EXPECT_THROW(game.set_fen("9/9/9 w - - 0 1"), FenError);
  EXPECT_THROW(game.set_fen("RNBA1ABNR/4K4/1C5C1/P1P1P1P1P/9/9/p1p1p1p1p/1c5c1/4k4/rnba1abnr x"), FenError);
  EXPECT_EQ(snapshot(game), before);
  game.set_fen(JanggiStart);
  EXPECT_TRUE(game.history().empty());
  EXPECT_EQ(game.fen(), JanggiStart);
}

TEST(GameMoves, DestinationsAreTheLegalTargets) {
  Game game = game_of("janggi");
  EXPECT_EQ(game.destinations(sq(game, "b10")), (std::vector<Point>{sq(game, "a8"), sq(game, "c8")}));
  EXPECT_TRUE(game.destinations(sq(game, "e5")).empty());
  EXPECT_TRUE(game.destinations(sq(game, "b1")).empty());  // Han's horse: not Han's turn
  std::size_t total = 0;
  for (Point s = Point(0); s < game.variant().squares(); ++s) total += game.destinations(s).size();
  EXPECT_EQ(total, game.legal_moves().size());
}

TEST(GameMoves, CheckForEitherSide) {
  // Cho's general on e9 faces Han's chariot down the open e-file.
  Game game = game_of("janggi", "9/4K4/9/9/9/9/9/9/3k5/4r4 w - - 0 1");
  EXPECT_TRUE(game.is_in_check(First));
  EXPECT_FALSE(game.is_in_check(Second));
  // Han, not to move, is the one attacked here: asking works for the side not to move too. Only
  // where a player may pass in check (a standoff) can such a position arise in play.
  Game modern = game_of("janggi-modern", "9/4K4/9/9/9/9/9/9/3k5/3R5 w - - 0 1");
  EXPECT_FALSE(modern.is_in_check(First));
  EXPECT_TRUE(modern.is_in_check(Second));
  try {
    game.set_fen("9/4K4/9/9/9/9/9/9/3k5/3R5 w - - 0 1");
    FAIL() << "a position unreachable in play was accepted";
  } catch (const FenError& e) {
    EXPECT_STREQ(e.what(), "FEN: han is in check, but it is cho's turn");
  }
  EXPECT_TRUE(game.is_in_check(First));
}

TEST(GameMoves, AFenWithoutARoyalIsRefusedWhereNoneCanBeTaken) {
  Game game = game_of("janggi");
  try {
    game.set_fen("9/4K4/9/9/9/9/9/9/9/4r4 w - - 0 1");
    FAIL() << "a position without Han's general was accepted";
  } catch (const FenError& e) {
    EXPECT_STREQ(e.what(), "FEN board: han has no general");
  }
  EXPECT_EQ(game.fen(), game_of("janggi").fen());
}

TEST(GameMoves, AFinishedGameRefusesMovesButCanBeUndone) {
  // Han (to move) is mated; undoing from a FEN has nothing to undo.
  Game game = game_of("janggi", "4K4/7R1/7C1/P7P/9/p1p2R3/8p/n4kr2/5n3/r1ba1a3 b - - 0 27");
  EXPECT_EQ(state_of(game), "cho wins: checkmate");
  EXPECT_FALSE(game.play("f3e2").accepted);
  EXPECT_EQ(game.last_refusal(), "the game is over: cho wins: checkmate");
  EXPECT_FALSE(game.undo());
}

// play_on, for records: past a ruling the board allows the move; at a mate, or for a move the board
// refuses, it refuses as play() does and changes nothing.
TEST(GameMoves, PlayOnGoesPastARulingOfTheHistoryButNotPastTheBoard) {
  Game mated = game_of("janggi", "4K4/7R1/7C1/P7P/9/p1p2R3/8p/n4kr2/5n3/r1ba1a3 b - - 0 27");
  EXPECT_EQ(mated.play_on("f3e2").reason, "the game is over: cho wins: checkmate");

  // janggi-modern refuses the check that carries on a perpetual; the board allows it.
  Game refused = game_of("janggi-modern", "3K5/9/9/9/9/9/9/9/5k3/8R w - - 0 1");
  ASSERT_EQ(play_all(refused, "i1i2 f2f1 i2i1 f1f2"), "");
  ASSERT_EQ(play_all(refused, "i1i2 f2f1 i2i1 f1f2"), "");
  const Snapshot before = snapshot(refused);
  EXPECT_EQ(refused.play("i1i2").reason, "it would repeat the position, every one of your moves a check (perpetual check)");
  EXPECT_EQ(refused.board_moves().size(), refused.legal_moves().size() + 1);
  const MoveVerdict board = refused.play_on("i1h2");
  EXPECT_FALSE(board.accepted);
  EXPECT_EQ(board.reason, "a chariot cannot move from i1 to h2");
  EXPECT_EQ(snapshot(refused), before);
  EXPECT_TRUE(refused.play_on("i1i2").accepted);
  EXPECT_EQ(refused.history().size(), 9u);

  // Xiangqi's perpetual checker who did not vary has lost; the record's next moves are played on.
  Game lost = game_of("xiangqi", "4k4/9/9/9/9/9/9/9/9/R2K5 w - - 0 1");
  ASSERT_EQ(play_all(lost, "a1a10 e10e9 a10a9 e9e10 a9a10 e10e9 a10a9 e9e10 a9a10 e10e9 a10a9 e9e10 a9a10"), "");
  EXPECT_EQ(state_of(lost), "black wins: perpetual check");
  EXPECT_TRUE(lost.legal_moves().empty());
  EXPECT_FALSE(lost.play("e10e9").accepted);
  EXPECT_TRUE(lost.play_on("e10e9").accepted);
  EXPECT_EQ(state_of(lost), "unfinished");
  EXPECT_TRUE(lost.play("a10a2").accepted);
}

}  // namespace
}  // namespace palace::test
