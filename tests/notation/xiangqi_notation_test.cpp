// Xiangqi's record notations beyond WXF: ICCS coordinates (ranks from 0) and the Chinese notation
// in both scripts, read and written, on real collections' samples (tests/records/xiangqi-*).
#include <gtest/gtest.h>

#include <fstream>

#include "movegen/movegen.h"
#include "movetext/notation.h"
#include "notation/pgn.h"
#include "test_support.h"

namespace palace::test {
namespace {

void write_file(const std::string& path, const std::string& text) {
  std::ofstream out(path, std::ios::binary);
  out << text;
}

// `text` read in `pos`, as coordinates, or the reason it names no move.
std::string read_as(Position& pos, const std::string& text) {
  std::string why;
  const Move m = MoveNotation(pos.variant()).read(pos, text, why);
  return m ? pos.move_text(m) : why;
}

// The legal move `coordinates` of `pos` written in `style`.
std::string written(Position& pos, const std::string& coordinates, NotationStyle style) {
  return MoveNotation(pos.variant()).write(pos, legal_move_named(pos, coordinates), style);
}

// A record's moves without its tags, as `palace convert` writes them.
std::string movetext(const std::string& pgn) {
  std::string out;
  for (const GameRecord& game : read_pgn(pgn))
    for (const std::string& move : game.moves) out += move + " ";
  return out;
}

TEST(XiangqiNotation, ChineseReadInBothScriptsAndEveryDigit) {
  Position pos(load_variant(variant_path("xiangqi")));
  EXPECT_EQ(read_as(pos, "炮二平五"), "h3e3");
  EXPECT_EQ(read_as(pos, "俥九進一"), "a1a2");
  EXPECT_EQ(read_as(pos, "車九进一"), "a1a2");
  EXPECT_EQ(read_as(pos, "兵七进一"), "c4c5");
  EXPECT_EQ(read_as(pos, "炮二进九"), "\"炮二进九\" is not a legal move here");
  EXPECT_EQ(read_as(pos, "炮二平十"), "\"炮二平十\" is not a move");
  EXPECT_EQ(read_as(pos, "Ｃ２＝５"), "h3e3");  // WXF in full-width forms
  play_moves(pos, "h3e3");
  EXPECT_EQ(read_as(pos, "马8进7"), "h10g8");
  EXPECT_EQ(read_as(pos, "馬８進７"), "h10g8");
  EXPECT_EQ(read_as(pos, "包８平５"), "h8e8");
  EXPECT_EQ(read_as(pos, "砲8平5"), "h8e8");
  EXPECT_EQ(written(pos, "h8e8", NotationStyle::Chinese), "炮８平５");
  EXPECT_EQ(written(pos, "h8e8", NotationStyle::ChineseTraditional), "砲８平５");
  EXPECT_EQ(written(pos, "a10a9", NotationStyle::ChineseTraditional), "車１進１");
  EXPECT_EQ(written(pos, "d10e9", NotationStyle::Chinese), "士４进５");
}

TEST(XiangqiNotation, ChineseTandemPieces) {
  Position pos(load_variant(variant_path("xiangqi")));
  // Two cannons on red's file 8: front and rear, never the file.
  pos.set_fen("3k5/9/9/9/9/9/1C7/1C7/9/5K3 w - - 0 1");
  EXPECT_EQ(read_as(pos, "前炮平九"), "b4a4");
  EXPECT_EQ(read_as(pos, "后炮平九"), "b3a3");
  EXPECT_EQ(read_as(pos, "後砲平九"), "b3a3");
  EXPECT_EQ(read_as(pos, "炮八平九"),
            "\"炮八平九\" is ambiguous: the front and rear cannons on file 8 can both make it; write 前炮平九 or 后炮平九");
  EXPECT_EQ(written(pos, "b3a3", NotationStyle::Chinese), "后炮平九");
  EXPECT_EQ(written(pos, "b3a3", NotationStyle::ChineseTraditional), "後炮平九");
  // Three soldiers on a file: front, middle, rear, or counted from the front.
  pos.set_fen("5k3/9/2P6/2P6/2P6/9/9/9/9/3K5 w - - 0 1");
  EXPECT_EQ(read_as(pos, "前兵平六"), "c8d8");
  EXPECT_EQ(read_as(pos, "中兵平六"), "c7d7");
  EXPECT_EQ(read_as(pos, "二兵平六"), "c7d7");
  EXPECT_EQ(read_as(pos, "后兵平六"), "c6d6");
  EXPECT_EQ(read_as(pos, "三兵平六"), "c6d6");
  EXPECT_EQ(written(pos, "c7d7", NotationStyle::Chinese), "中兵平六");
  // Four: front, 二, 三, rear.
  pos.set_fen("5k3/2P6/2P6/2P6/2P6/9/9/9/9/3K5 w - - 0 1");
  EXPECT_EQ(written(pos, "c8d8", NotationStyle::Chinese), "二兵平六");
  EXPECT_EQ(written(pos, "c7d7", NotationStyle::Chinese), "三兵平六");
  EXPECT_EQ(written(pos, "c6d6", NotationStyle::Chinese), "后兵平六");
  EXPECT_EQ(read_as(pos, "四兵平六"), "c6d6");
  // Soldiers doubled on two files: the file's number stands for the piece.
  pos.set_fen("5k3/9/2P1P4/2P1P4/9/9/9/9/9/3K5 w - - 0 1");
  EXPECT_EQ(written(pos, "c8d8", NotationStyle::Chinese), "前七平六");
  EXPECT_EQ(read_as(pos, "前七平六"), "c8d8");
  EXPECT_EQ(read_as(pos, "前兵七平六"), "c8d8");
  EXPECT_EQ(read_as(pos, "7+.6"), "c8d8");  // the federation's WXF
  EXPECT_EQ(read_as(pos, "后五平四"), "e7f7");
  // Elephants on one file keep it: the direction tells them apart.
  pos.set_fen("3k5/9/9/9/9/2B6/9/9/9/2B1K4 w - - 0 1");
  EXPECT_EQ(written(pos, "c5e3", NotationStyle::Chinese), "相七退五");
  EXPECT_EQ(written(pos, "c1e3", NotationStyle::Chinese), "相七进五");
  EXPECT_EQ(read_as(pos, "前相退五"), "c5e3");
  // WXF records sign front and rear as the Chinese do, though the front one could not follow.
  pos.set_fen("1R1k5/9/9/9/9/9/9/9/1R7/5K3 w - - 0 1");
  EXPECT_EQ(read_as(pos, "-R+7"), "b2b9");
  EXPECT_EQ(read_as(pos, "R-+7"), "b2b9");
  EXPECT_EQ(read_as(pos, "R8+7"), "b2b9");
  EXPECT_EQ(written(pos, "b2b9", NotationStyle::Chinese), "后车进七");
}

TEST(XiangqiNotation, IccsWrittenAndOnlyWhereTheVariantSaysSo) {
  EXPECT_EQ(run_palace("moves variants/xiangqi.yaml --notation iccs").out.substr(0, 40),
            "a0a1 a0a2 a3a4 b0a2 b0c2 b2a2 b2b1 b2b3 ");
  EXPECT_EQ(run_palace("moves variants/xiangqi.yaml --notation chinese").out.substr(0, 39), "仕六进五 仕四进五 兵一进一 ");
  const PalaceRun chess = run_palace("moves variants/chess.yaml --notation iccs 2>&1");
  EXPECT_EQ(chess.status, 2);
  EXPECT_EQ(chess.out, "error: chess has no iccs notation: its notation: section does not say iccs: true\n");
  const PalaceRun janggi = run_palace("moves variants/janggi.yaml --notation chinese 2>&1");
  EXPECT_EQ(janggi.out, "error: janggi has no chinese notation: its notation: section has no chinese: characters\n");
}

TEST(XiangqiNotation, IccsRecordsKnownByTheirTagOrARankZero) {
  const std::string file = temp_path("iccs-forms.pgn");
  write_file(file,
             "[Game \"Chinese Chess\"]\n\n1. h2e2 h9g7 2. h0g2 *\n\n"           // plain, a rank 0 in move 2
             "[Game \"Chinese Chess\"]\n\n1. H2-E2 H9-G7 2. H0-G2 *\n\n"        // the dashed form, no tag
             "[Game \"Chinese Chess\"]\n[Format \"ICCS\"]\n\n1. h2e2 h9g7 *\n\n"  // no rank 0, but the tag
             "[Game \"Chinese Chess\"]\n\n1. h2e2 h9g7 *\n\n"                    // neither: Palace's own
             "[Game \"Chinese Chess\"]\n\n1. h2e2 h9g7 2. h0g2 i9h9 3. h2h9 *\n");  // a refused move
  const PalaceRun run = run_palace("replay " + shell_quoted(file));
  EXPECT_EQ(run.status, 1);
  ASSERT_EQ(run.lines.size(), 6u) << run.out;
  EXPECT_NE(run.lines[0].find("game 1 (line 1): good: xiangqi, 3 plies, *"), std::string::npos) << run.out;
  EXPECT_NE(run.lines[1].find("game 2 (line 5): good: xiangqi, 3 plies, *"), std::string::npos) << run.out;
  EXPECT_NE(run.lines[2].find("game 3 (line 9): good: xiangqi, 2 plies, *"), std::string::npos) << run.out;
  EXPECT_NE(run.lines[3].find("game 4 (line 14): bad: xiangqi, move 1 (red) \"h2e2\": "), std::string::npos) << run.out;
  EXPECT_NE(run.lines[4].find("game 5 (line 18): bad: xiangqi, move 3 (red) \"h2h9\": "), std::string::npos) << run.out;
  EXPECT_EQ(run.lines[5], "5 games, 3 good, 2 bad");
}

TEST(XiangqiNotation, BadChineseMovesNameTheGameTheMoveAndWhy) {
  const std::string file = temp_path("chinese-bad.pgn");
  write_file(file,
             "[Game \"Chinese Chess\"]\n\n1. 炮二平五 马8进7 2. 车一进十 *\n\n"
             "[Game \"Chinese Chess\"]\n\n1. 炮二平五 马8进7 2. 马二进三 马7进9 *\n\n"
             "[Game \"Chinese Chess\"]\n\n1. 炮二平五 马８进７ 2. 马二进三 车９平８ *\n");
  const PalaceRun run = run_palace("replay " + shell_quoted(file));
  EXPECT_EQ(run.status, 1);
  const std::vector<std::string> expected = {
      file + " game 1 (line 1): bad: xiangqi, move 2 (red) \"车一进十\": \"车一进十\" is not a move (expected squares like c1e3)",
      file + " game 2 (line 5): bad: xiangqi, move 2 (black) \"马7进9\": horse on g8 is blocked at h8",
      file + " game 3 (line 9): good: xiangqi, 4 plies, *",
      "3 games, 1 good, 2 bad",
  };
  EXPECT_EQ(run.lines, expected) << run.out;
}

TEST(XiangqiNotation, LegalityTellsLikePiecesOnAFileApart) {
  Position pos(load_variant(variant_path("xiangqi")));
  // Red's cannons on file 5, at e6 and e3: only the rear one can go five forward (to take on e8).
  const std::string fen = "r3kab2/4a4/4b1n1c/p5Nrp/4CNn2/1cp6/P1P5P/4C4/9/R1BAKAB1R w - - 0 14";
  pos.set_fen(fen);
  EXPECT_EQ(read_as(pos, "炮五進五"), "e3e8");
  EXPECT_EQ(read_as(pos, "炮五进五"), "e3e8");
  EXPECT_EQ(read_as(pos, "C5+5"), "e3e8");
  EXPECT_EQ(read_as(pos, "后炮进五"), "e3e8");
  // Both can go one back.
  EXPECT_EQ(read_as(pos, "炮五退一"),
            "\"炮五退一\" is ambiguous: the front and rear cannons on file 5 can both make it; write 前炮退一 or 后炮退一");
  EXPECT_EQ(read_as(pos, "砲五退一"),
            "\"砲五退一\" is ambiguous: the front and rear cannons on file 5 can both make it; write 前炮退一 or 後炮退一");
  EXPECT_EQ(read_as(pos, "C5-1"), "\"C5-1\" is ambiguous: the front and rear cannons on file 5 can both make it; write C+-1 or C--1");
  EXPECT_EQ(read_as(pos, "前炮退一"), "e6e5");
  const PalaceRun run = run_palace("status variants/xiangqi.yaml --fen '" + fen + "' --moves 炮五進五");
  EXPECT_EQ(run.status, 0) << run.out;
  EXPECT_EQ(run.lines.back(), "unfinished");
  const PalaceRun refused = run_palace("status variants/xiangqi.yaml --fen '" + fen + "' --moves 炮五退一 2>&1");
  EXPECT_EQ(refused.status, 2);
  EXPECT_EQ(refused.lines, std::vector<std::string>{"error: move 1 \"炮五退一\": \"炮五退一\" is ambiguous: the front and rear cannons on "
                                                    "file 5 can both make it; write 前炮退一 or 后炮退一"});
  // From a master game of Hu Ronghua (the collection tests/records/xiangqi-wukong-iccs.source names):
  // horses on b5 and b7 both reach file 7; the ambiguity is said, not why some other horse move is
  // illegal.
  const PalaceRun horses = run_palace(
      "status variants/xiangqi.yaml --fen '3ak1b2/4a4/4b1P2/pNp4Rp/9/1NP6/P2r1cp1n/4B4/4A4/2BAK4 w - - 6 31' --moves 马八进七 2>&1");
  EXPECT_EQ(horses.out,
            "error: move 1 \"马八进七\": \"马八进七\" is ambiguous: the front and rear horses on file 8 can both make it; write 前马进七 or "
            "后马进七\n");
}

TEST(XiangqiNotation, Big5AndGbkRecordsAreToldApart) {
  // Games in the traditional script, saved as Big5 (with Hong Kong's characters: 俥 and 傌 are not
  // in plain Big5) and as GBK: GBK reads Big5's bytes too, as kana and rare characters, so only the
  // byte statistics pick the right one.
  const std::string utf8 = temp_path("traditional.pgn"), big5 = temp_path("big5.pgn"), gbk = temp_path("gbk.pgn");
  const PalaceRun made = run_shell(shell_quoted(PALACE_BINARY) + " convert " +
                                   shell_quoted(source_path("tests/records/xiangqi-wukong-chinese.pgn")) +
                                   " --variant " + shell_quoted(source_path("variants/xiangqi.yaml")) +
                                   " --notation chinese-traditional > " + shell_quoted(utf8) + " && iconv -f UTF-8 -t BIG5-HKSCS " +
                                   shell_quoted(utf8) + " > " + shell_quoted(big5) + " && iconv -f UTF-8 -t GBK " +
                                   shell_quoted(utf8) + " > " + shell_quoted(gbk) + " && cmp -s " + shell_quoted(big5) + " " +
                                   shell_quoted(gbk) + "; echo $?");
  ASSERT_EQ(made.lines, std::vector<std::string>{"1"}) << made.out;
  for (const std::string& file : {big5, gbk}) {
    const PalaceRun run = run_palace("convert " + shell_quoted(file) + " --variant variants/xiangqi.yaml --notation chinese-traditional");
    EXPECT_EQ(run.status, 0) << file << ": " << run.out;
    EXPECT_EQ(run.out, run_shell("cat " + shell_quoted(utf8)).out) << file;
  }
}

TEST(XiangqiNotation, CollectionSamplesReplayGood) {
  const PalaceRun run = run_palace(
      "replay tests/records/xiangqi-wukong-iccs.pgn tests/records/xiangqi-wukong-chinese.pgn "
      "tests/records/xiangqi-wukong-wxf.pgn tests/records/xiangqi-js-iccs.pgn tests/records/xiangqi-js-chinese.pgn "
      "tests/records/xiangqi-cchess-gbk.pgn tests/records/xiangqi-variant-chess-wxf.pgn "
      "tests/records/xiangqi-wxc-2015-wxf.pgn --variant variants/xiangqi.yaml");
  EXPECT_EQ(run.status, 0) << run.out;
  ASSERT_FALSE(run.lines.empty());
  EXPECT_EQ(run.lines.back(), "23 games, 23 good, 0 bad") << run.out;
  EXPECT_EQ(run.lines.front(), "tests/records/xiangqi-wukong-iccs.pgn game 1 (line 1): good: xiangqi, 65 plies, *");
  EXPECT_EQ(run.lines[18], "tests/records/xiangqi-js-chinese.pgn game 4 (line 184): good: xiangqi, 75 plies, 1-0 (not decided on the board)");
  EXPECT_EQ(run.lines[19], "tests/records/xiangqi-cchess-gbk.pgn game 1 (line 1): good: xiangqi, 102 plies, 1/2-1/2 (not decided on the board)");
}

TEST(XiangqiNotation, ConversionsRoundTrip) {
  const std::string dir = "tests/records/";
  auto convert = [](const std::string& file, const std::string& notation) {
    const PalaceRun run = run_palace("convert " + shell_quoted(file) + " --variant variants/xiangqi.yaml --notation " + notation);
    EXPECT_EQ(run.status, 0) << file << " " << notation;
    return run.out;
  };
  // The same games in ICCS and in Chinese give the same moves.
  const std::string iccs = movetext(convert(dir + "xiangqi-js-iccs.pgn", "iccs"));
  EXPECT_EQ(iccs.substr(0, 30), "h2e2 h9g7 h0g2 i9h9 g3g4 h7i7 ");
  EXPECT_EQ(movetext(convert(dir + "xiangqi-js-chinese.pgn", "iccs")), iccs);
  // Chinese, then back to ICCS, WXF and the other script: the moves come back.
  for (const std::string notation : {"chinese", "chinese-traditional", "wxf"}) {
    const std::string out = temp_path("round-" + notation + ".pgn");
    write_file(out, convert(dir + "xiangqi-js-iccs.pgn", notation));
    EXPECT_EQ(movetext(convert(out, "iccs")), iccs) << notation;
  }
  // Written Chinese is the collection's own spelling, move for move.
  EXPECT_EQ(movetext(convert(dir + "xiangqi-wukong-chinese.pgn", "chinese")),
            movetext(std::string(std::istreambuf_iterator<char>(std::ifstream(source_path(dir + "xiangqi-wukong-chinese.pgn")).rdbuf()), {})));
}

TEST(Pgn, TagsWithUnescapedQuotesAndFootersAfterTheLastGame) {
  const auto games = read_pgn(
      "[Event \"\"Huangshan Cup\" 2002\"]\n\n1. e4 *\n======================\nhttp://www.xqbase.com/\n\n"
      "[Event \"next\"]\n\n1. d4 *\n");
  ASSERT_EQ(games.size(), 2u);
  EXPECT_EQ(*games[0].tag("Event"), "\"Huangshan Cup\" 2002");
  EXPECT_TRUE(games[0].problem.empty()) << games[0].problem;
  EXPECT_EQ(games[1].moves, std::vector<std::string>{"d4"});
}

}  // namespace
}  // namespace palace::test
