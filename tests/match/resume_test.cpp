// --resume: a match picks up from its PGN file, keeping the games in it and playing only the others,
// and ends with the output and the file a match played in one go has.
#include <gtest/gtest.h>

#include <fstream>

#include "test_support.h"

namespace palace::test {
namespace {

std::string match_args(int seed = 3) {
  return "match variants/chess.yaml --depth 1 --max-plies 12 --rounds 2 --random-plies 4 --seed " + std::to_string(seed);
}

std::string file_text(const std::string& path) {
  std::string text;
  for (const auto& line : file_lines(path)) text += line + "\n";
  return text;
}

// The file's games, each as its lines from its first tag to the blank line after its moves.
std::vector<std::string> games_of(const std::string& path) {
  std::vector<std::string> games;
  bool in_moves = false;
  for (const auto& line : file_lines(path)) {
    if (!line.empty() && line[0] == '[' && (games.empty() || in_moves)) (games.emplace_back(), in_moves = false);
    if (!line.empty() && line[0] != '[') in_moves = true;
    games.back() += line + "\n";
  }
  return games;
}

void write(const std::string& path, const std::string& text) { std::ofstream(path) << text; }

TEST(Resume, FinishedGamesAreKeptNotReplayedAndTheRestArePlayed) {
  const std::string whole = temp_path("whole.pgn"), cut = temp_path("cut.pgn");
  const auto reference = run_palace(match_args() + " --pgn " + shell_quoted(whole) + " 2>&1");
  ASSERT_EQ(reference.status, 0) << reference.out;
  const auto games = games_of(whole);
  ASSERT_EQ(games.size(), 4u);
  // As a crash leaves it: games 3 and 1 finished out of order, game 2 cut off in the middle.
  write(cut, games[2] + games[0] + games[1].substr(0, games[1].size() / 2));
  const auto resumed = run_palace(match_args() + " --pgn " + shell_quoted(cut) + " --resume 2>&1");
  ASSERT_EQ(resumed.status, 0) << resumed.out;
  EXPECT_EQ(resumed.out, reference.out);
  EXPECT_EQ(file_text(cut), file_text(whole));

  // A kept game is read, not played again: its doctored reason shows.
  std::string doctored = games[0];
  const auto reason = doctored.find("[Termination \"");
  doctored.replace(reason, doctored.find('\n', reason) - reason, "[Termination \"kept from the file\"]");
  write(cut, doctored);
  const auto kept = run_palace(match_args() + " --pgn " + shell_quoted(cut) + " --resume 2>&1");
  ASSERT_EQ(kept.status, 0) << kept.out;
  EXPECT_NE(kept.lines[0].find("(kept from the file)"), std::string::npos) << kept.out;
  EXPECT_EQ(kept.lines.back(), reference.lines.back());
}

TEST(Resume, AFileOfAnotherMatchIsRefused) {
  const std::string other = temp_path("other.pgn");
  ASSERT_EQ(run_palace(match_args(4) + " --pgn " + shell_quoted(other) + " 2>&1").status, 0);
  const std::string before = file_text(other);
  const auto run = run_palace(match_args() + " --pgn " + shell_quoted(other) + " --resume 2>&1");
  EXPECT_EQ(run.status, 2);
  EXPECT_EQ(run.out, "error: " + other + ": game 1 (round \"1\") is not this match's: it starts elsewhere or has other players\n");
  EXPECT_EQ(file_text(other), before);
  EXPECT_EQ(run_palace(match_args() + " --resume 2>&1").out,
            "error: --resume needs the --pgn file of the match to resume\n");
}

TEST(Resume, NoFileYetMeansNothingToKeep) {
  const std::string fresh = temp_path("fresh.pgn");
  std::remove(fresh.c_str());
  const auto run = run_palace(match_args() + " --pgn " + shell_quoted(fresh) + " --resume 2>&1");
  ASSERT_EQ(run.status, 0) << run.out;
  EXPECT_EQ(run.out, run_palace(match_args() + " 2>&1").out);
  EXPECT_EQ(games_of(fresh).size(), 4u);
}

}  // namespace
}  // namespace palace::test
