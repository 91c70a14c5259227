// Game records end to end: famous games typed from public sources (tests/records/) replay to their
// recorded results, conversion round-trips, and bad records are reported one by one, never a crash.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <iterator>

#include "notation/gib.h"
#include "notation/pgn.h"
#include "notation/replay.h"
#include "test_support.h"

namespace palace::test {
namespace {

void write_file(const std::string& path, const std::string& text) {
  std::ofstream out(path, std::ios::binary);
  out << text;
}

TEST(Records, FamousGamesReplayToTheirRecordedResults) {
  const PalaceRun run = run_palace("replay tests/records/chess-immortal-game.pgn tests/records/xiangqi-li-wang-2004.pgn "
                                   "tests/records/janggi-kakao-2020.gib tests/records/janggi-pl-opening.pgn");
  EXPECT_EQ(run.status, 0) << run.out;
  ASSERT_EQ(run.lines.size(), 5u) << run.out;
  EXPECT_EQ(run.lines[0], "tests/records/chess-immortal-game.pgn game 1 (line 4): good: chess, 45 plies, 1-0: white wins: checkmate");
  EXPECT_EQ(run.lines[1], "tests/records/xiangqi-li-wang-2004.pgn game 1 (line 5): good: xiangqi, 31 plies, 1/2-1/2 (not decided on the board)");
  EXPECT_EQ(run.lines[2], "tests/records/janggi-kakao-2020.gib game 1 (line 1): good: janggi-kakao, 23 plies, 0-1 (Han wins on time; not decided on the board)");
  EXPECT_EQ(run.lines[3], "tests/records/janggi-pl-opening.pgn game 1 (line 4): good: janggi, 12 plies, *");
  EXPECT_EQ(run.lines[4], "4 games, 4 good, 0 bad");
}

}  // namespace
}  // namespace palace::test

namespace palace::test {
namespace {

TEST(Records, BadRecordsAreReportedGameByGameNeverACrash) {
  const std::string dir = temp_path("records") + "/";
  std::filesystem::create_directories(dir);
  write_file(dir + "bad.pgn",
             "[Event \"x\"]\n[Variant \"no-such-game\"]\n\n1. e4 *\n\n[Event \"illegal\"]\n\n1. e4 e5 2. Ke3 *\n\n"
             "[Event \"truncated\"]\n\n1. e4 {never closed\n");
  write_file(dir + "mismatch.pgn", "[Result \"1/2-1/2\"]\n\n1. f3 e5 2. g4 Qh4# 1/2-1/2\n");
  write_file(dir + "binary.pgn", std::string("\xff\xfe\x00garbage", 10));
  write_file(dir + "garbage.pgn", "@@@ ### !!!\n");
  write_file(dir + "empty.pgn", "");
  write_file(dir + "bad.gib", "\x80\x80\x80");
  write_file(dir + "tag.pgn", "[Event \"unclosed\n\n1. e4 *\n");
  const PalaceRun run = run_palace("replay bad.pgn mismatch.pgn binary.pgn garbage.pgn empty.pgn missing.pgn bad.gib tag.pgn",
                                   dir);
  EXPECT_EQ(run.status, 1);
  const std::vector<std::string> expected = {
      "bad.pgn game 1 (line 1): bad: unknown variant \"no-such-game\" (give one with --variant)",
      "bad.pgn game 2 (line 6): bad: chess, move 2 (white) \"Ke3\": a king cannot move from e1 to e3",
      "bad.pgn game 3 (line 10): bad: chess, 1 ply, then unreadable: line 12: a comment { is never closed",
      "mismatch.pgn game 1 (line 1): bad: chess, 4 plies, 1/2-1/2 recorded but the board says 0-1: black wins: checkmate",
      "binary.pgn: bad: not UTF-8, GB18030, Big5 or Shift_JIS text (a .gib file may be cp949)",
      "garbage.pgn game 1 (line 1): bad: chess, move 1 (white) \"@@@\": \"@@@\" is not a move (expected squares like d2d4)",
      "empty.pgn: bad: no game in it",
      "missing.pgn: bad: cannot open file",
      "bad.gib: bad: not UTF-8 or cp949 text (byte 1)",
      "tag.pgn game 1 (line 1): bad: chess, 0 plies, then unreadable: line 1: a tag is not [Name \"value\"]",
      "10 games, 0 good, 10 bad",
  };
  EXPECT_EQ(run.lines, expected) << run.out;
}

TEST(Records, AGibInCp949ReadsAsInUtf8) {
  const std::string cp949 = temp_path("cp949.gib");
  const PalaceRun converted =
      run_shell("iconv -f UTF-8 -t CP949 " + shell_quoted(source_path("tests/records/janggi-kakao-2020.gib")) + " > " +
                shell_quoted(cp949) + " && cmp -s " + shell_quoted(cp949) + " " +
                shell_quoted(source_path("tests/records/janggi-kakao-2020.gib")) + "; echo $?");
  ASSERT_EQ(converted.lines, std::vector<std::string>{"1"}) << "the cp949 copy must differ from the UTF-8 file";
  const PalaceRun run = run_palace("replay " + shell_quoted(cp949));
  EXPECT_EQ(run.status, 0) << run.out;
  EXPECT_EQ(run.lines.back(), "1 game, 1 good, 0 bad");
  EXPECT_NE(run.out.find("good: janggi-kakao, 23 plies, 0-1 (Han wins on time; not decided on the board)"), std::string::npos)
      << run.out;
}

TEST(Records, TheVariantOptionOverridesTheTags) {
  const PalaceRun run = run_palace("replay tests/records/janggi-pl-opening.pgn --variant variants/janggi-modern.yaml");
  EXPECT_EQ(run.status, 0) << run.out;
  EXPECT_EQ(run.lines.front(), "tests/records/janggi-pl-opening.pgn game 1 (line 4): good: janggi-modern, 12 plies, *");
  const PalaceRun wrong = run_palace("replay tests/records/janggi-pl-opening.pgn --variant variants/xiangqi.yaml");
  EXPECT_EQ(wrong.status, 1) << wrong.out;
  EXPECT_EQ(wrong.lines.back(), "1 game, 0 good, 1 bad");
}

// Converting writes a PGN that replays to the same game, in every notation the variant has.
TEST(Records, ConvertedRecordsReplayAlike) {
  const std::vector<std::pair<std::string, std::string>> cases = {
      {"chess-immortal-game.pgn", "san"},     {"chess-immortal-game.pgn", "uci"},
      {"xiangqi-li-wang-2004.pgn", "wxf"},    {"xiangqi-li-wang-2004.pgn", "san"},
      {"janggi-kakao-2020.gib", "janggi"},    {"janggi-kakao-2020.gib", "korean"},
      {"janggi-pl-opening.pgn", "san"},
  };
  for (const auto& [file, notation] : cases) {
    const std::string out = temp_path(notation + "-" + file + ".pgn");
    const PalaceRun convert =
        run_palace("convert tests/records/" + file + " --to pgn --notation " + notation + " > " + shell_quoted(out));
    ASSERT_EQ(convert.status, 0) << file << " " << notation;
    const PalaceRun replay = run_palace("replay " + shell_quoted(out));
    EXPECT_EQ(replay.status, 0) << file << " " << notation << ": " << replay.out;
    EXPECT_EQ(replay.lines.back(), "1 game, 1 good, 0 bad") << file << " " << notation;
  }
}

TEST(Records, ConvertWritesTheSevenTagRosterAndTheNativeNotation) {
  const PalaceRun run = run_palace("convert tests/records/janggi-kakao-2020.gib --to pgn");
  ASSERT_EQ(run.status, 0) << run.out;
  ASSERT_GE(run.lines.size(), 20u);
  EXPECT_EQ(run.lines[0], "[Event \"온라인 카장\"]");
  EXPECT_EQ(run.lines[4], "[White \"수희짱쨩 9단\"]");
  EXPECT_EQ(run.lines[6], "[Result \"0-1\"]");
  EXPECT_NE(run.out.find("[ChoFormation \"left-elephant\"]\n[HanFormation \"inner-elephant\"]\n[Variant \"janggi-kakao\"]\n"
                         "[Termination \"Han wins on time\"]\n[SetUp \"1\"]\n[FEN \"RBNA1ABNR/4K4/1C5C1/P1P1P1P1P/9/9/p1p1p1p1p/1c5c1/4k4/rnba1abnr w - - 0 1\"]\n"),
            std::string::npos)
      << run.out;
  EXPECT_NE(run.out.find("\n1. P79-78 H12-33 2. H08-87 C32-35 "), std::string::npos) << run.out;
  EXPECT_NE(run.out.find(" R32-22+ A14-24 12. C85-89 0-1\n"), std::string::npos) << run.out;

  const PalaceRun xiangqi = run_palace("convert tests/records/xiangqi-li-wang-2004.pgn --to pgn");
  EXPECT_NE(xiangqi.out.find("[Format \"WXF\"]"), std::string::npos) << xiangqi.out;
  EXPECT_NE(xiangqi.out.find("\n1. C2=4 C2=6 2. H2+3 H8+9 "), std::string::npos) << xiangqi.out;
  EXPECT_NE(xiangqi.out.find(" 16. C-+1 1/2-1/2\n"), std::string::npos) << xiangqi.out;

  // A game the board decided gets its [Termination] from the board.
  const std::string mate = temp_path("mate.pgn");
  write_file(mate, "1. f3 e5 2. g4 Qh4# 0-1\n");
  const PalaceRun fools = run_palace("convert " + shell_quoted(mate) + " --to pgn");
  EXPECT_NE(fools.out.find("[Result \"0-1\"]\n[Termination \"checkmate\"]\n\n1. f3 e5 2. g4 Qh4# 0-1\n"), std::string::npos)
      << fools.out;

  const PalaceRun bad = run_palace("convert tests/records/janggi-pl-opening.pgn --to pgn --variant variants/chess.yaml 2>&1");
  EXPECT_EQ(bad.status, 2);
  EXPECT_EQ(bad.lines.front().rfind("error: tests/records/janggi-pl-opening.pgn game 1 (line 4): move 1 (white)", 0), 0u)
      << bad.out;
}

TEST(Records, IccsMovesReadWhereTheFormatSaysSo) {
  const std::string file = temp_path("iccs.pgn");
  write_file(file, "[Game \"Chinese Chess\"]\n[Format \"ICCS\"]\n[Result \"*\"]\n\n1. H2-E2 H9-G7 2. H0-G2 *\n");
  const PalaceRun run = run_palace("replay " + shell_quoted(file));
  EXPECT_EQ(run.status, 0) << run.out;
  EXPECT_NE(run.lines.front().find("good: xiangqi, 3 plies, *"), std::string::npos) << run.out;
}

TEST(Records, MovesInEveryNotationListedOnOneLine) {
  EXPECT_EQ(run_palace("moves variants/chess.yaml --notation san").out,
            "Na3 Nc3 Nf3 Nh3 a3 a4 b3 b4 c3 c4 d3 d4 e3 e4 f3 f4 g3 g4 h3 h4\n");
  EXPECT_EQ(run_palace("moves variants/janggi.yaml --notation janggi").out,
            "A04-05 A04-94 A06-05 A06-96 H02-81 H02-83 H08-87 H08-89 K95-05 K95-84 K95-85 K95-86 K95-94 K95-96 P71-61 "
            "P71-72 P73-63 P73-72 P73-74 P75-65 P75-74 P75-76 P77-67 P77-76 P77-78 P79-69 P79-78 R01-81 R01-91 R09-89 "
            "R09-99\n");
  const PalaceRun wxf = run_palace("moves variants/xiangqi.yaml --notation wxf");
  EXPECT_EQ(wxf.out.substr(0, 40), "A4+5 A6+5 C2+1 C2+2 C2+3 C2+4 C2+7 C2-1 ");
  EXPECT_EQ(run_palace("moves variants/chess.yaml").out.substr(0, 30), "a2a3 a2a4 b1a3 b1c3 b2b3 b2b4 ");
  const PalaceRun bad = run_palace("moves variants/chess.yaml --notation fen 2>&1");
  EXPECT_EQ(bad.status, 2);
}

TEST(Records, NullMovesArePassesWhereTheGameAllowsThemElseRefusedAsSuch) {
  const std::string dir = temp_path("null-moves") + "/";
  std::filesystem::create_directories(dir);
  write_file(dir + "chess.pgn", "[Event \"x\"]\n\n1. e4 -- 2. d4 *\n\n[Event \"y\"]\n\n1. e4 e5 2. 0000 *\n");
  write_file(dir + "janggi.pgn",
             "[Variant \"janggi-modern\"]\n\n1. -- 12마33 2. P79-78 Z0 3. H08-87 @@@@ *\n");
  const PalaceRun run = run_palace("replay chess.pgn janggi.pgn 2>&1", dir);
  EXPECT_EQ(run.status, 1);
  const std::vector<std::string> expected = {
      "chess.pgn game 1 (line 1): bad: chess, move 1 (black) \"--\": \"--\" is a pass: passing is not allowed in this variant",
      "chess.pgn game 2 (line 5): bad: chess, move 2 (white) \"0000\": \"0000\" is a pass: passing is not allowed in this variant",
      "janggi.pgn game 1 (line 1): good: janggi-modern, 6 plies, *",
      "3 games, 1 good, 2 bad",
  };
  EXPECT_EQ(run.lines, expected) << run.out;
  const PalaceRun status = run_palace("status variants/janggi-modern.yaml --moves P79-78 @@@@ 2>&1");
  EXPECT_EQ(status.status, 0) << status.out;
  const PalaceRun refused = run_palace("status variants/chess.yaml --moves e4 Z0 2>&1");
  EXPECT_EQ(refused.status, 2);
  EXPECT_EQ(refused.out, "error: move 2 \"Z0\": \"Z0\" is a pass: passing is not allowed in this variant\n");
}

TEST(Records, StatusMovesAcceptEveryNotation) {
  const PalaceRun chess = run_palace("status variants/chess.yaml --moves e4 e5 Nf3 Nc6 Bb5 a6 O-O");
  EXPECT_EQ(chess.lines.front(), "fen: r1bqkbnr/1ppp1ppp/p1n5/1B2p3/4P3/5N2/PPPP1PPP/RNBQ1RK1 b kq - 1 4") << chess.out;
  const PalaceRun janggi = run_palace("status variants/janggi.yaml --moves P79-78 12마33 H08-87");
  EXPECT_EQ(janggi.lines.front(), "fen: RNBA1AB1R/4K4/1C4NC1/P1P1P1PP1/9/9/p1p1p1p1p/1cn4c1/4k4/r1ba1abnr b - - 3 2") << janggi.out;
  const PalaceRun refused = run_palace("status variants/janggi.yaml --moves P79-78 12마33 Hc3 2>&1");
  EXPECT_EQ(refused.status, 2);
  EXPECT_EQ(refused.out, "error: move 3 \"Hc3\": a horse cannot move from b10 to c3\n");
}

}  // namespace
}  // namespace palace::test

namespace palace::test {
namespace {

TEST(Records, PlayShowsMovesInTheNotationAsked) {
  const PalaceRun run = run_shell("printf 'Nf3\\nd7d5\\nmoves\\nquit\\n' | " + shell_quoted(PALACE_BINARY) + " play " +
                                  shell_quoted(variant_path("chess")) + " --notation san");
  EXPECT_NE(run.out.find("\nWhite plays Nf3\n"), std::string::npos) << run.out;
  EXPECT_NE(run.out.find("\nBlack plays d5\n"), std::string::npos) << run.out;
  EXPECT_NE(run.out.find("\nNa3 Nc3 Nd4 Ne5 Ng1 Ng5 Nh4 Rg1 a3 a4 b3 "), std::string::npos) << run.out;
  const PalaceRun plain = run_shell("printf 'Nf3\\nquit\\n' | " + shell_quoted(PALACE_BINARY) + " play " +
                                    shell_quoted(variant_path("chess")));
  EXPECT_NE(plain.out.find("\nWhite plays g1f3\n"), std::string::npos) << plain.out;
}

}  // namespace
}  // namespace palace::test

namespace palace::test {
namespace {

// Real .gib files from public collections (tests/records/*.source): captures ("66馬78卒", "09차49타졸"),
// checks, passes (한수쉼), side marks ("41漢兵42"), "<12>" after moves, letter squares ("i3卒h3"),
// cp949 with CRLF, and the result words reported beside the board's verdict.
TEST(Records, RealGibFilesReplayWithNoBadGame) {
  const PalaceRun run = run_palace("replay tests/records/janggi-kakao-2020-sample.gib tests/records/janggi-kakao-marked-sample.gib "
                                   "tests/records/janggi-online-sample.gib");
  EXPECT_EQ(run.status, 0) << run.out;
  ASSERT_EQ(run.lines.size(), 17u) << run.out;
  EXPECT_EQ(run.lines[0], "tests/records/janggi-kakao-2020-sample.gib game 1 (line 1): good: janggi-kakao, 116 plies, 0-1 "
                          "(Han wins outright): han wins: checkmate");
  EXPECT_EQ(run.lines[4], "tests/records/janggi-kakao-2020-sample.gib game 5 (line 138): good: janggi-kakao, 91 plies, 1-0 "
                          "(Cho wins outright; not decided on the board)");
  EXPECT_EQ(run.lines[5], "tests/records/janggi-kakao-2020-sample.gib game 6 (line 167): good: janggi-kakao, 156 plies, 0-1 "
                          "(Han wins on time; not decided on the board)");
  EXPECT_EQ(run.lines[10], "tests/records/janggi-kakao-marked-sample.gib game 5 (line 95): good: janggi-kakao, 133 plies, 1-0 "
                          "(Cho wins on points; not decided on the board)");
  EXPECT_EQ(run.lines[11], "tests/records/janggi-online-sample.gib game 1 (line 1): good: janggi-kakao, 97 plies, 0-1 "
                           "(Han wins on points; not decided on the board)");
  EXPECT_EQ(run.lines[14], "tests/records/janggi-online-sample.gib game 4 (line 85): good: janggi-kakao, 127 plies, 1-0 "
                           "(Cho wins by checkmate): cho wins: checkmate");
  EXPECT_EQ(run.lines.back(), "16 games, 16 good, 0 bad");
}

// A real Kakao game that breaks the reference's back-and-forth rule (tests/records/janggi-kakao-2020-shuttle.source):
// janggi-kakao follows the service, which played on; the reference's rule set
// (tests/rules/variants/janggimodern.yaml) ends the game against the side whose piece went back and
// forth four times after arriving, so its replay notes each point where that ruling fell afresh.
TEST(Records, AKakaoGameThatBreaksTheReferencesBackAndForthRuleReplaysAsTheServicePlayedIt) {
  const PalaceRun service = run_palace("replay tests/records/janggi-kakao-2020-shuttle.gib");
  EXPECT_EQ(service.status, 0) << service.out;
  EXPECT_EQ(service.lines.back(), "1 game, 1 good, 0 bad") << service.out;
  const PalaceRun reference =
      run_palace("replay tests/records/janggi-kakao-2020-shuttle.gib --variant tests/rules/variants/janggimodern.yaml");
  EXPECT_EQ(reference.status, 0) << reference.out;
  const std::string game = "tests/records/janggi-kakao-2020-shuttle.gib game 1 (line 1): ";
  const std::vector<std::string> expected = {
      game + "good: janggimodern-reference, 201 plies, 1-0 (Cho wins on points; not decided on the board)",
      game + "note: move 53 (cho) \"13車23장군\": han wins: moving back and forth; the game went on",
      game + "note: move 62 (cho) \"22車12장군\": han wins: moving back and forth; the game went on",
      game + "note: move 83 (cho) \"22車12장군\": han wins: moving back and forth; the game went on",
      game + "note: move 96 (cho) \"22車12장군\": han wins: moving back and forth; the game went on",
      "1 game, 1 good, 0 bad",
  };
  EXPECT_EQ(reference.lines, expected) << reference.out;
}

// Master games that kept up a perpetual after the rules bound its side to vary: a record is what
// the arbiter allowed, so each replays to its end, with a note where the Asian rules would have
// ruled the loss (tests/records/xiangqi-liu-sun-2001-perpetual.source, xiangqi-yan-liu-1999-chase.source).
TEST(Records, AMasterGameThatKeptUpAPerpetualAfterBeingBoundToVaryPlaysOnWithANote) {
  const PalaceRun run = run_palace("replay tests/records/xiangqi-liu-sun-2001-perpetual.pgn tests/records/xiangqi-yan-liu-1999-chase.pgn "
                                   "--variant variants/xiangqi.yaml");
  EXPECT_EQ(run.status, 0) << run.out;
  const std::vector<std::string> expected = {
      "tests/records/xiangqi-liu-sun-2001-perpetual.pgn game 1 (line 1): good: xiangqi, 134 plies, *",
      "tests/records/xiangqi-liu-sun-2001-perpetual.pgn game 1 (line 1): note: move 41 (black) \"a0a1\": red wins: perpetual "
      "check (Black has given check with every move for 3 cycles, was bound to vary and did not); the game went on",
      "tests/records/xiangqi-yan-liu-1999-chase.pgn game 1 (line 1): good: xiangqi, 58 plies, *",
      "tests/records/xiangqi-yan-liu-1999-chase.pgn game 1 (line 1): note: move 28 (red) \"h6g6\": black wins: perpetual "
      "chase (Red has chased the cannon on g9 with every move for 3 cycles, was bound to vary and did not); the game went on",
      "2 games, 2 good, 0 bad",
  };
  EXPECT_EQ(run.lines, expected) << run.out;
}

// Where the rules refuse the move itself (janggi-modern's perpetual check is illegal), the record's
// move is played all the same, noted in the refusal's words; a move the board refuses stays a fault.
TEST(Records, AMoveTheRulesOfHistoryRefuseIsNotedAndOneTheBoardRefusesIsBad) {
  const std::string dir = temp_path("ruled") + "/";
  std::filesystem::create_directories(dir);
  const std::string start = "[FEN \"3K5/9/9/9/9/9/9/9/5k3/8R w - - 0 1\"]\n\n1. i1i2 f2f1 2. i2i1 f1f2 3. i1i2 f2f1 4. i2i1 f1f2 5. i1i2 ";
  write_file(dir + "refused.pgn", start + "f2f1 *\n");
  write_file(dir + "illegal.pgn", start + "f2f5 *\n");
  // A chess game set up past the move limit: the ruling stands before the first move.
  write_file(dir + "limit.pgn", "[FEN \"4k3/8/8/8/8/8/8/4K3 w - - 150 90\"]\n\n90. Kd1 Kd8 *\n");
  const PalaceRun run = run_palace("replay refused.pgn illegal.pgn --variant " + shell_quoted(source_path("variants/janggi-modern.yaml")), dir);
  EXPECT_EQ(run.status, 1);
  const PalaceRun limit = run_palace("replay limit.pgn", dir);
  EXPECT_EQ(limit.status, 0);
  EXPECT_EQ(limit.lines, (std::vector<std::string>{"limit.pgn game 1 (line 1): good: chess, 2 plies, *: draw: move limit",
                                                   "limit.pgn game 1 (line 1): note: the start position: draw: move limit; "
                                                   "the game went on",
                                                   "1 game, 1 good, 0 bad"}))
      << limit.out;
  const std::string note = "note: move 5 (cho) \"i1i2\": it would repeat the position, every one of your moves a check "
                           "(perpetual check); the game went on";
  const std::vector<std::string> expected = {
      "refused.pgn game 1 (line 1): good: janggi-modern, 10 plies, *",
      "refused.pgn game 1 (line 1): " + note,
      "illegal.pgn game 1 (line 1): bad: janggi-modern, move 5 (han) \"f2f5\": a general cannot move from f2 to f5",
      "illegal.pgn game 1 (line 1): " + note,
      "2 games, 1 good, 1 bad",
  };
  EXPECT_EQ(run.lines, expected) << run.out;
}

// Games people and engines played, from python-chess's test data: chess, Chess960, crazyhouse and
// antichess, each in the variant its [Variant] tag names; the mates are the board's.
TEST(Records, RealChessFamilyGamesReplayWithTheirResults) {
  const PalaceRun run = run_palace(
      "replay tests/records/chess-kasparov-deep-blue-1997.pgn tests/records/chess960-cutechess.pgn "
      "tests/records/crazyhouse-lichess.pgn tests/records/antichess-programfox.pgn");
  EXPECT_EQ(run.status, 0) << run.out;
  ASSERT_EQ(run.lines.size(), 14u) << run.out;
  EXPECT_EQ(run.lines[6], "tests/records/chess960-cutechess.pgn game 1 (line 1): good: chess960, 120 plies, 0-1: black wins: checkmate");
  EXPECT_EQ(run.lines[10], "tests/records/crazyhouse-lichess.pgn game 1 (line 1): good: crazyhouse, 48 plies, 0-1: black wins: checkmate");
  EXPECT_EQ(run.lines[11], "tests/records/antichess-programfox.pgn game 1 (line 1): good: antichess, 62 plies, 1-0: white wins: stalemate");
  EXPECT_EQ(run.lines.back(), "13 games, 13 good, 0 bad");
}

// /work/shared/repro/serve-and-hooks/records/bom.gib and bom.pgn: a byte-order mark made a bad game 1.
TEST(Records, AByteOrderMarkStartsNoGame) {
  const std::string gib = temp_path("bom.gib"), pgn = temp_path("bom.pgn");
  std::ifstream in(source_path("tests/records/janggi-kakao-2020.gib"), std::ios::binary);
  const std::string text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  write_file(gib, "\xEF\xBB\xBF" + text);
  write_file(pgn, "\xEF\xBB\xBF[Event \"t\"]\n[Result \"*\"]\n\n1. e4 e5 2. Nf3 Nc6 *\n");
  const PalaceRun run = run_palace("replay " + shell_quoted(gib) + " " + shell_quoted(pgn));
  EXPECT_EQ(run.status, 0) << run.out;
  ASSERT_EQ(run.lines.size(), 3u) << run.out;
  EXPECT_NE(run.lines[0].find("game 1 (line 1): good: janggi-kakao, 23 plies, 0-1"), std::string::npos) << run.out;
  EXPECT_NE(run.lines[1].find("game 1 (line 1): good: chess, 4 plies, *"), std::string::npos) << run.out;
  EXPECT_EQ(run.lines[2], "2 games, 2 good, 0 bad");
}

// /work/shared/repro/serve-and-hooks/records/bad_formation.gib: an unknown formation was reported as
// a move error at move 4.
TEST(Records, AnUnknownFormationIsReportedAsTheFormations) {
  std::ifstream in(source_path("tests/records/janggi-kakao-2020.gib"), std::ios::binary);
  std::string text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  const std::string formation = "[초차림 \"상마상마\"]";
  text.replace(text.find(formation), formation.size(), "[초차림 \"상상상상\"]");
  const std::string file = temp_path("bad_formation.gib");
  write_file(file, text);
  const PalaceRun run = run_palace("replay " + shell_quoted(file));
  EXPECT_EQ(run.status, 1);
  ASSERT_EQ(run.lines.size(), 2u) << run.out;
  EXPECT_EQ(run.lines[0], file + " game 1 (line 1): bad: [초차림 \"상상상상\"] is none of janggi-kakao's formations "
                                 "(inner-elephant, outer-elephant, left-elephant, right-elephant)");
}

TEST(Records, ABadMoveInTheSecondOfThreeGibGamesIsReportedAlone) {
  std::ifstream in(source_path("tests/records/janggi-kakao-2020.gib"), std::ios::binary);
  const std::string game((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  std::string bad = game;
  bad.replace(bad.find("2. 12馬33"), std::string("2. 12馬33").size(), "2. 12馬34");
  const std::string file = temp_path("three.gib");
  write_file(file, game + "\n" + bad + "\n" + game);
  const PalaceRun run = run_palace("replay " + shell_quoted(file));
  EXPECT_EQ(run.status, 1);
  const std::vector<std::string> expected = {
      file + " game 1 (line 1): good: janggi-kakao, 23 plies, 0-1 (Han wins on time; not decided on the board)",
      file + " game 2 (line 18): bad: janggi-kakao, move 1 (han) \"12馬34\": a horse cannot move from b1 to d3",
      file + " game 3 (line 35): good: janggi-kakao, 23 plies, 0-1 (Han wins on time; not decided on the board)",
      "3 games, 2 good, 1 bad",
  };
  EXPECT_EQ(run.lines, expected) << run.out;
}

TEST(Records, AHandicapBoardDrawingIsRefusedNotGuessed) {
  const std::string file = temp_path("handicap.gib");
  write_file(file, "[초차림 \"마상상마\"]\n[판 \"차마상사1사상마차/4장/1포5포/졸1졸1졸1졸1졸///兵1兵1兵1兵1兵/1包5包/4將/車馬象3馬象車 한 접장기\"]\n\n"
                   "1. 12마33\n");
  const PalaceRun run = run_palace("replay " + shell_quoted(file));
  EXPECT_EQ(run.status, 1);
  ASSERT_FALSE(run.lines.empty()) << run.out;
  EXPECT_EQ(run.lines[0], file + " game 1 (line 1): bad: [판]: a board drawing is not read (give a [FEN])");
}

// A .gib converts to PGN and back to a .gib that replays to the same moves.
TEST(Records, AGibConvertsToPgnAndBackToTheSameMoves) {
  const std::string pgn = temp_path("round.pgn"), gib = temp_path("round.gib");
  const std::string sample = "tests/records/janggi-kakao-2020-sample.gib";
  ASSERT_EQ(run_palace("convert " + sample + " --to pgn > " + shell_quoted(pgn)).status, 0);
  ASSERT_EQ(run_palace("convert " + shell_quoted(pgn) + " --to gib > " + shell_quoted(gib)).status, 0);
  const PalaceRun original = run_palace("convert " + sample + " --to pgn --notation uci");
  const PalaceRun again = run_palace("convert " + shell_quoted(gib) + " --to pgn --notation uci");
  auto movetext = [](const PalaceRun& run) {
    std::string out;
    for (const std::string& line : run.lines)
      if (!line.empty() && line[0] != '[') out += line + "\n";
    return out;
  };
  EXPECT_FALSE(movetext(original).empty());
  EXPECT_EQ(movetext(again), movetext(original));
  const PalaceRun written = run_palace("convert " + sample + " --to gib");
  EXPECT_NE(written.out.find("[초차림 \"마상상마\"]\n"), std::string::npos) << written.out;
  EXPECT_NE(written.out.find("\n1. 79졸78 2. "), std::string::npos) << written.out;
  EXPECT_NE(written.out.find(" 한수쉼 "), std::string::npos) << written.out;
  EXPECT_EQ(run_palace("replay " + shell_quoted(gib)).lines.back(), "6 games, 6 good, 0 bad");
}

}  // namespace
}  // namespace palace::test
