// A match between two players over any variant file: openings each played twice with colours
// swapped, games side by side in threads, a PGN record and a summary with Elo and SPRT.
#pragma once

#include <cmath>
#include <functional>
#include <optional>
#include <random>
#include <string>
#include <vector>

#include "match/player.h"
#include "match/referee.h"
#include "notation/pgn.h"

namespace palace::match {

struct Sprt {
  double elo0 = 0, elo1 = 10, alpha = 0.05, beta = 0.05;
  double lower() const { return std::log(beta / (1 - alpha)); }  // at or below it the LLR accepts H0
  double upper() const { return std::log((1 - beta) / alpha); }  // at or above it, H1
};
// Reads "elo0=0 elo1=10 alpha=0.05 beta=0.05" (any subset). Throws MatchError.
Sprt parse_sprt(const std::string& text);

struct MatchSettings {
  std::string variant_file;
  PlayerSpec players[2];
  RefereeSettings referee;
  std::string openings_file;  // FEN or EPD lines; empty: random openings from the set-up
  int rounds = 1;             // openings, each played twice (once without swap_colours)
  bool swap_colours = true;   // false: each opening once, as for two players that are the same engine
  int random_plies = 0;       // random plies from the set-up (or each formation's) without openings_file
  std::uint64_t seed = 1;
  int concurrency = 1;
  bool formations = false;  // every pair of formations the variant's files define, each `rounds` times
  std::string pgn_file;
  bool resume = false;  // keep the games pgn_file already holds for this match and play only the others
  std::optional<Sprt> sprt;
};

// Wins, draws and losses of the first player (or side), and what follows from them.
struct Score {
  int wins = 0, draws = 0, losses = 0;
  int games() const { return wins + draws + losses; }
  double ratio() const;                       // points per game
  double elo() const;                         // the Elo difference that ratio means
  double ratio_margin() const;                // half the 95% interval of ratio()
  double elo_margin() const;                  // half the 95% interval of elo()
  double llr(const Sprt& sprt) const;         // log-likelihood ratio of elo1 against elo0
  double p_value() const;                     // two-sided, of a score this far from 50% if the sides were even
};

// `value` with `decimals` digits after the point, as the summaries print scores.
std::string fixed(double value, int decimals);

enum class SprtVerdict { Inconclusive, H0, H1 };
SprtVerdict sprt_verdict(const Score& score, const Sprt& sprt);
std::string sprt_line(const Score& score, const Sprt& sprt);  // "SPRT elo0=0 ...: LLR 1.20 [-2.94, 2.94] inconclusive"

// The formations a match plays, rows for the first side; "-" for a side whose set-up names none.
struct FormationNames {
  std::vector<std::string> names[SideCount];
  std::size_t pairs() const { return names[0].size() * names[1].size(); }
};

// The first side's score for each pair of formations, row-major as FormationNames lists them.
struct PairScores {
  std::vector<double> points;
  std::vector<int> games;
};
// The table of `scores` with a row per first-side formation: "-" where a pair played no game.
std::string formation_table(const Variant& variant, const FormationNames& formations, const PairScores& scores);

// One game to play: where it starts, and whether the first player takes the second side.
struct MatchJob {
  std::shared_ptr<const Variant> variant;  // with formations, the pair's
  std::string fen;
  bool swapped = false;
  int group = -1;  // what the game is for, as its planner numbers them: the formation pair (row * columns + column)
};

// One game as the match delivers it, in game order.
struct PlayedGame {
  std::size_t index;  // from 0, in the order the match lists its games
  const MatchJob& job;
  const palace::GameRecord& record;  // read back from its PGN, moves in the variant's own notation
};

// The games to play, planned on every process from the variant of settings.variant_file.
using JobPlan = std::function<std::vector<MatchJob>(const std::shared_ptr<const Variant>&)>;

// Plays the games `plan` lists over the threads and processes distributed/jobs.h gives it, writing
// the PGN file if one is named. On the lead process it hands each game to `seen` in game order
// (false stops the match: no further game starts) and returns the variant; elsewhere null. Throws
// as run_match.
std::shared_ptr<const Variant> play_jobs(const MatchSettings& settings, const JobPlan& plan,
                                         const std::function<bool(const PlayedGame&)>& seen);

// The games `settings` describes: its openings or formations, `rounds` of them, each twice with
// colours swapped (once without swap_colours); a formation game's group is its pair.
std::shared_ptr<const Variant> play_match(const MatchSettings& settings, FormationNames& formations,
                                          const std::function<bool(const PlayedGame&)>& seen);

// `plies` random legal moves from `variant`'s set-up, never into a finished game, as a FEN.
std::string random_opening(const std::shared_ptr<const Variant>& variant, int plies, std::mt19937_64& random);

// Plays the match over the threads and processes distributed/jobs.h gives it, writing a line per game
// to `log` in game order, and returns the summary text: on the lead process only, nullopt elsewhere.
// Throws MatchError, RuleError, FenError when it cannot be set up, JobError when a game fails.
std::optional<std::string> run_match(const MatchSettings& settings, const std::function<void(const std::string&)>& log);

}  // namespace palace::match
