// `palace values VARIANT_FILE`: what each kind of piece is worth, by self-play (lab/values.h).
#include "cli/commands.h"
#include "cli/self_play_options.h"
#include "lab/values.h"

namespace palace::cli {

namespace {

struct ValuesOptions {
  lab::ValuesSettings settings;
  SelfPlayOptions self_play{&settings.match, &settings.report_dir, 5'000};
};

}  // namespace

void add_values_command(CLI::App& app, Action& action) {
  auto o = std::make_shared<ValuesOptions>();
  o->settings.match.rounds = 200;
  o->settings.report_script = std::string(PALACE_WEB_DIR) + "/report.js";
  CLI::App* cmd = app.add_subcommand("values", "Estimate what each kind of piece is worth, by self-play");
  add_self_play_options(cmd, o->self_play, 8);
  cmd->add_option("--games", o->settings.match.rounds, "self-play games the values are fitted to (default 200)")
      ->check(CLI::Range(1, 1'000'000));
  cmd->add_option("--removal", o->settings.removal_games,
                  "also, for each kind, this many games with each side a piece of it short (default 0: none)")
      ->check(CLI::Range(0, 1'000'000));
  cmd->add_option("--resamples", o->settings.resamples, "bootstrap samples of the games for the intervals (default 100)")
      ->check(CLI::Range(1, 100'000));
  cmd->callback([&action, o] {
    action = [o] { return run_self_play(o->self_play, [o](const auto& log) { return lab::run_values(o->settings, log); }); };
  });
}

}  // namespace palace::cli
