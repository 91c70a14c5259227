// The notations' reading beyond the reference vectors: the other spellings records use, ambiguity,
// refusals; and the PGN reader's comments, NAGs, variations, escapes and games one after another.
#include <gtest/gtest.h>

#include "movetext/notation.h"
#include "notation/pgn.h"
#include "test_support.h"

namespace palace::test {
namespace {

// `text` read in `pos`, as coordinates, or the reason it names no move.
std::string read_as(Position& pos, const std::string& text) {
  std::string why;
  const Move m = MoveNotation(pos.variant()).read(pos, text, why);
  return m ? pos.move_text(m) : why;
}

TEST(Notation, SanSpellingsRecordsUse) {
  Position pos(load_variant(variant_path("chess")));
  EXPECT_EQ(read_as(pos, "Nf3"), "g1f3");
  EXPECT_EQ(read_as(pos, "Ngf3"), "g1f3");
  EXPECT_EQ(read_as(pos, "Ng1f3"), "g1f3");
  EXPECT_EQ(read_as(pos, "Ng1-f3!?"), "g1f3");
  EXPECT_EQ(read_as(pos, "e4"), "e2e4");
  EXPECT_EQ(read_as(pos, "e2e4"), "e2e4");
  EXPECT_EQ(read_as(pos, "Nf6"), "it is White's turn: \"Nf6\" is a move of Black");
  EXPECT_EQ(read_as(pos, "Nd4"), "\"Nd4\" is not a legal move here");
  EXPECT_EQ(read_as(pos, "Zz9"), "\"Zz9\" is not a move");
  EXPECT_EQ(read_as(pos, "O-O"), "\"O-O\" is not a legal move here");
  pos.set_fen("r3k2r/1P6/8/8/8/8/8/R3K2R w KQkq - 0 1");
  EXPECT_EQ(read_as(pos, "O-O"), "e1g1");
  EXPECT_EQ(read_as(pos, "0-0-0"), "e1c1");
  EXPECT_EQ(read_as(pos, "bxa8=Q+"), "b7a8q");
  EXPECT_EQ(read_as(pos, "b8N"), "b7b8n");
  EXPECT_EQ(read_as(pos, "b8=q"), "b7b8q");
  EXPECT_EQ(read_as(pos, "b7b8q"), "b7b8q");
  EXPECT_EQ(read_as(pos, "b8"), "\"b8\" is not a legal move here");
  pos.set_fen("4k3/8/8/8/8/8/4K3/R6R w - - 0 1");
  EXPECT_EQ(read_as(pos, "Rd1"), "\"Rd1\" is ambiguous: the rooks on a1 and h1 can both make it; write Rad1 or Rhd1");
  EXPECT_EQ(read_as(pos, "Rhd1"), "h1d1");
  // The knight on f3 is pinned: "Nd2" names the one on b1, as python-chess reads it.
  pos.set_fen("4k3/8/8/8/4b3/5N2/8/1N5K w - - 0 1");
  EXPECT_EQ(read_as(pos, "Nd2"), "b1d2");
  pos.set_fen("4k3/8/8/8/8/8/4K3/R6R w - - 0 1");
  MoveList list;
  generate_legal(pos, list);
  const MoveNotation notation(pos.variant());
  for (const Move m : list)
    if (pos.move_text(m) == "a1a8") {
      EXPECT_EQ(notation.write(pos, m, NotationStyle::San), "Ra8+");
      EXPECT_EQ(notation.write(pos, m, NotationStyle::Coordinates), "a1a8");
    }
}

TEST(Notation, WxfSpellingsRecordsUse) {
  Position pos(load_variant(variant_path("xiangqi")));
  EXPECT_EQ(read_as(pos, "H2+3"), "h1g3");
  EXPECT_EQ(read_as(pos, "N2+3"), "h1g3");  // the FEN's letter, as older records write it
  EXPECT_EQ(read_as(pos, "C2.5"), "h3e3");  // WXF's own sideways mark
  EXPECT_EQ(read_as(pos, "Hg3"), "h1g3");   // SAN
  EXPECT_EQ(read_as(pos, "C2+9"), "\"C2+9\" is not a move");
  // Two cannons on Red's file 8: the rear one by each spelling, to file 9.
  pos.set_fen("3k5/9/9/9/9/9/1C7/1C7/9/5K3 w - - 0 1");
  EXPECT_EQ(read_as(pos, "C-=9"), "b3a3");
  EXPECT_EQ(read_as(pos, "-C=9"), "b3a3");
  EXPECT_EQ(read_as(pos, "rC.9"), "b3a3");
  EXPECT_EQ(read_as(pos, "fC.9"), "b4a4");
  EXPECT_EQ(read_as(pos, "C8=9"), "\"C8=9\" is ambiguous: the front and rear cannons on file 8 can both make it; write C+=9 or C-=9");
  // Three soldiers on Red's file 7: the reference counts from the front, the federation signs them.
  pos.set_fen("5k3/9/2P6/2P6/2P6/9/9/9/9/3K5 w - - 0 1");
  EXPECT_EQ(read_as(pos, "17=6"), "c8d8");
  EXPECT_EQ(read_as(pos, "P+.6"), "c8d8");
  EXPECT_EQ(read_as(pos, "P7.6"), "c7d7");
  EXPECT_EQ(read_as(pos, "P-.6"), "c6d6");
  EXPECT_EQ(read_as(pos, "+P.6"), "c8d8");
  MoveList list;
  generate_legal(pos, list);
  for (const Move m : list) {
    if (pos.move_text(m) == "c7d7") {
      EXPECT_EQ(MoveNotation(pos.variant()).write(pos, m, NotationStyle::Wxf), "27=6");
    }
  }
}

TEST(Notation, JanggiNumericAndKorean) {
  Position pos(load_variant(variant_path("janggi")));
  EXPECT_EQ(read_as(pos, "P79-78"), "i7h7");
  EXPECT_EQ(read_as(pos, "79졸78"), "i7h7");
  EXPECT_EQ(read_as(pos, "79卒78"), "i7h7");
  EXPECT_EQ(read_as(pos, "79병78"), "i7h7");  // a soldier by either side's name
  EXPECT_EQ(read_as(pos, "79P78"), "i7h7");
  EXPECT_EQ(read_as(pos, "79마78"), "\"79마78\" is not a move");
  EXPECT_EQ(read_as(pos, "Pi7h7"), "i7h7");  // SAN with the whole origin
  EXPECT_EQ(read_as(pos, "pass"), "\"pass\" is not a legal move here");
  EXPECT_EQ(read_as(pos, "Ph7"), "\"Ph7\" is ambiguous: the soldiers on g7 and i7 can both make it; write Pgh7 or Pih7");
  EXPECT_EQ(read_as(pos, "Pih7"), "i7h7");
  MoveList list;
  generate_legal(pos, list);
  const MoveNotation notation(pos.variant());
  for (const Move m : list)
    if (pos.move_text(m) == "b10c8") {
      EXPECT_EQ(notation.write(pos, m, NotationStyle::Janggi), "H02-83");
      EXPECT_EQ(notation.write(pos, m, NotationStyle::Korean), "02마83");
      EXPECT_EQ(notation.write(pos, m, NotationStyle::San), "Hc8");
    }
}

TEST(Pgn, CommentsNagsVariationsAndSeveralGames) {
  const auto games = read_pgn(
      "% an escaped line\n"
      "[Event \"One \\\"quoted\\\" name\"]\n[Result \"1-0\"]\n\n"
      "1. e4 {a comment} e5 $1 2.Nf3 (2. f4 exf4 (2... d5) {nested}) 2... Nc6 ; to the end of the line\n"
      "3. Bb5 1-0\n\n"
      "[Event \"Two\"]\n\n1. d4 d5 *\n"
      "1. c4 1/2-1/2\n");
  ASSERT_EQ(games.size(), 3u);
  EXPECT_EQ(*games[0].tag("event"), "One \"quoted\" name");
  EXPECT_EQ(games[0].moves, (std::vector<std::string>{"e4", "e5", "Nf3", "Nc6", "Bb5"}));
  EXPECT_EQ(games[0].result, "1-0");
  EXPECT_EQ(games[0].line, 2);
  EXPECT_TRUE(games[0].problem.empty());
  EXPECT_EQ(games[1].moves, (std::vector<std::string>{"d4", "d5"}));
  EXPECT_EQ(games[1].result, "*");
  EXPECT_EQ(games[2].moves, (std::vector<std::string>{"c4"}));
  EXPECT_EQ(games[2].result, "1/2-1/2");
  EXPECT_EQ(games[2].line, 11);
}

TEST(Pgn, BrokenTextKeepsWhatCameBeforeAndSaysWhere) {
  const auto games = read_pgn("[Event \"x\"]\n\n1. e4 e5 (2. Nf3\n\n2. Nc3 *\n");
  ASSERT_EQ(games.size(), 1u);
  EXPECT_EQ(games[0].moves, (std::vector<std::string>{"e4", "e5"}));
  EXPECT_EQ(games[0].problem, "line 3: a variation ( is never closed");
  EXPECT_EQ(read_pgn("").size(), 0u);
  EXPECT_EQ(read_pgn("1. e4 ) e5").front().problem, "line 1: ) closes nothing");
}

TEST(Pgn, WrittenWithTheSevenTagRosterAndNumberedMoves) {
  GameRecord game;
  game.set_tag("White", "A \"B\"");
  game.set_tag("Variant", "xiangqi");
  game.result = "0-1";
  game.moves = {"H2+3", "H8+7", "C2=5"};
  EXPECT_EQ(write_pgn(game, 12, true),
            "[Event \"?\"]\n[Site \"?\"]\n[Date \"?\"]\n[Round \"?\"]\n[White \"A \\\"B\\\"\"]\n[Black \"?\"]\n"
            "[Result \"0-1\"]\n[Variant \"xiangqi\"]\n\n12... H2+3 13. H8+7 C2=5 0-1\n");
}

// A [Result] tag PGN has no word for, in a game with no termination marker, is kept as read; written
// back, it would end the movetext as a move ("2-0"), so the writer says the result is unknown.
TEST(Pgn, AResultPgnCannotSayIsWrittenAsUnknown) {
  const auto games = read_pgn("[Result \"2-0\"]\n\n1. e4 e5 2. Nf3\n");
  ASSERT_EQ(games.size(), 1u);
  EXPECT_EQ(games[0].result, "2-0");
  const std::string text = write_pgn(games[0]);
  EXPECT_NE(text.find("[Result \"*\"]\n\n1. e4 e5 2. Nf3 *\n"), std::string::npos) << text;
  const auto again = read_pgn(text);
  ASSERT_EQ(again.size(), 1u);
  EXPECT_EQ(again[0].moves, games[0].moves);
  EXPECT_EQ(again[0].result, "*");
}

// Other formats name their tags freely (CSA's `$EVENT NAME:`); PGN's names cannot hold a space or
// a bracket, so the writer spells such a name with '_' and leaves out a tag with none.
TEST(Pgn, TagNamesFromOtherFormatsAreWrittenAsPgnCanReadThem) {
  GameRecord game;
  game.set_tag("EVENT NAME", "x");
  game.set_tag("", "y");
  game.set_tag("대회명", "z");
  game.result = "*";
  game.moves = {"e4"};
  const std::string text = write_pgn(game);
  EXPECT_NE(text.find("[EVENT_NAME \"x\"]\n[대회명 \"z\"]\n\n1. e4 *\n"), std::string::npos) << text;
  const auto again = read_pgn(text);
  ASSERT_EQ(again.size(), 1u);
  EXPECT_EQ(again[0].problem, "");
  EXPECT_EQ(again[0].moves, game.moves);
}

}  // namespace
}  // namespace palace::test
