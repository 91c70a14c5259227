// Regression tests for the inputs of the fourth audit (issue 53, tests/repro/audit-4/) that reach
// the loader, the records, the move text and the engine protocols: each reads the input as filed,
// or one built the same way, and asserts the answer. A defect that made the loader hang or grow
// without end would stop these at ctest's timeout.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>

#include "core/text.h"
#include "game/game.h"
#include "movetext/notation.h"
#include "notation/csa.h"
#include "notation/kif.h"
#include "notation/pgn.h"
#include "protocol/gui.h"
#include "protocol/uci.h"
#include "protocol/usi.h"
#include "test_support.h"

namespace palace::test {
namespace {

std::string audit(const std::string& file) { return source_path("tests/repro/audit-4/" + file); }

std::string load_error(const std::string& path) {
  return rule_error_of([&] { load_variant(path); });
}

void write_file(const std::string& path, const std::string& text) { std::ofstream(path, std::ios::binary) << text; }

// What `palace validate` prints for `file` (relative to the source directory), and its status.
PalaceRun validate(const std::string& file) { return run_palace("validate " + shell_quoted(file) + " 2>&1"); }

// ---- H1: an anchor that holds its own alias ----

TEST(Audit4Aliases, AnAliasInsideItsOwnAnchorIsRefused) {
  EXPECT_EQ(load_error(audit("selfref_alias.yaml")),
            audit("selfref_alias.yaml") + ":1:8: a[0]: an alias refers to the value that holds it");
  EXPECT_EQ(load_error(audit("selfref_alias_pieces.yaml")),
            audit("selfref_alias_pieces.yaml") + ":2:19: pieces.king: an alias refers to the value that holds it");
  const PalaceRun run = validate("tests/repro/audit-4/selfref_alias.yaml");
  EXPECT_EQ(run.status, 2);
  EXPECT_EQ(run.lines, std::vector<std::string>{"error: tests/repro/audit-4/selfref_alias.yaml:1:8: a[0]: an alias refers "
                                                "to the value that holds it"});
}

TEST(Audit4Aliases, TextLoadedFromMemoryIsRefusedAlike) {
  EXPECT_EQ(rule_error_of([] { ConfigNode::parse_string("a: &x [*x]", "variant.yaml"); }),
            "variant.yaml:1:8: a[0]: an alias refers to the value that holds it");
  // Deeper: the alias two levels inside its anchor's value.
  EXPECT_EQ(rule_error_of([] { ConfigNode::parse_string("a: &x {b: [1, {c: *x}]}", "variant.yaml"); }),
            "variant.yaml:1:19: a.b[1].c: an alias refers to the value that holds it");
}

// An alias of a value beside it (not inside it) is an ordinary repetition.
TEST(Audit4Aliases, AnAliasOfASiblingStillReads) {
  const ConfigNode root = ConfigNode::parse_string("a: &x [1, 2]\nb: {c: *x, d: *x}", "variant.yaml");
  EXPECT_EQ(root.at("b").at("d").items().size(), 2u);
  EXPECT_EQ(root.at("b").at("d").path(), "b.d");
}

TEST(Audit4Aliases, ValuesNestAtMostSixtyFourDeep) {
  std::string deep;
  for (int i = 0; i < 70; ++i) deep += "[";
  for (int i = 0; i < 70; ++i) deep += "]";
  EXPECT_EQ(rule_error_of([&] { ConfigNode::parse_string("a: " + deep, "variant.yaml"); }),
            "variant.yaml:1:67: a[0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0]"
            "[0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0]: values "
            "nest more than 64 levels deep");
  std::string fits;
  for (int i = 0; i < 63; ++i) fits += "[";
  for (int i = 0; i < 63; ++i) fits += "]";
  EXPECT_TRUE(ConfigNode::parse_string("a: " + fits, "variant.yaml").at("a").is_sequence());
}

// ---- H10 and M1: chains and repetitions of imports ----

// Files f0 .. f{n-1} in `folder`, each importing the next, the last importing `bottom`.
std::string write_chain(const std::string& folder, int n, const std::string& bottom) {
  std::filesystem::create_directories(folder);
  // Appended piece by piece: GCC 12 warns falsely (-Wrestrict) on "f" + std::to_string(...).
  for (int i = 0; i < n; ++i) {
    std::string next = bottom;
    if (i + 1 < n) next = std::string("f").append(std::to_string(i + 1)).append(".yaml");
    write_file(folder + "/f" + std::to_string(i) + ".yaml", "import: [" + next + "]\n");
  }
  return folder + "/f0.yaml";
}

TEST(Audit4Imports, AChainOfImportsStopsAtSixtyFourFiles) {
  const std::string folder = temp_path("chain");
  EXPECT_EQ(load_error(write_chain(folder, 100, variant_path("chess"))),
            folder + "/f63.yaml:1:10: import[0]: imports nest more than 64 files deep");
}

TEST(Audit4Imports, AChainWithinTheLimitLoads) {
  // Chess's own imports go two files deeper.
  const auto variant = load_variant(write_chain(temp_path("chain"), 60, variant_path("chess")));
  EXPECT_EQ(variant->rules().name, "chess");
}

TEST(Audit4Imports, AFileImportedTwiceByOneListIsRefused) {
  EXPECT_EQ(load_error(audit("many_imports.yaml")),
            audit("many_imports.yaml") + ":2:48: import[1]: \"../../../variants/janggi-modern.yaml\" is imported twice");
  // Named two ways, it is the same file.
  const std::string path = temp_path("twice.yaml");
  write_file(path, "import: [" + variant_path("chess") + ", " + source_path("variants/../variants/chess.yaml") + "]\n");
  EXPECT_EQ(load_error(path), path + ":1:" + std::to_string(12 + variant_path("chess").size()) + ": import[1]: \"" +
                                  source_path("variants/../variants/chess.yaml") + "\" is imported twice");
}

TEST(Audit4Imports, OneLoadReadsAtMostTwoHundredFiftySixImportedFiles) {
  const std::string folder = temp_path("fan");
  std::filesystem::create_directories(folder);
  std::string list;
  for (int i = 0; i < 300; ++i) {
    write_file(folder + "/g" + std::to_string(i) + ".yaml", "description: part " + std::to_string(i) + "\n");
    list += (i ? ", g" : "g") + std::to_string(i) + ".yaml";
  }
  write_file(folder + "/top.yaml", "import: [" + list + "]\n");
  const std::size_t column = 10 + list.find("g256.yaml");
  EXPECT_EQ(load_error(folder + "/top.yaml"),
            folder + "/top.yaml:1:" + std::to_string(column) + ": import[256]: more than 256 files imported in all");
}

// ---- H8: movement parts ----

// The audit's files hold 50,000 to 70,000 parts: the loader stops at the 50,001st value it meets.
TEST(Audit4Parts, AFileOfTensOfThousandsOfPartsStopsAtTheValueLimit) {
  EXPECT_EQ(load_error(audit("many_parts.yaml")),
            audit("many_parts.yaml") + ":3:233309: pieces.queen.moves[16663]: a rule file holds at most 50000 values");
  EXPECT_EQ(load_error(audit("many_likes.yaml")),
            audit("many_likes.yaml") + ":3:233309: pieces.queen.moves[16663]: a rule file holds at most 50000 values");
  EXPECT_EQ(load_error(audit("many_leaps.yaml")),
            audit("many_leaps.yaml") + ":3:159995: pieces.knight.moves[9998]: a rule file holds at most 50000 values");
  const PalaceRun run = validate("tests/repro/audit-4/many_leaps.yaml");
  EXPECT_EQ(run.status, 2);
  EXPECT_EQ(run.lines, std::vector<std::string>{"error: tests/repro/audit-4/many_leaps.yaml:3:159995: "
                                                "pieces.knight.moves[9998]: a rule file holds at most 50000 values"});
}

// Every leap of the 16x16 board's first `files` files, one per part: 16 per file.
std::string distinct_leaps(int files, int sign = 1) {
  std::string parts;
  for (int rank = 1; rank <= 16; ++rank)
    for (int file = 1; file <= files; ++file)
      parts += std::string(parts.empty() ? "" : ", ") + "{leap: [" + std::to_string(sign * file) + ", " + std::to_string(rank) +
               "], symmetry: none}";
  return parts;
}

TEST(Audit4Parts, APieceHasAtMostSixtyFourMovementParts) {
  const std::string sixty_four = distinct_leaps(4);
  EXPECT_EQ(load_error(overlay_path("chess", "pieces: {knight: {moves: [" + sixty_four + "]}}\n")), "no error");
  EXPECT_EQ(load_error(overlay_path("chess", "pieces: {knight: {moves: [" + sixty_four + ", {step: all}]}}\n")),
            temp_path("variant.yaml") + ":2:26: pieces.knight.moves: a piece has at most 64 movement parts, got 65");
}

TEST(Audit4Parts, APartWrittenTwiceIsRefused) {
  // [1, 2] and [2, 1] are one leap once turned and mirrored.
  EXPECT_EQ(load_error(overlay_path("chess", "pieces: {knight: {moves: [{leap: [1, 2]}, {leap: [2, 1]}]}}\n")),
            temp_path("variant.yaml") + ":2:43: pieces.knight.moves[1]: the same move as moves[0]");
  EXPECT_EQ(load_error(overlay_path("chess", "pieces: {queen: {moves: [{slide: [diagonal, orthogonal]}, {slide: all}]}}\n")),
            temp_path("variant.yaml") + ":2:59: pieces.queen.moves[1]: the same move as moves[0]");
  EXPECT_EQ(load_error(overlay_path("chess", "pieces: {queen: {moves: [{like: rook}, {like: bishop}, {like: rook}]}}\n")),
            temp_path("variant.yaml") + ":2:63: pieces.queen.moves[2].like: queen already moves like rook");
  // Not the same: one only captures.
  EXPECT_EQ(load_error(overlay_path("chess", "pieces: {queen: {moves: [{slide: all}, {slide: all, only: capture}]}}\n")),
            "no error");
}

TEST(Audit4Parts, BorrowedPartsCountAndTheOnesAlreadyThereFold) {
  // The rook's 32 leaps, borrowed, and one of them written again: one part of the 32.
  const std::string rook = distinct_leaps(2);
  const auto variant = load_variant(overlay_path(
      "chess", "pieces: {rook: {moves: [" + rook + "]}, queen: {moves: [{like: rook}, " + rook.substr(0, rook.find('}') + 1) + "]}}\n"));
  EXPECT_EQ(variant->rules().pieces[std::size_t(variant->rules().kind_by_name("queen"))].parts.size(), 32u);
  // 32 borrowed, 32 written and the bishop's one more.
  const std::string error = load_error(overlay_path(
      "chess", "pieces: {rook: {moves: [" + rook + "]}, queen: {moves: [{like: rook}, " + distinct_leaps(2, -1) + ", {like: bishop}]}}\n"));
  EXPECT_EQ(error.substr(error.find(": pieces.")),
            ": pieces.queen.moves[33].like: with the parts it borrows, queen would have more than 64 movement parts");
}

// ---- Low: what a rule file may hold ----

TEST(Audit4RuleFiles, ASecondYamlDocumentIsRefused) {
  EXPECT_EQ(load_error(audit("multi_document.yaml")), audit("multi_document.yaml") + ":4:1: a rule file is one YAML document");
}

TEST(Audit4RuleFiles, ANameThatHidesOrReordersTextIsRefused) {
  const PalaceRun run = validate("tests/repro/audit-4/name_controls.yaml");
  EXPECT_EQ(run.status, 2);
  EXPECT_EQ(run.lines, std::vector<std::string>{"error: tests/repro/audit-4/name_controls.yaml:3:7: name: a name holds no "
                                                "control or bidirectional formatting characters, got "
                                                "\"bidi\\u202Eevil\\x00nul\\x1B[31mred\""});
  // Other names are words, which may hold letters of any script but not those.
  EXPECT_EQ(load_error(overlay_path("chess", "pieces: {\"rook\\u202e\": {letter: X, moves: [{step: all}]}}\n"))
                .substr(temp_path("variant.yaml").size()),
            ":2:24: pieces.\"rook\\u202E\": a piece name is a word of letters, digits, - and _ (at most 40), got \"rook\\u202E\"");
}

TEST(Audit4RuleFiles, AQuotedValueIsCutBetweenCharacters) {
  const PalaceRun run = validate("tests/repro/audit-4/quote_cuts_utf8.yaml");
  EXPECT_EQ(run.status, 2);
  std::string cars;
  for (int i = 0; i < 40; ++i) cars += "車";
  EXPECT_EQ(run.lines, std::vector<std::string>{"error: tests/repro/audit-4/quote_cuts_utf8.yaml:2:24: pieces.queen.face: "
                                                "expected a face of 1 to 12 bytes, got \"" + cars + "...\""});
}

TEST(Audit4Text, QuoteCountsCharactersAndEscapesWhatHidesText) {
  EXPECT_EQ(quote("ab車cd", 3), "\"ab車...\"");
  EXPECT_EQ(quote("\xE2\x80\xAE" "x\xC2\x85", 10), "\"\\u202Ex\\u0085\"");
  // Bytes that are no UTF-8 count one each, as before.
  EXPECT_EQ(quote(std::string(100, '\x80'), 3), "\"\x80\x80\x80...\"");
  EXPECT_EQ(word_or_quote("evil\xE2\x80\xAE"), "\"evil\\u202E\"");
  EXPECT_TRUE(has_hidden_characters(std::string("a\0b", 3)));
  EXPECT_FALSE(has_hidden_characters("車馬 e4"));
}

// ---- M5 and low: records and move text ----

TEST(Audit4Records, EightyThousandTagsReadInOnePass) {
  const std::vector<std::string> lines = file_lines(audit("many_tags.pgn"));
  std::string text;
  for (const std::string& line : lines) text += line + "\n";
  text += "[t5 \"again\"]\n[Result \"1-0\"]\n1. e4 1-0\n";
  const std::vector<GameRecord> games = read_pgn(text);
  ASSERT_EQ(games.size(), 2u);
  EXPECT_EQ(games[0].tags.size(), 80000u);
  EXPECT_EQ(games[0].tags[79999], (std::pair<std::string, std::string>{"T79999", "v"}));
  EXPECT_EQ(games[0].moves, std::vector<std::string>{"e4"});
  // A name met again, in any case, replaces the value where it stood; the map is the game's own.
  ASSERT_EQ(games[1].tags.size(), 2u);
  EXPECT_EQ(games[1].tags[0], (std::pair<std::string, std::string>{"t5", "again"}));
  EXPECT_EQ(games[1].result, "1-0");
  const std::vector<GameRecord> twice = read_pgn("[Event \"a\"]\n[EVENT \"b\"]\n[Result \"0-1\"]\n*\n");
  ASSERT_EQ(twice.size(), 1u);
  EXPECT_EQ(twice[0].tags, (std::vector<std::pair<std::string, std::string>>{{"Event", "b"}, {"Result", "0-1"}}));
  EXPECT_EQ(twice[0].result, "*");
}

// Each new header line is looked for among the earlier ones: 50,000 of them took 27 s (KIF) and
// 14 s (CSA) before the cap.
TEST(Audit4Records, KifAndCsaKeepAtMostAThousandHeaderLines) {
  std::string kif = "#KIF version=2.0 encoding=UTF-8\n", csa = "V2.2\n";
  for (int i = 0; i < 50000; ++i) {
    kif.append("H").append(std::to_string(i)).append("：v\n");
    csa.append("$K").append(std::to_string(i)).append(":v\n");
  }
  kif += "手数----指手---------消費時間--\n   1 ７六歩(77)   ( 0:00/00:00:00)\n";
  csa += "PI\n+\n+7776FU\n";
  const std::vector<GameRecord> kif_games = read_kif(kif), csa_games = read_csa(csa);
  ASSERT_EQ(kif_games.size(), 1u);
  EXPECT_EQ(kif_games[0].problem, "line 1002: more than 1000 header lines");
  EXPECT_EQ(kif_games[0].moves.size(), 1u);
  ASSERT_EQ(csa_games.size(), 1u);
  EXPECT_EQ(csa_games[0].problem, "line 1002: more than 1000 header lines");
}

TEST(Audit4Records, AMoveHasAtMostTwoCheckMarks) {
  const auto chess = load_variant(variant_path("chess"));
  Position pos(chess);
  std::string why;
  EXPECT_FALSE(MoveNotation(*chess).read(pos, "Nf3" + std::string(100000, '+'), why));
  EXPECT_EQ(why, "\"Nf3+++++++++++++++++++++++++++++++++++++...\" has more than two check marks");
  EXPECT_FALSE(MoveNotation(*chess).read(pos, "Nf3!!?", why));
  EXPECT_EQ(why, "\"Nf3!!?\" has more than two annotation marks");
  Game game(chess);
  EXPECT_FALSE(game.play("Nf3" + std::string(100000, '+')).accepted);
  EXPECT_EQ(game.last_refusal(), "\"Nf3+++++++++++++++++++++++++++++++++++++...\" is not a move (expected squares like d2d4)");
  EXPECT_TRUE(game.play("Nf3+!?").accepted) << game.last_refusal();
  EXPECT_TRUE(game.play("Nf6++").accepted) << game.last_refusal();
}

TEST(Audit4Records, TheHalfMoveClockSaturates) {
  Position pos(load_variant(variant_path("chess")));
  pos.set_fen("4k3/8/8/8/8/8/8/4K2N w - - 65534 1");
  play_moves(pos, "h1g3 e8d8 g3h1");
  EXPECT_EQ(pos.fen(), "3k4/8/8/8/8/8/8/4K2N b - - 65535 2");
}

// ---- M3 and low: the protocols' zeros and large numbers ----

template <class Engine>
class Session : public test::Gui<Engine> {
 public:
  explicit Session(const std::string& variant) : test::Gui<Engine>(variant) {}
  std::vector<std::string> tell(const std::string& line) { return test::Gui<Engine>::tell(line, line.rfind("go", 0) == 0); }
};

// The moves `legal` lists, as the wire writes them, hold `answer`'s.
bool legal_answer(const std::string& answer, const std::vector<std::string>& legal) {
  return answer.rfind("bestmove ", 0) == 0 && std::find(legal.begin(), legal.end(), answer.substr(9)) != legal.end();
}

const std::vector<std::string> ChessFirstMoves = {"a2a3", "a2a4", "b2b3", "b2b4", "c2c3", "c2c4", "d2d3",
                                                  "d2d4", "e2e3", "e2e4", "f2f3", "f2f4", "g2g3", "g2g4",
                                                  "h2h3", "h2h4", "b1a3", "b1c3", "g1f3", "g1h3"};

TEST(Audit4Protocols, UciZerosAskForTheLeastSearch) {
  for (const std::string file : {"uci_movetime_zero.txt", "uci_zero_clock.txt", "uci_depth1.txt"}) {
    Session<protocol::UciEngine> gui("chess");
    std::vector<std::string> answer;
    for (const std::string& line : file_lines(audit(file))) answer = gui.tell(line);
    EXPECT_TRUE(legal_answer(last(answer), ChessFirstMoves)) << file << ": " << last(answer);
  }
  for (const std::string go : {"go depth 0", "go nodes 0", "go mate 0", "go movestogo 0 movetime 0", "go wtime 0 btime 0"}) {
    Session<protocol::UciEngine> gui("chess");
    gui.tell("position startpos");
    const std::vector<std::string> answer = gui.tell(go);
    EXPECT_TRUE(legal_answer(last(answer), ChessFirstMoves)) << go << ": " << last(answer);
    if (go == "go depth 0" || go == "go mate 0") {
      ASSERT_EQ(answer.size(), 2u) << go;
      EXPECT_EQ(answer[0].rfind("info depth 1 ", 0), 0u) << answer[0];
    }
  }
}

TEST(Audit4Protocols, UsiZeroByoyomiPlaysAtOnce) {
  Session<protocol::UsiEngine> gui("shogi");
  std::vector<std::string> answer;
  for (const std::string& line : file_lines(audit("usi_byoyomi_zero.txt"))) answer = gui.tell(line);
  const std::string best = last(answer);
  EXPECT_EQ(best.rfind("bestmove ", 0), 0u) << best;
  EXPECT_NE(best, "bestmove resign");
}

TEST(Audit4Protocols, ANumberTooLargeSaysTheLargest) {
  Session<protocol::UciEngine> gui("chess");
  EXPECT_EQ(gui.tell("go wtime 9223372036854775807 btime 1"),
            std::vector<std::string>{"info string go wtime must be at most 1000000000"});
  EXPECT_EQ(gui.tell("go depth 99999999999999999999"), std::vector<std::string>{"info string go depth must be at most 1000000000"});
  EXPECT_EQ(gui.tell("go nodes 1000000001"), std::vector<std::string>{"info string go nodes must be at most 1000000000"});
  EXPECT_EQ(gui.tell("go depth -1"), std::vector<std::string>{"info string go depth needs a number"});
  // Leading zeros are no size.
  EXPECT_EQ(last(gui.tell("go depth 000000000000000001")).rfind("bestmove ", 0), 0u);
}

}  // namespace
}  // namespace palace::test
