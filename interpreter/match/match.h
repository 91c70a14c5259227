// A match between two players over any variant file: openings each played twice with colours
// swapped, games side by side in threads, a PGN record and a summary with Elo and SPRT.
#pragma once

#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "match/player.h"
#include "match/referee.h"

namespace palace::match {

struct Sprt {
  double elo0 = 0, elo1 = 10, alpha = 0.05, beta = 0.05;
};
// Reads "elo0=0 elo1=10 alpha=0.05 beta=0.05" (any subset). Throws MatchError.
Sprt parse_sprt(const std::string& text);

struct MatchSettings {
  std::string variant_file;
  PlayerSpec players[2];
  RefereeSettings referee;
  std::string openings_file;  // FEN or EPD lines; empty: random openings from the set-up
  int rounds = 1;             // openings, each played twice
  int random_plies = 0;
  std::uint64_t seed = 1;
  int concurrency = 1;
  bool formations = false;  // every pair of formations the variant's files define, instead of openings
  std::string pgn_file;
  bool resume = false;  // keep the games pgn_file already holds for this match and play only the others
  std::optional<Sprt> sprt;
};

// Wins, draws and losses of the first player, and what follows from them.
struct Score {
  int wins = 0, draws = 0, losses = 0;
  int games() const { return wins + draws + losses; }
  double ratio() const;                       // points per game
  double elo() const;                         // the Elo difference that ratio means
  double elo_margin() const;                  // half the 95% interval
  double llr(const Sprt& sprt) const;         // log-likelihood ratio of elo1 against elo0
};

// Plays the match over the threads and processes distributed/jobs.h gives it, writing a line per game
// to `log` in game order, and returns the summary text: on the lead process only, nullopt elsewhere.
// Throws MatchError, RuleError, FenError when it cannot be set up, JobError when a game fails.
std::optional<std::string> run_match(const MatchSettings& settings, const std::function<void(const std::string&)>& log);

}  // namespace palace::match
