// `palace values VARIANT_FILE`: what each kind of piece is worth, by self-play (lab/values.h).
#include <iostream>

#include "cli/commands.h"
#include "lab/values.h"
#include "match/match_error.h"

namespace palace::cli {

namespace {

struct ValuesOptions {
  lab::ValuesSettings settings;
  int depth = 0, movetime_ms = 0;
  std::uint64_t nodes = 0;
};

int run_values_command(ValuesOptions& o) {
  try {
    match::MatchSettings& m = o.settings.match;
    match::PlayerSpec engine = match::parse_player_spec("palace");
    engine.depth = o.depth;
    engine.movetime_ms = o.movetime_ms;
    engine.nodes = o.depth || o.movetime_ms || o.nodes ? o.nodes : 5'000;
    m.players[0] = m.players[1] = engine;
    const auto table = lab::run_values(o.settings, [](const std::string& line) { std::cout << line << std::endl; });
    if (table) std::cout << *table;  // else another process of an `mpirun`: the lead prints
    return 0;
  } catch (const match::MatchError& e) {
    std::cerr << "error: " << e.what() << "\n";
    return BadInput;
  }
}

}  // namespace

void add_values_command(CLI::App& app, Action& action) {
  auto o = std::make_shared<ValuesOptions>();
  match::MatchSettings& m = o->settings.match;
  m.referee.max_plies = 300;
  m.rounds = 200;
  m.random_plies = 8;
  CLI::App* cmd = app.add_subcommand("values", "Estimate what each kind of piece is worth, by self-play");
  cmd->add_option("VARIANT_FILE", m.variant_file, "variant YAML file")->required();
  cmd->add_option("--games", m.rounds, "self-play games the values are fitted to (default 200)")->check(CLI::Range(1, 1'000'000));
  cmd->add_option("--removal", o->settings.removal_games,
                  "also, for each kind, this many games with each side a piece of it short (default 0: none)")
      ->check(CLI::Range(0, 1'000'000));
  cmd->add_option("--nodes", o->nodes, "nodes a move for both sides (default 5000 where no limit is given)");
  cmd->add_option("--depth", o->depth, "search depth a move for both sides")->check(CLI::Range(1, 128));
  cmd->add_option("--movetime", o->movetime_ms, "milliseconds a move for both sides")->check(CLI::Range(1, 86'400'000));
  cmd->add_option("--random-plies", m.random_plies, "random plies from the set-up that open each game (default 8)")
      ->check(CLI::Range(0, 200));
  cmd->add_option("--seed", m.seed, "seed of the openings and of the resamples");
  cmd->add_option("--resamples", o->settings.resamples, "bootstrap samples of the games for the intervals (default 100)")
      ->check(CLI::Range(1, 100'000));
  cmd->add_option("-j,--concurrency", m.concurrency, "games played at once (in each process under mpirun)")->check(CLI::Range(1, 256));
  cmd->add_option("--max-plies", m.referee.max_plies, "adjudicate after this many plies (default 300)")
      ->check(CLI::Range(1, 100'000));
  cmd->add_option("--pgn", m.pgn_file, "write every game to this PGN file");
  cmd->add_option("--report", o->settings.report_dir, "write a page of plots to this folder (index.html)");
  o->settings.report_script = std::string(PALACE_WEB_DIR) + "/report.js";
  cmd->callback([&action, o] { action = [o] { return run_values_command(*o); }; });
}

}  // namespace palace::cli
