// `palace balance VARIANT_FILE`: the designer's question, is my variant balanced, answered by
// self-play at one budget (lab/balance.h).
#include "cli/commands.h"
#include "cli/self_play_options.h"
#include "lab/balance.h"

namespace palace::cli {

namespace {

struct BalanceOptions {
  lab::BalanceSettings settings;
  SelfPlayOptions self_play{&settings.match, &settings.report_dir, 20'000};
  std::string formations;
};

}  // namespace

void add_balance_command(CLI::App& app, Action& action) {
  auto o = std::make_shared<BalanceOptions>();
  match::MatchSettings& m = o->settings.match;
  m.rounds = 100;
  o->settings.report_script = std::string(PALACE_WEB_DIR) + "/report.js";
  CLI::App* cmd = app.add_subcommand("balance", "Self-play a variant to see how balanced and decisive it is");
  add_self_play_options(cmd, o->self_play, 2);
  cmd->add_option("--games", m.rounds, "games to play, each from its own random opening; with --formations, for each pair (default 100)")
      ->check(CLI::Range(1, 1'000'000));
  cmd->add_option("--formations", o->formations, "all: every pair of formations the variant's files define, and their table")
      ->check(CLI::IsMember({"all"}));
  cmd->add_option("--sprt-elo", o->settings.sprt_elo,
                  "stop once the first side is shown this many Elo ahead or behind, or even within it (default 20; 0: play every game)")
      ->check(CLI::Range(0.0, 1000.0));
  cmd->callback([&action, o] {
    action = [o] {
      o->settings.match.formations = !o->formations.empty();
      return run_self_play(o->self_play, [o](const auto& log) { return lab::run_balance(o->settings, log); });
    };
  });
}

}  // namespace palace::cli
