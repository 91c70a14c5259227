// `palace play` scripted through a pipe, as a person or a script would drive it: a game to
// checkmate with an illegal move and an undo on the way, the board as drawn, the commands around
// the game, and colour only on a terminal that has not asked for none.
#include <fcntl.h>
#include <gtest/gtest.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <cstdlib>
#include <filesystem>
#include <optional>

#include "test_support.h"

extern char** environ;

namespace palace::test {
namespace {

// A file at temp_path(name) holding `text`.
std::string temp_file(const std::string& name, const std::string& text) {
  const std::string path = temp_path(name);
  std::ofstream(path) << text;
  return path;
}

// `palace play ARGS` in `directory`, its standard input the lines of `input`.
PalaceRun play(const std::string& input, const std::string& args = "variants/janggi.yaml",
               const std::string& directory = PALACE_SOURCE_DIR) {
  const std::string in = temp_file("input.txt", input);
  return run_palace("play " + args + " < " + shell_quoted(in) + " 2>&1", directory);
}

bool has_line(const PalaceRun& run, const std::string& line) {
  return std::find(run.lines.begin(), run.lines.end(), line) != run.lines.end();
}

// The lines that are not part of a drawn board, in order: what the game said.
std::vector<std::string> messages(const PalaceRun& run) {
  std::vector<std::string> out;
  for (const std::string& line : run.lines) {
    const bool board_line = line.find("---") != std::string::npos || line.find("   |") != std::string::npos ||
                            line.find("   a   b   c") != std::string::npos;
    if (!board_line) out.push_back(line);
  }
  return out;
}

// Rank 1 at the top: Janggi numbers its ranks from Han's edge, and Cho sits at the bottom.
const std::vector<std::string> JanggiSetUpBoard = {
    "    a   b   c   d   e   f   g   h   i     HAN: 73.5",
    " 1  r---n---b---a---+---a---b---n---r  1",
    "    |   |   |   | \\ | / |   |   |   |",
    " 2  +---+---+---+---k---+---+---+---+  2",
    "    |   |   |   | / | \\ |   |   |   |",
    " 3  +---c---+---+---+---+---+---c---+  3",
    "    |   |   |   |   |   |   |   |   |",
    " 4  p---+---p---+---p---+---p---+---p  4",
    "    |   |   |   |   |   |   |   |   |",
    " 5  +---+---+---+---+---+---+---+---+  5",
    "    |   |   |   |   |   |   |   |   |",
    " 6  +---+---+---+---+---+---+---+---+  6",
    "    |   |   |   |   |   |   |   |   |",
    " 7  P---+---P---+---P---+---P---+---P  7",
    "    |   |   |   |   |   |   |   |   |",
    " 8  +---C---+---+---+---+---+---C---+  8",
    "    |   |   |   | \\ | / |   |   |   |",
    " 9  +---+---+---+---K---+---+---+---+  9",
    "    |   |   |   | / | \\ |   |   |   |",
    "10  R---N---B---A---+---A---B---N---R  10",
    "    a   b   c   d   e   f   g   h   i     CHO: 72",
};

TEST(PlayCommand, DrawsTheSetUpWithPalaceDiagonalsAndPoints) {
  const PalaceRun run = play("quit\n");
  EXPECT_EQ(run.status, 0);
  ASSERT_GE(run.lines.size(), JanggiSetUpBoard.size() + 3) << run.out;
  EXPECT_EQ(run.lines[0], "Palace: janggi. Moves look like b10c8; type help for commands.");
  const std::vector<std::string> board(run.lines.begin() + 1, run.lines.begin() + 1 + long(JanggiSetUpBoard.size()));
  EXPECT_EQ(board, JanggiSetUpBoard);
  EXPECT_EQ(run.lines[JanggiSetUpBoard.size() + 1], "Cho to move");
  EXPECT_EQ(run.lines.back(), "bye: the game stops unfinished");
}

// 1. i10i9 d1d2 2. i9f9 e2d1 3. f9f1: the chariot takes the guard on f1 and checks the general on
// d1 along rank 1; e1 is covered along the rank, e2 along the palace diagonal f1-e2, d2 holds
// Han's own guard, and no Han piece can take f1 or stand on e1 (the guard on d2 has no diagonal).
// On the way Han tries a horse move that is not one, and Cho takes back a move.
TEST(PlayCommand, AScriptedGameToCheckmate) {
  const PalaceRun run = play("i10i9\nd1d2\ni9f9\nb1b4\ne2d1\nf9f8\nundo\nfen\nf9f1\n");
  EXPECT_EQ(run.status, 2) << "a piped game with a refused move ends with the bad-input code: " << run.out;
  const std::vector<std::string> expected = {
      "Palace: janggi. Moves look like b10c8; type help for commands.",
      "Cho to move",
      "Cho plays i10i9",
      "Han to move",
      "Han plays d1d2",
      "Cho to move",
      "Cho plays i9f9",
      "Han to move",
      "b1b4: a horse cannot move from b1 to b4",
      "Han plays e2d1",
      "Cho to move",
      "Cho plays f9f8",
      "Han to move",
      "took back f9f8",
      "Cho to move",
      "RNBA1ABN1/4KR3/1C5C1/P1P1P1P1P/9/9/p1p1p1p1p/1c5c1/3a5/rnbk1abnr w - - 4 3",
      "Cho plays f9f1",
      "Han to move: Han is in check!",
      "game over: cho wins: checkmate",
  };
  EXPECT_EQ(messages(run), expected) << run.out;
  // The guard taken on f1 is 3 of Han's points.
  EXPECT_TRUE(has_line(run, "    a   b   c   d   e   f   g   h   i     HAN: 70.5")) << run.out;
}

// The move reader's sentence, as the server and the page show it too.
TEST(PlayCommand, AMoveOnTheOtherSidesTurnSaysWhoseTurnItIs) {
  const PalaceRun run = play("b1c3\n");
  EXPECT_TRUE(has_line(run, "b1c3: it is Cho's turn: \"b1c3\" is a move of Han")) << run.out;
}

TEST(PlayCommand, EndOfInputEndsTheGamePolitely) {
  const PalaceRun run = play("b10c8\n");
  EXPECT_EQ(run.status, 0);
  EXPECT_EQ(run.lines.back(), "end of input: the game stops unfinished");
  EXPECT_EQ(run.out.find("cho>"), std::string::npos) << "no prompt when reading a pipe";
}

// A refused line is shown escaped, never raw: escape codes in it cannot recolour or retitle the
// terminal, and a plain word still reads plain.
TEST(PlayCommand, ARefusedLineIsNeverEchoedRaw) {
  const PalaceRun run = play("\x1b[31mred\x1b]0;title\x07\nz9z9\n");
  EXPECT_EQ(run.out.find('\x1b'), std::string::npos) << run.out;
  EXPECT_TRUE(has_line(run, "\"\\x1B[31mred\\x1B]0;title\\x07\": \"\\x1B[31mred\\x1B]0;title\\x07\" is not a move (expected squares like b10c8)")) << run.out;
  EXPECT_TRUE(has_line(run, "z9z9: \"z9\" is not a point of this board")) << run.out;
}

TEST(PlayCommand, ListsMovesAndAnswersBadCommands) {
  const PalaceRun run = play("moves b10\nmoves e5\nmoves z9\nmoves\nundo\npass\nb10\nfly b10\n");
  const std::vector<std::string> said = messages(run);
  const std::vector<std::string> expected = {
      "Palace: janggi. Moves look like b10c8; type help for commands.",
      "Cho to move",
      "b10: a8 c8",
      "e5: no legal moves",
      "\"z9\" is not a point of this board",
      "a10a8 a10a9 a7a6 a7b7 b10a8 b10c8 c7b7 c7c6 c7d7 d10d9 d10e10 e7d7 e7e6 e7f7 e9d8 e9d9 e9e10 e9e8 e9f8 e9f9 f10e10 "
      "f10f9 g7f7 g7g6 g7h7 h10g8 h10i8 i10i8 i10i9 i7h7 i7i6",
      "nothing to undo",
      "pass: passing is not allowed in this variant",
      "b10: \"b10\" is not a move (expected squares like b10c8)",
      "\"fly b10\": unknown command (type help for commands)",
      "end of input: the game stops unfinished",
  };
  EXPECT_EQ(said, expected) << run.out;
  EXPECT_EQ(run.status, 2);
}

// FIDE's threefold repetition is a draw to claim: offered when it arises, refused before.
TEST(PlayCommand, OffersAClaimableDrawAndTakesTheClaim) {
  const PalaceRun run = play("claim\ng1f3\ng8f6\nf3g1\nf6g8\ng1f3\ng8f6\nf3g1\nf6g8\nclaim\n", "variants/chess.yaml");
  EXPECT_EQ(run.status, 2) << "the first claim is refused";
  EXPECT_TRUE(has_line(run, "there is no draw to claim now")) << run.out;
  EXPECT_TRUE(has_line(run, "White may claim a draw (repetition): type claim")) << run.out;
  EXPECT_EQ(std::count(run.lines.begin(), run.lines.end(), "White may claim a draw (repetition): type claim"), 1) << run.out;
  EXPECT_TRUE(has_line(run, "White claims the draw")) << run.out;
  EXPECT_EQ(run.lines.back(), "game over: draw: repetition") << run.out;
}

// A saved game keeps its moves, so a standoff that a pass prolonged still counts after loading.
TEST(PlayCommand, ALoadedGameKeepsItsStandoffHistory) {
  const std::string saved = temp_file("standoff.txt", "1N6B/9/3AK4/5P3/R8/1p5P1/9/9/4k4/1n1n5 w - - 6 44\npass\n");
  const PalaceRun run = play("load " + saved + "\n", "variants/janggi-modern.yaml");
  EXPECT_EQ(run.status, 0);
  EXPECT_EQ(run.lines.back(), "game over: cho wins: standoff, 28 to 13.5 points") << run.out;
}

TEST(PlayCommand, RefusalsGoToStderrAndTheGameToStdout) {
  const std::string in = temp_file("input.txt", "b10b7\nb10c8\n");
  const PalaceRun out = run_palace("play variants/janggi.yaml < " + shell_quoted(in) + " 2>/dev/null");
  EXPECT_EQ(out.status, 2);
  EXPECT_FALSE(has_line(out, "b10b7: a horse cannot move from b10 to b7")) << out.out;
  EXPECT_TRUE(has_line(out, "Cho plays b10c8")) << out.out;
  const PalaceRun err = run_palace("play variants/janggi.yaml < " + shell_quoted(in) + " 2>&1 >/dev/null");
  EXPECT_EQ(err.lines, std::vector<std::string>{"b10b7: a horse cannot move from b10 to b7"});
}

TEST(PlayCommand, SaveAndLoadTheGameAndABadFileChangesNothing) {
  const std::string saved = temp_path("saved.fen");
  std::filesystem::remove(saved);
  const std::string garbage = temp_file("garbage.fen", "garbage\n");
  const std::string missing = temp_path("missing.fen");
  const PalaceRun run = play("b10c8\nsave " + saved + "\nb1c3\nload " + saved + "\nfen\nload " + garbage + "\nload " + missing +
                       "\nfen\nundo\n");
  const std::string after_b10c8 = "R1BA1ABNR/4K4/1CN4C1/P1P1P1P1P/9/9/p1p1p1p1p/1c5c1/4k4/rnba1abnr b - - 1 1";
  // The record, not just the position: repetition and standoff counts need the moves.
  EXPECT_EQ(file_lines(saved),
            (std::vector<std::string>{"RNBA1ABNR/4K4/1C5C1/P1P1P1P1P/9/9/p1p1p1p1p/1c5c1/4k4/rnba1abnr w - - 0 1", "b10c8"}));
  const std::vector<std::string> said = messages(run);
  const std::vector<std::string> expected = {
      "Palace: janggi. Moves look like b10c8; type help for commands.",
      "Cho to move",
      "Cho plays b10c8",
      "Han to move",
      "saved to " + saved,
      "Han plays b1c3",
      "Cho to move",
      "loaded " + saved,
      "Han to move",
      after_b10c8,
      garbage + ": FEN board: unknown piece letter \"g\" on rank 10",
      missing + ": cannot open file",
      after_b10c8,
      "took back b10c8",
      "Cho to move",
      "end of input: the game stops unfinished",
  };
  EXPECT_EQ(said, expected) << run.out;
}

TEST(PlayCommand, TheDefaultVariantIsFoundFromAnyDirectory) {
  const PalaceRun run = play("quit\n", "", testing::TempDir());
  EXPECT_EQ(run.status, 0);
  ASSERT_FALSE(run.lines.empty());
  EXPECT_EQ(run.lines[0], "Palace: janggi. Moves look like b10c8; type help for commands.");
}

TEST(PlayCommand, ChessBoardHasNoDiagonalMarks) {
  const PalaceRun run = play("quit\n", "variants/chess.yaml");
  ASSERT_GE(run.lines.size(), 4u);
  EXPECT_EQ(run.lines[1], "   a   b   c   d   e   f   g   h     BLACK: 39");
  EXPECT_EQ(run.lines[2], "8  r---n---b---q---k---b---n---r  8");
  EXPECT_EQ(run.lines[3], "   |   |   |   |   |   |   |   |");
}

TEST(PlayCommand, HandsAreDrawnByTheirSidesFilesLine) {
  const PalaceRun run = play("e2e4\nd7d5\ne4d5\nquit\n", "variants/crazyhouse.yaml");
  EXPECT_TRUE(has_line(run, "   a   b   c   d   e   f   g   h     BLACK: 39   in hand: -")) << run.out;
  EXPECT_TRUE(has_line(run, "   a   b   c   d   e   f   g   h     WHITE: 39   in hand: P")) << run.out;
  const PalaceRun shogi = play("c3c4\ng7g6\nb2h8+\nquit\n", "variants/shogi.yaml");
  EXPECT_TRUE(has_line(shogi, "   a   b   c   d   e   f   g   h   i     SENTE: 67   in hand: B")) << shogi.out;
}

// `palace play` with its output on a pseudo-terminal, as in a person's terminal, and its input
// from `input`; NO_COLOR set to "1" or left out of the environment. Nothing where the machine has
// no pseudo-terminals to give (some containers).
std::optional<std::string> play_on_terminal(const std::string& input, bool no_colour) {
  const std::string in = temp_file("terminal_input.txt", input);
  std::vector<std::string> env;
  for (char** e = environ; *e; ++e)
    if (std::string(*e).rfind("NO_COLOR=", 0) != 0) env.push_back(*e);
  if (no_colour) env.push_back("NO_COLOR=1");
  std::vector<char*> envp;
  for (std::string& e : env) envp.push_back(e.data());
  envp.push_back(nullptr);
  const std::string variant = source_path("variants/janggi.yaml");
  char* argv[] = {const_cast<char*>(PALACE_BINARY), const_cast<char*>("play"), const_cast<char*>(variant.c_str()), nullptr};

  const int master = posix_openpt(O_RDWR | O_NOCTTY);
  if (master < 0) return std::nullopt;
  if (grantpt(master) != 0 || unlockpt(master) != 0) {
    close(master);
    return std::nullopt;
  }
  const std::string terminal = ptsname(master);
  const int input_fd = open(in.c_str(), O_RDONLY);
  const pid_t child = fork();
  if (child < 0) {
    close(input_fd);
    close(master);
    return std::nullopt;
  }
  if (child == 0) {
    const int slave = open(terminal.c_str(), O_RDWR);
    dup2(input_fd, STDIN_FILENO);
    dup2(slave, STDOUT_FILENO);
    dup2(slave, STDERR_FILENO);
    execve(PALACE_BINARY, argv, envp.data());
    _exit(127);
  }
  close(input_fd);
  // Read until the child closes the terminal (EIO on Linux), so that it never blocks on a full one.
  std::string out;
  char buffer[4096];
  for (ssize_t n; (n = read(master, buffer, sizeof buffer)) > 0 || (n < 0 && errno == EINTR);)
    if (n > 0) out.append(buffer, std::size_t(n));
  close(master);
  int status = 0;
  waitpid(child, &status, 0);
  return out;
}

TEST(PlayCommand, ColourOnATerminalUnlessNoColor) {
  const std::optional<std::string> coloured = play_on_terminal("b10c8\nquit\n", false);
  if (!coloured) GTEST_SKIP() << "no pseudo-terminal on this machine";
  EXPECT_NE(coloured->find("\x1b["), std::string::npos) << *coloured;
  EXPECT_NE(coloured->find("Cho plays b10c8"), std::string::npos) << *coloured;
  EXPECT_NE(coloured->find("bye: the game stops unfinished"), std::string::npos) << *coloured;
  const std::optional<std::string> plain = play_on_terminal("b10c8\nquit\n", true);
  ASSERT_TRUE(plain);
  EXPECT_NE(plain->find("Cho plays b10c8"), std::string::npos) << *plain;
  EXPECT_NE(plain->find("bye: the game stops unfinished"), std::string::npos) << *plain;
  EXPECT_EQ(plain->find('\x1b'), std::string::npos) << *plain;
}

TEST(PlayCommand, NoEscapesThroughAPipe) {
  const PalaceRun run = play("b10c8\nb1c3\n");
  EXPECT_EQ(run.out.find('\x1b'), std::string::npos);
}

}  // namespace
}  // namespace palace::test
