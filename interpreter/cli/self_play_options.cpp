#include "cli/self_play_options.h"

#include <iostream>

#include "cli/commands.h"
#include "match/match_error.h"

namespace palace::cli {

void add_self_play_options(CLI::App* cmd, SelfPlayOptions& o, int random_plies) {
  match::MatchSettings& m = *o.match;
  m.referee.max_plies = 300;
  m.random_plies = random_plies;
  cmd->add_option("VARIANT_FILE", m.variant_file, "variant YAML file")->required();
  cmd->add_option("--nodes", o.nodes, "nodes a move for both sides (default " + std::to_string(o.default_nodes) + " where no limit is given)");
  cmd->add_option("--depth", o.depth, "search depth a move for both sides")->check(CLI::Range(1, 128));
  cmd->add_option("--movetime", o.movetime_ms, "milliseconds a move for both sides")->check(CLI::Range(1, 86'400'000));
  cmd->add_option("--random-plies", m.random_plies,
                  "random plies from the set-up that open each game (default " + std::to_string(random_plies) + ")")
      ->check(CLI::Range(0, 200));
  cmd->add_option("--seed", m.seed, "seed of the random openings");
  cmd->add_option("-j,--concurrency", m.concurrency, "games played at once (in each process under mpirun)")->check(CLI::Range(1, 256));
  cmd->add_option("--max-plies", m.referee.max_plies, "adjudicate after this many plies (default 300)")->check(CLI::Range(1, 100'000));
  cmd->add_option("--pgn", m.pgn_file, "write every game to this PGN file");
  cmd->add_option("--report", *o.report_dir, "write a page of plots to this folder (index.html)");
}

int run_self_play(const SelfPlayOptions& o, const std::function<std::optional<std::string>(const std::function<void(const std::string&)>&)>& run) {
  try {
    match::PlayerSpec engine = match::parse_player_spec("palace");
    engine.depth = o.depth;
    engine.movetime_ms = o.movetime_ms;
    engine.nodes = o.depth || o.movetime_ms || o.nodes ? o.nodes : o.default_nodes;
    o.match->players[0] = o.match->players[1] = engine;
    const auto summary = run([](const std::string& line) { std::cout << line << std::endl; });
    if (summary) std::cout << *summary;  // else another process of an `mpirun`: the lead prints
    return 0;
  } catch (const match::MatchError& e) {
    std::cerr << "error: " << e.what() << "\n";
    return BadInput;
  }
}

}  // namespace palace::cli
