// The designer's question "is my variant balanced, and how does it play?" as self-play: the same
// engine on both sides at one budget, from random openings (or every pair of formations), summed up
// as the first side's score, the ends, the length of the games and the choice a player has.
#pragma once

#include <functional>
#include <optional>
#include <string>

#include "match/match.h"

namespace palace::lab {

struct BalanceSettings {
  // Both players and their budget, the openings (random plies, or formations), games side by side.
  // Each opening is played once: two copies of one deterministic engine would play it alike again.
  match::MatchSettings match;
  // Stop once the first side is shown ahead, or behind, by this many Elo, or even within it (two
  // SPRTs against 0); 0: play every game. Not with formations, whose every pair needs its games.
  double sprt_elo = 20;
  std::string report_dir;     // where to write the report's page (lab/report.h); empty: none
  std::string report_script;  // the bundle that draws its plots
};

// Plays the games, writing a line per game to `log`, and returns the summary on the lead process
// (nullopt on the others of an `mpirun`). Throws as match::run_match.
std::optional<std::string> run_balance(const BalanceSettings& settings, const std::function<void(const std::string&)>& log);

}  // namespace palace::lab
