// `palace balance`: self-play's summary adds up to the games it played, and says what they were.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <filesystem>

#include "test_support.h"

namespace palace::test {
namespace {

bool starts(const std::string& line, const std::string& prefix) { return line.rfind(prefix, 0) == 0; }

std::vector<std::string> lines_starting(const PalaceRun& run, const std::string& prefix) {
  std::vector<std::string> out;
  for (const auto& line : run.lines)
    if (starts(line, prefix)) out.push_back(line);
  return out;
}

// One game of three plies from the set-up: the positions before each ply are the three thirds, and
// the first two have chess's 20 moves whatever was played.
TEST(Balance, CountsTheLengthAndTheMovesOfEachThirdOfTheGame) {
  const auto run = run_palace("balance variants/chess.yaml --games 1 --random-plies 0 --max-plies 3 --nodes 100 2>&1");
  ASSERT_EQ(run.status, 0) << run.out;
  EXPECT_EQ(lines_starting(run, "game ").size(), 1u) << run.out;
  EXPECT_EQ(lines_starting(run, "White's score 50.0%")[0].substr(0, 24), "White's score 50.0%, Elo") << run.out;
  EXPECT_NE(std::find(run.lines.begin(), run.lines.end(), "  adjudicated: move limit: 1"), run.lines.end()) << run.out;
  EXPECT_NE(std::find(run.lines.begin(), run.lines.end(), "length in plies from the set-up: median 3, quartiles 3 to 3, shortest 3, longest 3"),
            run.lines.end())
      << run.out;
  const auto branching = lines_starting(run, "legal moves a position, by third of the game: 20.0 20.0 ");
  EXPECT_EQ(branching.size(), 1u) << run.out;
}

// The ends, the score and the PGN agree game by game, and the games replay as legal.
TEST(Balance, TheSummaryAddsUpToTheGamesPlayed) {
  const std::string pgn = temp_path("balance.pgn");
  const auto run = run_palace("balance variants/breakthrough.yaml --games 8 --nodes 100 --sprt-elo 0 -j 2 --pgn " + shell_quoted(pgn) + " 2>&1");
  ASSERT_EQ(run.status, 0) << run.out;
  const auto games = lines_starting(run, "game ");
  ASSERT_EQ(games.size(), 8u) << run.out;
  int first_wins = 0;
  for (const auto& line : games) first_wins += line.find(": 1-0 (") != std::string::npos;
  const auto score = lines_starting(run, "White's score ");
  ASSERT_EQ(score.size(), 1u) << run.out;
  EXPECT_NE(score[0].find("8 games, +" + std::to_string(first_wins) + " =0 -" + std::to_string(8 - first_wins)), std::string::npos)
      << run.out;
  EXPECT_NE(std::find(run.lines.begin(), run.lines.end(),
                      "  zone reached: 8 (White " + std::to_string(first_wins) + ", Black " + std::to_string(8 - first_wins) + ")"),
            run.lines.end())
      << run.out;
  const auto replay = run_palace("replay " + shell_quoted(pgn));
  EXPECT_EQ(replay.lines.back(), "8 games, 8 good, 0 bad") << replay.out;
  // The same seed plays the same games.
  const auto again = run_palace("balance variants/breakthrough.yaml --games 8 --nodes 100 --sprt-elo 0 2>&1");
  EXPECT_EQ(again.out, run.out);
}

TEST(Balance, StopsOnceOneSideIsShownAhead) {
  const auto run = run_palace("balance variants/breakthrough.yaml --games 300 --nodes 200 --sprt-elo 100 2>&1");
  ASSERT_EQ(run.status, 0) << run.out;
  const auto stop = lines_starting(run, "stopped early: ");
  ASSERT_EQ(stop.size(), 1u) << run.out;
  EXPECT_LT(lines_starting(run, "game ").size(), 300u);
  EXPECT_TRUE(starts(stop[0], "stopped early: White is ahead (SPRT") || starts(stop[0], "stopped early: Black is ahead (SPRT") ||
              starts(stop[0], "stopped early: the sides are even (SPRT"))
      << stop[0];
}

// Every pair of formations is played, and the table has a row for each of the first side's.
TEST(Balance, FormationsGiveTheTableOfEveryPair) {
  const auto run = run_palace("balance variants/janggi.yaml --formations all --games 1 --nodes 100 --max-plies 10 -j 2 2>&1");
  ASSERT_EQ(run.status, 0) << run.out;
  EXPECT_EQ(lines_starting(run, "game ").size(), 16u) << run.out;
  EXPECT_EQ(lines_starting(run, "cho's score (rows: cho's formation, columns: han's)").size(), 1u) << run.out;
  EXPECT_EQ(lines_starting(run, "  inner-elephant ").size(), 1u) << run.out;
  EXPECT_EQ(lines_starting(run, "stopped early").size(), 0u) << run.out;
}

// The report's page holds the data its plots draw, and the script beside it is the built bundle.
TEST(Balance, TheReportIsAPageWithItsDataAndItsScript) {
  const std::string dir = temp_path("balance-report");
  const auto run = run_palace("balance variants/breakthrough.yaml --games 3 --nodes 100 --sprt-elo 0 --report " + shell_quoted(dir) + " 2>&1");
  ASSERT_EQ(run.status, 0) << run.out;
  std::string page;
  for (const auto& line : file_lines(dir + "/index.html")) page += line + "\n";
  EXPECT_NE(page.find("<script>window.BALANCE = {"), std::string::npos) << page;
  EXPECT_NE(page.find("\"sides\":[\"White\",\"Black\"]"), std::string::npos) << page;
  EXPECT_NE(page.find("\"title\":\"Balance of breakthrough: 3 games, 100 nodes a move\""), std::string::npos) << page;
  EXPECT_NE(page.find("<script src=\"report.js\"></script>"), std::string::npos) << page;
  EXPECT_EQ(std::filesystem::file_size(dir + "/report.js"), std::filesystem::file_size(std::string(PALACE_WEB_DIR) + "/report.js"));
}

TEST(Balance, RefusesAReportFolderItCannotMake) {
  const auto run = run_palace("balance variants/breakthrough.yaml --games 1 --nodes 50 --report /proc/no-such-folder 2>&1");
  EXPECT_EQ(run.status, 2);
  EXPECT_EQ(run.out.substr(0, run.out.find('\n') + 1).rfind("error: --report: cannot make the folder \"/proc/no-such-folder\": ", 0), 0u) << run.out;
}

// The first side's Elo and the half-width of its interval, from the summary's score line.
std::pair<double, double> elo_and_margin(const PalaceRun& run, const std::string& side) {
  const auto line = lines_starting(run, side + "'s score ");
  EXPECT_EQ(line.size(), 1u) << run.out;
  if (line.empty()) return {0, 0};
  const auto elo = line[0].find("Elo "), margin = line[0].find("+/- ");
  return {std::stod(line[0].substr(elo + 4)), std::stod(line[0].substr(margin + 4))};
}

// Known answers: a side without its queen loses, clearly beyond the interval, and soon enough that
// the early stop says so; identical armies show no edge beyond it.
TEST(Balance, AQueenShortIsLopsidedAndIdenticalArmiesAreNot) {
  const auto queenless = run_palace("balance tests/match/variants/white-without-queen.yaml --nodes 300 -j 2 2>&1");
  ASSERT_EQ(queenless.status, 0) << queenless.out;
  const auto [elo, margin] = elo_and_margin(queenless, "White");
  EXPECT_LT(elo + margin, 0) << queenless.out;
  EXPECT_EQ(lines_starting(queenless, "stopped early: Black is ahead (SPRT").size(), 1u) << queenless.out;
  for (const auto& [file, side] : {std::pair{"variants/chess.yaml", "White"}, std::pair{"variants/janggi-modern.yaml", "Cho"}}) {
    const auto even = run_palace(std::string("balance ") + file + " --games 30 --nodes 300 --sprt-elo 0 -j 2 2>&1");
    ASSERT_EQ(even.status, 0) << even.out;
    const auto [e, m] = elo_and_margin(even, side);
    EXPECT_LT(std::abs(e), m) << even.out;
  }
}

TEST(Balance, RefusesFormationsWhereTheVariantHasNone) {
  const auto run = run_palace("balance variants/chess.yaml --formations all 2>&1");
  EXPECT_EQ(run.status, 2);
  EXPECT_EQ(run.out, "error: variants/chess.yaml defines no formations\n");
}

}  // namespace
}  // namespace palace::test
