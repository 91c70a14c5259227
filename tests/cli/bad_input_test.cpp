// The `palace` binary on bad input: exit status 2 and exactly one line, "error: ...", naming the
// file:line:col or the FEN field. Run from the source directory so paths read as a user types them.
#include <gtest/gtest.h>

#include "test_support.h"

namespace palace::test {
namespace {

// `palace ARGS`, its standard output and standard error together in `lines`.
PalaceRun palace(const std::string& args) { return run_palace(args + " 2>&1"); }

// One line, starting with `prefix`, and exit status 2.
void expect_one_error(const std::string& args, const std::string& prefix) {
  const PalaceRun run = palace(args);
  EXPECT_EQ(run.status, 2) << "palace " << args;
  ASSERT_EQ(run.lines.size(), 1u) << "palace " << args << "\n" << join(run.lines);
  EXPECT_EQ(run.lines[0].rfind(prefix, 0), 0u) << "palace " << args << "\n  got: " << run.lines[0] << "\n  want: " << prefix
                                               << "...";
}

TEST(CliBadInput, ValidateGoodVariant) {
  const PalaceRun run = palace("validate variants/janggi.yaml");
  EXPECT_EQ(run.status, 0);
  ASSERT_EQ(run.lines.size(), 1u) << join(run.lines);
  EXPECT_EQ(run.lines[0].rfind("variants/janggi.yaml: ok: janggi, 9x10 board", 0), 0u) << run.lines[0];
}

TEST(CliBadInput, ValidateUnknownKey) {
  expect_one_error("validate tests/loader/bad/unknown_key.yaml",
                   "error: tests/loader/bad/unknown_key.yaml:7:9: pieces.horse.moves[0].lep: unknown key 'lep'");
}

TEST(CliBadInput, ValidateMalformedYaml) {
  expect_one_error("validate tests/loader/bad/unclosed_bracket.yaml",
                   "error: tests/loader/bad/unclosed_bracket.yaml:7:20: malformed YAML");
}

TEST(CliBadInput, ValidatePieceOffBoard) {
  expect_one_error("validate tests/loader/bad/off_board_file.yaml",
                   "error: tests/loader/bad/off_board_file.yaml:7:21: setup.han.pieces.chariot[1]: 'j1'");
}

TEST(CliBadInput, PerftGarbageFen) {
  expect_one_error("perft variants/janggi.yaml --fen 'garbage' --depth 1", "error: FEN board: unknown piece letter \"g\" on rank 10");
}

TEST(CliBadInput, PerftFenWithBadBoard) {
  expect_one_error("perft variants/janggi.yaml --fen 'RNBA1ABNR/4K4/1C5C1/P1P1P1P1P/4Q4/9/p1p1p1p1p/1c5c1/4k4/rnba1abnr w - - 0 1' "
                   "--depth 1",
                   "error: FEN board: unknown piece letter \"Q\" on rank 6");
}

TEST(CliBadInput, MovesMissingFile) { expect_one_error("moves missing.yaml", "error: missing.yaml: cannot open file"); }

// A name longer than the file system allows must not abort the program.
TEST(CliBadInput, ValidateFileNameTooLong) {
  const std::string name = std::string(300, 'a') + ".yaml";
  expect_one_error("validate " + name, "error: " + name + ": cannot open file");
}

// A command-line mistake is bad input too: one "error: " line, like every other.
TEST(CliBadInput, MissingRequiredOption) {
  expect_one_error("perft variants/janggi.yaml", "error: --depth is required");
}

}  // namespace
}  // namespace palace::test
