// The `palace` command line: thin wrappers over the library whose machine-readable outputs
// (moves, perft, status) are a contract: extend them, don't change them.
#include <algorithm>
#include <iostream>

#include "cli/commands.h"
#include "core/error.h"
#include "core/text.h"

int main(int argc, char** argv) {
  using namespace palace;
  CLI::App app{"Palace: a data-driven rules interpreter for board games described in YAML"};
  app.require_subcommand(1);
  cli::Action action;
  cli::add_perft_command(app, action);
  cli::add_moves_command(app, action);
  cli::add_validate_command(app, action);
  cli::add_describe_command(app, action);
  cli::add_migrate_command(app, action);
  cli::add_schema_command(app, action);
  cli::add_status_command(app, action);
  cli::add_bench_command(app, action);
  cli::add_test_command(app, action);
  cli::add_play_command(app, action);
  cli::add_protocol_commands(app, action);
  cli::add_match_command(app, action);
  cli::add_balance_command(app, action);
  cli::add_values_command(app, action);
  cli::add_replay_command(app, action);
  cli::add_convert_command(app, action);
  cli::add_serve_command(app, action);
  cli::add_import_command(app, action);

  // CLI11 would answer an unknown command with "A subcommand is required".
  const auto subcommands = app.get_subcommands([](const CLI::App*) { return true; });
  const bool known = argc < 2 || argv[1][0] == '-' ||
                     std::any_of(subcommands.begin(), subcommands.end(), [&](const CLI::App* sub) { return sub->check_name(argv[1]); });
  if (!known) {
    std::string names;
    for (const CLI::App* sub : subcommands) names += (names.empty() ? "" : ", ") + sub->get_name();
    std::cerr << "error: unknown command " << quote(argv[1]) << " (commands: " << names << ")\n";
    return cli::BadInput;
  }
  try {
    app.parse(argc, argv);
  } catch (const CLI::CallForHelp& e) {
    return app.exit(e);
  } catch (const CLI::CallForAllHelp& e) {
    return app.exit(e);
  } catch (const CLI::ParseError& e) {
    std::cerr << "error: " << e.what() << " (see --help)\n";
    return cli::BadInput;
  }
  try {
    return action();
  } catch (const Error& e) {  // a rule file, a script, a FEN or a move: one line each
    std::cerr << "error: " << e.what() << "\n";
  }
  return cli::BadInput;
}
