// `palace balance VARIANT_FILE`: the designer's question, is my variant balanced, answered by
// self-play at one budget (lab/balance.h).
#include <iostream>

#include "cli/commands.h"
#include "lab/balance.h"
#include "match/match_error.h"

namespace palace::cli {

namespace {

struct BalanceOptions {
  lab::BalanceSettings settings;
  std::string formations;
  int depth = 0, movetime_ms = 0;
  std::uint64_t nodes = 0;
};

int run_balance_command(BalanceOptions& o) {
  try {
    match::MatchSettings& m = o.settings.match;
    match::PlayerSpec engine = match::parse_player_spec("palace");
    engine.depth = o.depth;
    engine.movetime_ms = o.movetime_ms;
    engine.nodes = o.depth || o.movetime_ms || o.nodes ? o.nodes : 20'000;
    m.players[0] = m.players[1] = engine;
    m.formations = !o.formations.empty();
    const auto summary = lab::run_balance(o.settings, [](const std::string& line) { std::cout << line << std::endl; });
    if (summary) std::cout << *summary;  // else another process of an `mpirun`: the lead prints
    return 0;
  } catch (const match::MatchError& e) {
    std::cerr << "error: " << e.what() << "\n";
    return BadInput;
  }
}

}  // namespace

void add_balance_command(CLI::App& app, Action& action) {
  auto o = std::make_shared<BalanceOptions>();
  match::MatchSettings& m = o->settings.match;
  m.referee.max_plies = 300;
  m.rounds = 100;
  m.random_plies = 2;
  CLI::App* cmd = app.add_subcommand("balance", "Self-play a variant to see how balanced and decisive it is");
  cmd->add_option("VARIANT_FILE", m.variant_file, "variant YAML file")->required();
  cmd->add_option("--games", m.rounds, "games to play, each from its own random opening; with --formations, for each pair (default 100)")
      ->check(CLI::Range(1, 1'000'000));
  cmd->add_option("--nodes", o->nodes, "nodes a move for both sides (default 20000 where no limit is given)");
  cmd->add_option("--depth", o->depth, "search depth a move for both sides")->check(CLI::Range(1, 128));
  cmd->add_option("--movetime", o->movetime_ms, "milliseconds a move for both sides")->check(CLI::Range(1, 86'400'000));
  cmd->add_option("--random-plies", m.random_plies, "random plies from the set-up that open each game (default 2)")
      ->check(CLI::Range(0, 200));
  cmd->add_option("--seed", m.seed, "seed of the random openings");
  cmd->add_option("--formations", o->formations, "all: every pair of formations the variant's files define, and their table")
      ->check(CLI::IsMember({"all"}));
  cmd->add_option("-j,--concurrency", m.concurrency, "games played at once (in each process under mpirun)")->check(CLI::Range(1, 256));
  cmd->add_option("--max-plies", m.referee.max_plies, "adjudicate after this many plies (default 300)")
      ->check(CLI::Range(1, 100'000));
  cmd->add_option("--pgn", m.pgn_file, "write every game to this PGN file");
  cmd->add_option("--report", o->settings.report_dir, "write a page of plots to this folder (index.html)");
  o->settings.report_script = std::string(PALACE_WEB_DIR) + "/report.js";
  cmd->add_option("--sprt-elo", o->settings.sprt_elo,
                  "stop once the first side is shown this many Elo ahead or behind, or even within it (default 20; 0: play every game)")
      ->check(CLI::Range(0.0, 1000.0));
  cmd->callback([&action, o] { action = [o] { return run_balance_command(*o); }; });
}

}  // namespace palace::cli
