// The `palace` subcommands. Each add_*_command registers one subcommand on the app; when the user
// picks it, `action` is set to the code that runs it and returns the exit code.
#pragma once

#include <CLI/CLI.hpp>

#include <functional>
#include <optional>
#include <string>

#include "position/position.h"

namespace palace::cli {

using Action = std::function<int()>;

// Bad input of any kind (rules, FEN, move, script) is one line on stderr and this exit code.
constexpr int BadInput = 2;

void add_perft_command(CLI::App& app, Action& action);
void add_moves_command(CLI::App& app, Action& action);
void add_validate_command(CLI::App& app, Action& action);
void add_describe_command(CLI::App& app, Action& action);  // each kind in Betza and in words
void add_migrate_command(CLI::App& app, Action& action);
void add_schema_command(CLI::App& app, Action& action);  // schema, schema --markdown
void add_status_command(CLI::App& app, Action& action);
void add_bench_command(CLI::App& app, Action& action);
void add_test_command(CLI::App& app, Action& action);
void add_play_command(CLI::App& app, Action& action);
void add_protocol_commands(CLI::App& app, Action& action);  // uci, usi, ucci, xboard
void add_match_command(CLI::App& app, Action& action);
void add_balance_command(CLI::App& app, Action& action);  // self-play: is the variant balanced
void add_values_command(CLI::App& app, Action& action);   // self-play: what each kind is worth
void add_replay_command(CLI::App& app, Action& action);
void add_convert_command(CLI::App& app, Action& action);
void add_serve_command(CLI::App& app, Action& action);
void add_import_command(CLI::App& app, Action& action);  // import-ini

// The project's default game is a build setting (CMakeLists.txt), not interpreter code.
constexpr const char* DefaultVariant = PALACE_DEFAULT_VARIANT;
// `relative` from the current directory when it is there, else from the source tree the program
// was built from, so that commands work from anywhere.
std::string source_file(const std::string& relative);
// `given`, or the default game when it is empty.
std::string default_variant_file(const std::string& given);

// The VARIANT_FILE argument and --fen option that every command on one position takes.
struct PositionOptions {
  std::string file;
  std::optional<std::string> fen;  // given, even empty, it must be a FEN
};
void add_position_options(CLI::App& cmd, PositionOptions& o);

// The variant's set-up, or `fen` when one was given.
Position load_position(const PositionOptions& o);

}  // namespace palace::cli
