// The options `palace balance` and `palace values` share: one engine's budget for both sides, the
// random openings, games side by side, the move limit, the PGN file and the report folder.
#pragma once

#include <CLI/CLI.hpp>

#include <functional>
#include <optional>
#include <string>

#include "match/match.h"

namespace palace::cli {

struct SelfPlayOptions {
  match::MatchSettings* match = nullptr;
  std::string* report_dir = nullptr;
  std::uint64_t default_nodes = 0;  // where no limit is given
  int depth = 0, movetime_ms = 0;
  std::uint64_t nodes = 0;
};

// Registers the shared options on `cmd`, with `random_plies` as the default of --random-plies.
void add_self_play_options(CLI::App* cmd, SelfPlayOptions& o, int random_plies);

// Sets both players to Palace's engine at the budget given, runs `run` (a lab command, printing a
// line per game) and prints what it returns; a MatchError is one line and exit code 2.
int run_self_play(const SelfPlayOptions& o, const std::function<std::optional<std::string>(const std::function<void(const std::string&)>&)>& run);

}  // namespace palace::cli
