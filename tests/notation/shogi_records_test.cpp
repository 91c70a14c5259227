// Shogi's record formats: KIF and KI2 (Japanese text, Shift_JIS or UTF-8), CSA, and USI moves. Real
// games from public collections (tests/records/shogi-*) replay with nothing bad; the readers are
// held to exact moves, results and messages, and a game converted KIF -> CSA -> KIF keeps its moves.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>

#include "game/game.h"
#include "hooks/load_variant.h"
#include "movetext/notation.h"
#include "notation/csa.h"
#include "notation/kif.h"
#include "notation/players_notation.h"
#include "notation/replay.h"
#include "test_support.h"

namespace palace::test {
namespace {

std::shared_ptr<const Variant> shogi() {
  static const auto variant = load_variant(variant_path("shogi"));
  return variant;
}

void write_file(const std::string& path, const std::string& text) {
  std::ofstream out(path, std::ios::binary);
  out << text;
}

// The moves of `game` after `record` was replayed, in Palace's coordinates.
std::string played(const GameRecord& record) {
  const Replay replay = replay_record(record, shogi());
  EXPECT_TRUE(replay.good) << replay.verdict;
  return join(replay.game.history_texts());
}

TEST(ShogiRecords, PublicSamplesReplayWithNothingBad) {
  const PalaceRun run = run_palace(
      "replay tests/records/shogi-jt-2014.kif tests/records/shogi-lance-handicap-2008.kif tests/records/shogi-denou3-1.ki2 "
      "tests/records/shogi-floodgate-aobazero-2020.csa tests/records/shogi-pro-kifu09136.csa");
  EXPECT_EQ(run.status, 0) << run.out;
  const std::vector<std::string> expected = {
      "tests/records/shogi-jt-2014.kif game 1 (line 1): good: shogi, 107 plies, 1-0 (not decided on the board)",
      "tests/records/shogi-lance-handicap-2008.kif game 1 (line 1): good: shogi, 142 plies, 1-0 (not decided on the board)",
      "tests/records/shogi-denou3-1.ki2 game 1 (line 1): good: shogi, 98 plies, 0-1 (not decided on the board)",
      "tests/records/shogi-floodgate-aobazero-2020.csa game 1 (line 1): good: shogi, 400 plies, 1-0 (not decided on the board)",
      "tests/records/shogi-pro-kifu09136.csa game 1 (line 1): good: shogi, 102 plies, *",
      "5 games, 5 good, 0 bad",
  };
  EXPECT_EQ(run.lines, expected) << run.out;
}

TEST(ShogiRecords, UsiMovesAreReadWhereTheBoardUsesShogiSquares) {
  Position pos(shogi());
  const MoveNotation notation(*shogi());
  std::string why;
  const Move pawn = notation.read(pos, "7g7f", why);
  ASSERT_TRUE(pawn) << why;
  EXPECT_EQ(pos.move_text(pawn), "c3c4");
  pos.do_move(pawn);
  pos.do_move(notation.read(pos, "3c3d", why));
  const Move bishop = notation.read(pos, "8h2b+", why);
  ASSERT_TRUE(bishop) << why;
  EXPECT_EQ(pos.move_text(bishop), "b2h8+");
  pos.do_move(bishop);
  pos.do_move(notation.read(pos, "3a2b", why));  // the silver takes the horse back
  const Move drop = notation.read(pos, "B*5e", why);
  ASSERT_TRUE(drop) << why;
  EXPECT_EQ(pos.move_text(drop), "B@e5");
  EXPECT_FALSE(notation.read(pos, "5e5d", why));
  EXPECT_EQ(why, "\"5e5d\" is not a legal move here");
}

// `text` read in `pos`, as coordinates, or the reason it names no move.
std::string read_as(Position& pos, const std::string& text) {
  std::string why;
  const Move m = MoveNotation(pos.variant()).read(pos, text, why);
  return m ? pos.move_text(m) : why;
}

// Issue 57: where coordinates promote with "+", a SAN text's "+" promotes where the move may, and
// Western notation ("P-7f", "Bx2b+", "Bx2b=") is read on shogi's numbering.
TEST(ShogiRecords, PlusPromotesAndWesternNotationIsRead) {
  Position pos(shogi());
  EXPECT_EQ(read_as(pos, "P-7f"), "c3c4");
  EXPECT_EQ(read_as(pos, "P7g-7f"), "c3c4");
  EXPECT_EQ(read_as(pos, "P7f"), "c3c4");
  pos.set_fen("lnsgkgsnl/1r5b1/pppppp1pp/6p2/9/2P6/PP1PPPPPP/1B5R1/LNSGKGSNL[] w - - 0 3");
  EXPECT_EQ(read_as(pos, "Bxh8+"), "b2h8+");    // never the unpromoted move
  EXPECT_EQ(read_as(pos, "Bx2b+"), "b2h8+");
  EXPECT_EQ(read_as(pos, "Bxh8="), "b2h8");     // "=" declines
  EXPECT_EQ(read_as(pos, "Bx2b="), "b2h8");
  EXPECT_EQ(read_as(pos, "Bxh8=H"), "b2h8+");   // the reference's own spelling still reads
  EXPECT_EQ(read_as(pos, "Bxh8"), "b2h8");
  EXPECT_EQ(read_as(pos, "Bx2b+#"), "b2h8+");
  std::string why;
  pos.do_move(MoveNotation(*shogi()).read(pos, "Bx2b+", why));
  EXPECT_EQ(read_as(pos, "Sx2b"), "g9h8");
  pos.do_move(MoveNotation(*shogi()).read(pos, "Sx2b", why));
  EXPECT_EQ(read_as(pos, "B*4e"), "B@f5");
  // On Palace's points, "+" after a move that checks unpromoted is SAN's check, as the reference
  // writes it; in Western notation it promotes.
  pos.set_fen("8k/9/9/9/9/9/9/9/B3K4[] w - - 0 1");
  EXPECT_EQ(read_as(pos, "Bh8+"), "a1h8");
  EXPECT_EQ(read_as(pos, "Bh8=H+"), "a1h8+");
  EXPECT_EQ(read_as(pos, "B-2b+"), "a1h8+");
  EXPECT_EQ(read_as(pos, "B-2b="), "a1h8");
  // A "+" on a move that cannot promote is a check, as Palace's SAN writes it.
  pos.set_fen("4k4/9/4G4/9/9/9/9/9/4K4[] w - - 0 1");
  EXPECT_EQ(read_as(pos, "Ge8+"), "e7e8");
  EXPECT_EQ(read_as(pos, "G-5b+"), "e7e8");
  // A promoted piece by Western notation's "+" and its letter: the horse.
  pos.set_fen("4k4/9/9/9/9/9/9/1+B7/4K4[] w - - 0 1");
  EXPECT_EQ(read_as(pos, "+B-5e"), "b2e5");
  EXPECT_EQ(read_as(pos, "+B-5a"), "\"+B-5a\" is not a legal move here");
}

// The web board's notation: Japanese for shogi (KIF, with 同 and the side's mark), read back from
// KIF and KI2; edge labels 9-1 and 一-九.
TEST(ShogiRecords, PlayersNotationIsJapanese) {
  const PlayersNotation players(*shogi());
  EXPECT_EQ(players.name(), "kif");
  EXPECT_EQ(join(players.file_labels()), "9 8 7 6 5 4 3 2 1");
  EXPECT_EQ(join(players.rank_labels()), "九 八 七 六 五 四 三 二 一");
  EXPECT_TRUE(players.side_file_labels().empty());
  Game game(shogi());
  std::vector<std::string> written;
  for (const char* text : {"７六歩", "☖3四歩", "２二角成", "▲同銀"}) {
    std::string why;
    const Move m = players.read(game, text, why);
    ASSERT_TRUE(m) << text << ": " << why;
    Position pos = game.position();
    written.push_back(players.write(pos, m));
    ASSERT_TRUE(game.play(game.position().move_text(m)).accepted);
  }
  EXPECT_EQ(join(written), "☗７六歩(77) ☖３四歩(33) ☗２二角成(88) ☖同　銀(31)");
  std::string why;
  EXPECT_FALSE(players.read(game, "5e5d", why));
  EXPECT_EQ(why, "");  // not Japanese: left to MoveNotation
  EXPECT_FALSE(players.read(game, "５五歩", why));
  EXPECT_EQ(why, "\"５五歩\": no pawn of Sente's can move to ５五 (e5) as written");
  // Sente holds a bishop: 打 drops it, and a move that says 成 is no drop.
  const Move drop = players.read(game, "５五角打", why);
  ASSERT_TRUE(drop) << why;
  EXPECT_EQ(game.position().move_text(drop), "B@e5");
  EXPECT_FALSE(players.read(game, "５五角成", why));
  EXPECT_EQ(why, "\"５五角成\": no bishop of Sente's can move to ５五 (e5) as written");
}

// Xiangqi's players number the files from each side's own right: Red in numerals, Black in
// digits, each along its own edge; Minixiangqi's, whose players write WXF, in digits on both.
TEST(ShogiRecords, ChineseAndWxfNumberFilesPerSide) {
  const auto labels = [](const char* name) {
    const auto variant = load_variant(variant_path(name));
    const auto sides = PlayersNotation(*variant).side_file_labels();
    std::string text;
    for (const auto& side : sides) text += join(side) + " | ";
    return text;
  };
  EXPECT_EQ(labels("xiangqi"), "九 八 七 六 五 四 三 二 一 | １ ２ ３ ４ ５ ６ ７ ８ ９ | ");
  EXPECT_EQ(labels("manchu"), "九 八 七 六 五 四 三 二 一 | １ ２ ３ ４ ５ ６ ７ ８ ９ | ");
  EXPECT_EQ(labels("minixiangqi"), "7 6 5 4 3 2 1 | 1 2 3 4 5 6 7 | ");
  EXPECT_EQ(labels("janggi-kakao"), "");
}

TEST(ShogiRecords, KifReadsHeadersMovesEndingsAndSkipsVariations) {
  // UTF-8 with a byte-order mark and CRLF; comments, times, 同, 成, 不成 and 打; a variation after.
  const std::string kif =
      "\xEF\xBB\xBF# comment\r\n開始日時：2024/01/02 10:00:00\r\n棋戦：テスト棋戦\r\n手合割：平手　　\r\n先手：甲\r\n後手：乙\r\n"
      "手数----指手---------消費時間--\r\n"
      "   1 ７六歩(77)   ( 0:01/00:00:01)\r\n*a comment\r\n"
      "   2 ３四歩(33)   ( 0:01/00:00:01)\r\n"
      "   3 ２二角成(88) ( 0:01/00:00:02)\r\n"
      "   4 同　銀(31)   ( 0:01/00:00:02)\r\n"
      "   5 ５五角打     ( 0:01/00:00:03)\r\n"
      "   6 投了         ( 0:01/00:00:03)\r\n"
      "まで5手で先手の勝ち\r\n\r\n変化：3手\r\n   3 ２六歩(27)   ( 0:01/00:00:02)\r\n";
  const std::vector<GameRecord> games = read_kif(kif);
  ASSERT_EQ(games.size(), 1u);
  const GameRecord& game = games[0];
  EXPECT_EQ(game.moves, (std::vector<std::string>{"７六歩(77)", "３四歩(33)", "２二角成(88)", "同　銀(31)", "５五角打"}));
  EXPECT_EQ(game.result, "1-0");
  EXPECT_EQ(*game.tag("Termination"), "resignation");
  EXPECT_EQ(*game.tag("Event"), "テスト棋戦");
  EXPECT_EQ(*game.tag("White"), "甲");
  EXPECT_EQ(*game.tag("Black"), "乙");
  EXPECT_EQ(*game.tag("Date"), "2024.01.02");
  EXPECT_EQ(game.problem, "");
  EXPECT_EQ(played(game), "c3c4 g7g6 b2h8+ g9h8 B@e5");
}

TEST(ShogiRecords, KifDeclinedPromotionAndEndingsGiveTheResultForTheSideToMove) {
  const std::string moves = "手数----指手--\n1 ７六歩(77)\n2 ３四歩(33)\n3 ２二角不成(88)\n";
  const std::vector<GameRecord> declined = read_kif(moves + "4 千日手\n");
  ASSERT_EQ(declined.size(), 1u);
  EXPECT_EQ(played(declined[0]), "c3c4 g7g6 b2h8");
  EXPECT_EQ(declined[0].result, "1/2-1/2");
  EXPECT_EQ(read_kif(moves + "4 投了\n")[0].result, "1-0");  // gote is to move and resigns
  EXPECT_EQ(read_kif(moves + "4 中断\n")[0].result, "*");
  EXPECT_EQ(read_kif(moves + "4 持将棋\n")[0].result, "1/2-1/2");
}

TEST(ShogiRecords, Ki2WordsTellApartPiecesThatCouldGoToTheSameSquare) {
  GameRecord record;
  record.set_tag("Format", "KIF");
  record.moves = {"▲５八金右"};
  EXPECT_EQ(played(record), "f1e2");  // sente's right is file 4, Palace's f
  record.moves = {"▲５八金左"};
  EXPECT_EQ(played(record), "d1e2");
  record.moves = {"▲７六歩", "△３四歩", "▲２二角成", "△同銀", "▲５五角打"};
  EXPECT_EQ(played(record), "c3c4 g7g6 b2h8+ g9h8 B@e5");
  record.moves = {"▲５八金"};
  const Replay replay = replay_record(record, shogi());
  EXPECT_FALSE(replay.good);
  EXPECT_EQ(replay.verdict,
            "move 1 (sente) \"▲５八金\": \"▲５八金\" is ambiguous: the golds on ６九 (d1) and ４九 (f1) can both make it; write "
            "５八金左 or ５八金右");
  // A move no piece can make names its point both ways too, and a drop the hand cannot make says so.
  record.moves = {"▲７五歩"};
  EXPECT_EQ(replay_record(record, shogi()).verdict,
            "move 1 (sente) \"▲７五歩\": \"▲７五歩\": no pawn of Sente's can move to ７五 (c5) as written");
  record.moves = {"▲５五角打"};
  EXPECT_EQ(replay_record(record, shogi()).verdict,
            "move 1 (sente) \"▲５五角打\": \"▲５五角打\": a drop on ５五 (e5): you have no bishop in hand");
}

TEST(ShogiRecords, GamesOneAfterAnotherInAKifAreSplit) {
  const std::string file = temp_path("two-games.kif");
  write_file(file,
             "開始日時：2024/01/02\n手合割：平手\n先手：甲\n後手：乙\n手数----指手--\n1 ７六歩(77)\n2 ３四歩(33)\n3 投了\n"
             "\n開始日時：2024/01/03\n手合割：角落ち\n先手：丙\n後手：丁\n手数----指手--\n1 ３四歩(33)\n2 ７六歩(77)\n"
             "3 ２二角(88)\n");
  const std::vector<GameRecord> games = read_kif(run_shell("cat " + shell_quoted(file)).out);
  ASSERT_EQ(games.size(), 2u);
  EXPECT_EQ(played(games[0]), "c3c4 g7g6");
  EXPECT_EQ(games[0].result, "0-1");
  EXPECT_EQ(*games[0].tag("White"), "甲");
  EXPECT_EQ(games[1].line, 10);
  EXPECT_EQ(*games[1].tag("White"), "丙");
  EXPECT_EQ(*games[1].tag("Date"), "2024.01.03");
  EXPECT_EQ(games[1].moves, (std::vector<std::string>{"３四歩(33)", "７六歩(77)", "２二角(88)"}));
  const PalaceRun run = run_palace("replay " + shell_quoted(file));
  const std::vector<std::string> expected = {
      file + " game 1 (line 1): good: shogi, 2 plies, 0-1 (not decided on the board)",
      file + " game 2 (line 10): bad: shogi, move 2 (gote) \"２二角(88)\": \"２二角(88)\": ８八 (b2) to ２二 (h8): it is Gote's turn",
      "2 games, 1 good, 1 bad",
  };
  EXPECT_EQ(run.lines, expected) << run.out;
}

TEST(ShogiRecords, KifStartsFromAHandicapOrABoardDiagram) {
  const std::vector<GameRecord> handicap = read_kif("手合割：角落ち\n手数----指手--\n1 ３四歩(33)\n2 ７六歩(77)\n");
  ASSERT_EQ(handicap.size(), 1u);
  EXPECT_EQ(played(handicap[0]), "g7g6 c3c4");  // the handicap giver, gote, moves first
  // The handicaps every KIF reader knows, as Kakinoki's KIF lays them out: the giver's pieces gone
  // from its left (shogi's file 1 is the right of the giver, gote) first.
  const std::pair<const char*, const char*> handicaps[] = {
      {"三枚落ち", "lnsgkgsn1/9/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL[] b - - 0 1"},
      {"五枚落ち", "2sgkgsn1/9/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL[] b - - 0 1"},
      {"左五枚落ち", "1nsgkgs2/9/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL[] b - - 0 1"},
  };
  for (const auto& [name, fen] : handicaps) {
    const std::vector<GameRecord> given = read_kif(std::string("手合割：") + name + "\n手数----指手--\n1 ５二玉(51)\n2 ７六歩(77)\n");
    ASSERT_EQ(given.size(), 1u);
    EXPECT_EQ(kif_start(given[0], shogi()), fen) << name;
    EXPECT_EQ(played(given[0]), "e9e8 c3c4") << name;
  }
  const std::vector<GameRecord> unknown = read_kif("手合割：九枚落ち\n手数----指手--\n1 ３四歩(33)\n");
  EXPECT_EQ(replay_record(unknown[0], shogi()).verdict,
            "bad start position: 手合割 \"九枚落ち\" is none of shogi's start positions (notation: handicaps:)");
  const std::string diagram =
      "後手の持駒：なし\n  ９ ８ ７ ６ ５ ４ ３ ２ １\n+---------------------------+\n"
      "| ・ ・ ・ ・ ・ ・ ・v桂v玉|一\n| ・ ・ ・ ・ ・ ・ ・ ・ ・|二\n| ・ ・ ・ ・ ・ ・ ・ 歩 ・|三\n"
      "| ・ ・ ・ ・ ・ ・ ・ ・ ・|四\n| ・ ・ ・ ・ ・ ・ ・ ・ ・|五\n| ・ ・ ・ ・ ・ ・ ・ ・ ・|六\n"
      "| ・ ・ ・ ・ ・ ・ ・ ・ ・|七\n| ・ ・ ・ ・ ・ ・ ・ ・ ・|八\n| ・ ・ ・ ・ 玉 ・ ・ ・ ・|九\n"
      "+---------------------------+\n先手の持駒：金　歩二\n手数----指手--\n1 ２二歩成(23)\n2 同　玉(11)\n3 １二金打\n";
  const std::vector<GameRecord> mate = read_kif(diagram);
  ASSERT_EQ(mate.size(), 1u);
  const Replay replay = replay_record(mate[0], shogi());
  EXPECT_EQ(replay.game.start_fen(), "7nk/9/7P1/9/9/9/9/9/4K4[GPP] w - - 0 1");
  EXPECT_EQ(join(replay.game.history_texts()), "h7h8+ i9h8 G@i8");
}

TEST(ShogiRecords, CsaReadsPositionsEndingsAndSeveralGames) {
  const std::string csa =
      "V2.2\nN+Sente\nN-Gote\n$EVENT:test\n$START_TIME:2020/07/19 20:00:00\nPI\n+\n+7776FU,T3\n-3334FU\nT2\n"
      "+8822UM\n-3122GI\n%TORYO\n/\n"
      "'second game: P1..P9, gote to move\n"
      "P1-KY-KE-GI-KI-OU-KI-GI-KE-KY\nP2 * -HI *  *  *  *  * -KA * \nP3-FU-FU-FU-FU-FU-FU-FU-FU-FU\n"
      "P4 *  *  *  *  *  *  *  *  * \nP5 *  *  *  *  *  *  *  *  * \nP6 *  *  *  *  *  *  *  *  * \n"
      "P7+FU+FU+FU+FU+FU+FU+FU+FU+FU\nP8 * +KA *  *  *  *  * +HI * \nP9+KY+KE+GI+KI+OU+KI+GI+KE+KY\n-\n"
      "-3334FU\n+7776FU\n%SENNICHITE\n";
  const std::vector<GameRecord> games = read_csa(csa);
  ASSERT_EQ(games.size(), 2u);
  EXPECT_EQ(games[0].moves, (std::vector<std::string>{"+7776FU", "-3334FU", "+8822UM", "-3122GI"}));
  EXPECT_EQ(games[0].result, "0-1");  // sente is to move and resigns
  EXPECT_EQ(*games[0].tag("White"), "Sente");
  EXPECT_EQ(*games[0].tag("Date"), "2020.07.19");
  EXPECT_EQ(played(games[0]), "c3c4 g7g6 b2h8+ g9h8");
  EXPECT_EQ(games[1].line, 15);
  EXPECT_EQ(games[1].result, "1/2-1/2");
  EXPECT_EQ(played(games[1]), "g7g6 c3c4");
}

TEST(ShogiRecords, ConvertingKifToCsaAndBackKeepsTheMoves) {
  const std::string dir = temp_path("shogi-convert") + "/";
  std::filesystem::create_directories(dir);
  const std::string source = source_path("tests/records/shogi-jt-2014.kif");
  const PalaceRun kif = run_palace("convert " + shell_quoted(source) + " --to kif > " + shell_quoted(dir + "a.kif"));
  ASSERT_EQ(kif.status, 0);
  ASSERT_EQ(run_palace("convert " + shell_quoted(dir + "a.kif") + " --to csa > " + shell_quoted(dir + "b.csa")).status, 0);
  ASSERT_EQ(run_palace("convert " + shell_quoted(dir + "b.csa") + " --to kif > " + shell_quoted(dir + "c.kif")).status, 0);
  ASSERT_EQ(run_palace("convert " + shell_quoted(dir + "c.kif") + " --to ki2 > " + shell_quoted(dir + "d.ki2")).status, 0);
  // The moves and the end alike; CSA has no place for KIF's other headers.
  auto moves = [](const std::vector<std::string>& lines) {
    return std::vector<std::string>(std::find(lines.begin(), lines.end(), "手数----指手---------消費時間--"), lines.end());
  };
  const std::vector<std::string> first = moves(file_lines(dir + "a.kif"));
  EXPECT_EQ(first.size(), 110u);
  EXPECT_EQ(first, moves(file_lines(dir + "c.kif")));
  EXPECT_EQ(first.back(), "まで107手で先手の勝ち");
  const std::vector<std::string> csa = file_lines(dir + "b.csa");
  ASSERT_GE(csa.size(), 10u);
  EXPECT_EQ(std::vector<std::string>(csa.begin(), csa.begin() + 10),
            (std::vector<std::string>{"V2.2", "N+渡辺明", "N-佐藤康光", "$EVENT:第３５回将棋日本シリーズ　ＪＴプロ公式戦二回戦第三局　熊本大会",
                                      "$SITE:熊本・グランメッセ熊本", "$START_TIME:2014/09/13", "PI", "+", "+2726FU", "-8384FU"}));
  EXPECT_EQ(csa.back(), "%TORYO");
  const PalaceRun again = run_palace("replay " + shell_quoted(dir + "a.kif") + " " + shell_quoted(dir + "b.csa") + " " +
                                     shell_quoted(dir + "d.ki2"));
  EXPECT_EQ(again.lines.back(), "3 games, 3 good, 0 bad") << again.out;
  const std::vector<GameRecord> original = read_kif(std::string(std::istreambuf_iterator<char>(*std::make_unique<std::ifstream>(source, std::ios::binary)), {}));
  const std::vector<GameRecord> ki2 = read_kif(std::string(std::istreambuf_iterator<char>(*std::make_unique<std::ifstream>(dir + "d.ki2", std::ios::binary)), {}));
  EXPECT_EQ(played(original[0]), played(ki2[0]));
}

TEST(ShogiRecords, BadRecordsNameTheGameTheMoveAndTheReason) {
  const std::string dir = temp_path("shogi-bad") + "/";
  std::filesystem::create_directories(dir);
  write_file(dir + "illegal.kif", "手数----指手--\n1 ７六歩(77)\n2 ３四歩(33)\n3 ７四歩(76)\n");
  write_file(dir + "two.csa", "PI\n+\n+2726FU\n-3334FU\n+8822KA\n/\nPI\n+\n+2726FU\n-8384FU\n%TORYO\n");
  write_file(dir + "wrong-side.csa", "PI\n+\n-3334FU\n");
  write_file(dir + "nonsense.kif", "手数----指手--\n1 ７六玉将(77)\n");
  write_file(dir + "bad-encoding.kif", std::string("\x81\x20\xff\xfe", 4));
  write_file(dir + "record.txt", "PI\n+\n+7776FU\n");
  const PalaceRun run =
      run_palace("replay illegal.kif two.csa wrong-side.csa nonsense.kif bad-encoding.kif record.txt", dir);
  EXPECT_EQ(run.status, 1);
  const std::vector<std::string> expected = {
      "illegal.kif game 1 (line 1): bad: shogi, move 2 (sente) \"７四歩(76)\": \"７四歩(76)\": ７六 (c4) to ７四 (c6): a pawn "
      "cannot move from c4 to c6",
      "two.csa game 1 (line 1): bad: shogi, move 2 (sente) \"+8822KA\": \"+8822KA\" is not a legal move here",
      "two.csa game 2 (line 7): good: shogi, 2 plies, 0-1 (not decided on the board)",
      "wrong-side.csa game 1 (line 1): bad: shogi, move 1 (sente) \"-3334FU\": \"-3334FU\" is gote's move, but sente is to move",
      "nonsense.kif game 1 (line 1): bad: shogi, move 1 (sente) \"７六玉将(77)\": \"７六玉将(77)\" has \"将\", which no KIF move has",
      "bad-encoding.kif: bad: not UTF-8, cp932 or euc-jp text (byte 1)",
      "record.txt game 1 (line 1): good: shogi, 1 ply, *",
      "7 games, 2 good, 5 bad",
  };
  EXPECT_EQ(run.lines, expected) << run.out;
}

}  // namespace
}  // namespace palace::test
