// The scripted rule test runner on its fixtures (tests/rules/fixtures/): what it reports for each
// kind of failing expectation, and the one error it raises for each kind of malformed file; then
// `palace test` as a user runs it, its lines and exit codes.
#include <gtest/gtest.h>

#include "game/rule_script.h"
#include "test_support.h"

namespace palace::test {
namespace {

std::string fixture(const std::string& name) { return source_path("tests/rules/fixtures/" + name + ".yaml"); }

struct Failure {
  int line;
  std::string message;
  bool operator==(const Failure&) const = default;
};

std::vector<Failure> failures(const CaseResult& c) {
  std::vector<Failure> out;
  for (const CaseFailure& f : c.failures) out.push_back({f.mark.line, f.message});
  return out;
}

void PrintTo(const Failure& f, std::ostream* out) { *out << "line " << f.line << ": " << f.message; }

TEST(RuleScripts, PassingCases) {
  const ScriptResult result = run_rule_script(fixture("passing"));
  ASSERT_EQ(result.cases.size(), 2u);
  EXPECT_EQ(result.cases[0].name, "the file's moves are played first");
  EXPECT_EQ(result.cases[1].name, "a case's own FEN replaces the file's position and moves");
  EXPECT_TRUE(result.cases[0].passed());
  EXPECT_TRUE(result.cases[1].passed());
  EXPECT_EQ(result.passed(), 2);
  EXPECT_EQ(result.failed(), 0);
}

TEST(RuleScripts, EachFailingExpectationIsReportedAtItsLine) {
  const ScriptResult result = run_rule_script(fixture("failing"));
  ASSERT_EQ(result.cases.size(), 3u);
  EXPECT_EQ(result.passed(), 1);
  EXPECT_EQ(result.failed(), 2);
  EXPECT_TRUE(result.cases[0].passed());

  const CaseResult& wrong = result.cases[1];
  EXPECT_EQ(wrong.name, "every expectation wrong");
  EXPECT_EQ(wrong.mark.line, 9);
  const std::string set_up_moves =
      "a10a8 a10a9 a7a6 a7b7 b10a8 b10c8 c7b7 c7c6 c7d7 d10d9 d10e10 e7d7 e7e6 e7f7 e9d8 e9d9 e9e10 e9e8 e9f8 e9f9 "
      "f10e10 f10f9 g7f7 g7g6 g7h7 h10g8 h10i8 i10i8 i10i9 i7h7 i7i6";
  const std::vector<Failure> expected = {
      {10, "moves_from b10: missing d9, unexpected c8"},
      {11, "legal_moves: missing pass, unexpected " + set_up_moves},
      {12, "accepted b10b7: refused: a horse cannot move from b10 to b7"},
      {14, "refused b10c8: it was accepted"},
      {15, "refused b10b7: reason \"a horse cannot move from b10 to b7\", expected \"no reason\""},
      {16, "in_check: expected true, got false"},
      {17, "state: expected \"han wins: checkmate\", got \"unfinished\""},
      {18, "board: expected 9/9/9/9/9/9/9/9/9/9, got RNBA1ABNR/4K4/1C5C1/P1P1P1P1P/9/9/p1p1p1p1p/1c5c1/4k4/rnba1abnr"},
  };
  EXPECT_EQ(failures(wrong), expected);
  EXPECT_EQ(*wrong.failures[0].mark.file, fixture("failing"));

  // A refused move to play first fails the case there, and its expectations are not checked.
  EXPECT_EQ(failures(result.cases[2]), (std::vector<Failure>{{21, "moves: move 2 \"c8c9\" refused: it is Han's turn"}}));
}

TEST(RuleScripts, ACaseRunsInEachVariantOfTheFile) {
  const ScriptResult result = run_rule_script(fixture("two-variants"));
  ASSERT_EQ(result.cases.size(), 2u);
  EXPECT_EQ(result.cases[0].name, "a general steps onto the other general's open file [janggi]");
  EXPECT_EQ(failures(result.cases[0]), (std::vector<Failure>{{7, "moves_from d2: missing e2"}}));
  EXPECT_EQ(result.cases[1].name, "a general steps onto the other general's open file [janggi-casual]");
  EXPECT_TRUE(result.cases[1].passed());
}

// The error a malformed fixture raises, with its file:line:col.
std::string error_of(const std::string& name) {
  return rule_error_of([&] { run_rule_script(fixture(name)); });
}

TEST(RuleScripts, MalformedFilesAreOneErrorNamingTheLine) {
  EXPECT_EQ(error_of("unknown-key"), fixture("unknown-key") +
                                         ":4:5: cases[0].moves_form: unknown key \"moves_form\" (expected one of: name, fen, "
                                         "moves, moves_from, legal_moves, accepted, refused, in_check, state, board, claimable)");
  EXPECT_EQ(error_of("off-board"), fixture("off-board") + ":4:39: cases[0].moves_from.exactly: \"j8\" is not a point of the board");
  EXPECT_EQ(error_of("square-key"), fixture("square-key") + ":4:26: cases[0].moves_from.square: language 1 writes this as `point`");
  EXPECT_EQ(error_of("bad-fen"), fixture("bad-fen") + ":4:10: cases[0].fen: FEN board: unknown piece letter \"q\" on rank 10");
  EXPECT_EQ(error_of("missing-variant"),
            fixture("missing-variant") + ":1:10: variant: no such file \"" + source_path("variants/no-such-game.yaml") + "\"");
  EXPECT_EQ(error_of("expects-nothing"),
            fixture("expects-nothing") + ":3:5: cases[0]: a case must expect something (moves_from, accepted, refused, ...)");
  EXPECT_EQ(error_of("no-such-file"), fixture("no-such-file") + ": cannot open file");
}

struct TestRun : PalaceRun {
  std::vector<std::string> err;  // standard error line by line, kept apart from `lines`
};

// `palace test ARGS` from the source directory, so that paths read as a user types them.
TestRun palace_test(const std::string& args) {
  const std::string err_file = temp_path("stderr.txt");
  // A braced list runs in order: the file is read once palace has exited.
  return {run_palace("test " + args + " 2>" + shell_quoted(err_file)), file_lines(err_file)};
}

TEST(PalaceTestCommand, AllPassingExitsZero) {
  const TestRun run = palace_test("tests/rules/fixtures/passing.yaml");
  EXPECT_EQ(run.status, 0);
  EXPECT_EQ(run.lines, (std::vector<std::string>{"2 passed, 0 failed"}));
  EXPECT_TRUE(run.err.empty()) << join(run.err);
}

TEST(PalaceTestCommand, OneLinePerFailingCaseThenTheTotals) {
  const TestRun run = palace_test("tests/rules/fixtures/failing.yaml tests/rules/fixtures/passing.yaml");
  EXPECT_EQ(run.status, 1);
  ASSERT_EQ(run.lines.size(), 3u) << join(run.lines);
  EXPECT_EQ(run.lines[0].rfind("tests/rules/fixtures/failing.yaml:10:17: every expectation wrong: moves_from b10: missing d9, "
                               "unexpected c8; line 11: legal_moves: missing pass, unexpected a10a8 ",
                               0),
            0u)
      << run.lines[0];
  EXPECT_NE(run.lines[0].find("; line 18: board: expected 9/9/9/9/9/9/9/9/9/9, got RNBA1ABNR/"), std::string::npos)
      << run.lines[0];
  EXPECT_EQ(run.lines[1],
            "tests/rules/fixtures/failing.yaml:21:12: a move to play first is refused: moves: move 2 \"c8c9\" refused: "
            "it is Han's turn");
  EXPECT_EQ(run.lines[2], "3 passed, 2 failed");
}

TEST(PalaceTestCommand, AMalformedFileExitsTwoAndTheOthersStillRun) {
  const TestRun run = palace_test("tests/rules/fixtures/off-board.yaml tests/rules/fixtures/two-variants.yaml");
  EXPECT_EQ(run.status, 2);
  EXPECT_EQ(run.err, (std::vector<std::string>{"error: tests/rules/fixtures/off-board.yaml:4:39: cases[0].moves_from.exactly: "
                                               "\"j8\" is not a point of the board"}));
  EXPECT_EQ(run.lines, (std::vector<std::string>{"tests/rules/fixtures/two-variants.yaml:7:17: a general steps onto the other "
                                                 "general's open file [janggi]: moves_from d2: missing e2",
                                                 "1 passed, 1 failed"}));
}

}  // namespace
}  // namespace palace::test
