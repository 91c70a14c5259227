// `palace match VARIANT_FILE`: the referee. Two players (Palace's engine or external UCI engines)
// play any variant, judged move by move by Palace's own rules.
#include <iostream>

#include "cli/commands.h"
#include "core/text.h"
#include "match/match.h"
#include "match/match_error.h"

namespace palace::cli {

namespace {

struct MatchOptions {
  match::MatchSettings settings;
  std::vector<std::string> players, engines;
  std::string tc, sprt, formations;
  int depth = 0, movetime_ms = 0;
  std::uint64_t nodes = 0;
};

// "10+0.1": seconds for the game plus seconds added per move.
bool parse_tc(const std::string& text, match::TimeControl& tc) {
  const auto plus = text.find('+');
  try {
    std::size_t used = 0;
    const std::string base = text.substr(0, plus);
    const double seconds = std::stod(base, &used);
    if (used != base.size() || seconds <= 0) return false;
    tc.base_ms = std::int64_t(seconds * 1000);
    if (plus == std::string::npos) return true;
    const std::string inc = text.substr(plus + 1);
    const double increment = std::stod(inc, &used);
    if (used != inc.size() || increment < 0) return false;
    tc.increment_ms = std::int64_t(increment * 1000);
    return true;
  } catch (const std::exception&) {
    return false;
  }
}

int run_match_command(MatchOptions& o) {
  try {
    std::vector<match::PlayerSpec> specs;
    for (const auto& p : o.players) specs.push_back(match::parse_player_spec(p));
    for (const auto& e : o.engines) specs.push_back(match::parse_player_spec("engine=" + e));
    if (specs.size() > 2) throw match::MatchError("a match has two players; " + std::to_string(specs.size()) + " given");
    while (specs.size() < 2) specs.push_back(match::parse_player_spec("palace"));
    // The shared limits apply to each player that set none of its own.
    for (auto& spec : specs) {
      if (spec.depth || spec.nodes || spec.movetime_ms) continue;
      spec.depth = o.depth;
      spec.nodes = o.nodes;
      spec.movetime_ms = o.movetime_ms;
    }
    o.settings.formations = !o.formations.empty();
    o.settings.players[0] = specs[0];
    o.settings.players[1] = specs[1];
    if (!o.tc.empty() && !parse_tc(o.tc, o.settings.referee.clock))
      throw match::MatchError("--tc: " + palace::quote(o.tc) + " is not SECONDS or SECONDS+INCREMENT");
    const auto has_limit = [](const match::PlayerSpec& p) { return p.depth || p.nodes || p.movetime_ms; };
    const bool limited = !o.tc.empty() || (has_limit(specs[0]) && has_limit(specs[1]));
    if (!limited) throw match::MatchError("give each player a limit: --tc, --movetime, --depth or --nodes");
    if (!o.sprt.empty()) o.settings.sprt = match::parse_sprt(o.sprt);
    const auto summary = match::run_match(o.settings, [](const std::string& line) { std::cout << line << std::endl; });
    if (summary) std::cout << *summary;  // else another process of an `mpirun`: the lead prints
    return 0;
  } catch (const match::MatchError& e) {
    std::cerr << "error: " << e.what() << "\n";
    return BadInput;
  }
}

}  // namespace

void add_match_command(CLI::App& app, Action& action) {
  auto o = std::make_shared<MatchOptions>();
  match::MatchSettings& s = o->settings;
  s.referee.max_plies = 300;
  CLI::App* cmd = app.add_subcommand("match", "Referee games between Palace's engine and UCI engines in any variant");
  cmd->add_option("VARIANT_FILE", s.variant_file, "variant YAML file")->required();
  cmd->add_option("--player", o->players,
                  "a player: palace[,depth=N,nodes=N,movetime=MS,eval=FILE,name=X] or "
                  "engine=CMD[,protocol=uci|usi|ucci|xboard,variant=NAME,option.NAME=VALUE,...]; twice at most, palace by default");
  cmd->add_option("--engine", o->engines, "an external UCI engine's command (same as --player engine=CMD)");
  cmd->add_option("--depth", o->depth, "search depth for players that set no limit")->check(CLI::Range(1, 128));
  cmd->add_option("--nodes", o->nodes, "node limit for players that set no limit");
  cmd->add_option("--movetime", o->movetime_ms, "milliseconds per move for players that set no limit")
      ->check(CLI::Range(1, 86'400'000));
  cmd->add_option("--tc", o->tc, "clock per side: SECONDS[+INCREMENT], e.g. 10+0.1");
  cmd->add_option("--openings", s.openings_file, "FEN or EPD file, one opening a line");
  cmd->add_option("--random-plies", s.random_plies, "without --openings: random plies from the set-up")
      ->check(CLI::Range(0, 200));
  cmd->add_option("--seed", s.seed, "seed of the random openings");
  cmd->add_option("--rounds", s.rounds, "openings to play, each twice with colours swapped (default 1)")
      ->check(CLI::Range(1, 1'000'000));
  cmd->add_option("--formations", o->formations,
                  "all: play every pair of formations the variant's files define, and print the first side's score")
      ->check(CLI::IsMember({"all"}));
  cmd->add_option("-j,--concurrency", s.concurrency, "games played at once (in each process under mpirun)")->check(CLI::Range(1, 256));
  cmd->add_option("--max-plies", s.referee.max_plies, "adjudicate after this many plies (default 300)")
      ->check(CLI::Range(1, 100'000));
  cmd->add_option("--pgn", s.pgn_file, "write every game to this PGN file");
  cmd->add_flag("--resume", s.resume,
                "keep the games the --pgn file already holds for this same match and play only the rest");
  cmd->add_option("--sprt", o->sprt, "stop early by SPRT: \"elo0=0 elo1=10 alpha=0.05 beta=0.05\"");
  cmd->callback([&action, o] { action = [o] { return run_match_command(*o); }; });
}

}  // namespace palace::cli
