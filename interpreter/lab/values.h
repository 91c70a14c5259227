// What each kind of piece is worth, found by self-play rather than asserted: a logistic fit of the
// games' results on the material each side held (as Texel tuning fits an evaluation), and, where
// asked, removal games in which one side starts without one piece of a kind.
#pragma once

#include <functional>
#include <optional>
#include <string>

#include "match/match.h"

namespace palace::lab {

struct ValuesSettings {
  // Both players and their budget, random openings, and `rounds` games for the fit, each from its
  // own opening; one colour each, as for balance.
  match::MatchSettings match;
  int removal_games = 0;  // for each kind, games with the first side and with the second side a piece short; 0: none
  int resamples = 100;    // bootstrap samples of the games, for the intervals
  std::string report_dir;     // where to write the report's page (lab/report.h); empty: none
  std::string report_script;  // the bundle that draws its plots
};

// Plays the games, writing a line per game to `log`, and returns the table on the lead process
// (nullopt on the others of an `mpirun`). Throws as match::run_match.
std::optional<std::string> run_values(const ValuesSettings& settings, const std::function<void(const std::string&)>& log);

}  // namespace palace::lab
