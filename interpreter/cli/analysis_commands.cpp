// Commands that analyse one position or one file: perft, moves, validate, describe, migrate; and schema.
#include <algorithm>
#include <chrono>
#include <fstream>
#include <iostream>
#include <memory>
#include <vector>

#include "cli/commands.h"
#include "compiler/variant.h"
#include "core/text.h"
#include "core/text_file.h"
#include "loader/betza.h"
#include "loader/key_table.h"
#include "loader/language.h"
#include "distributed/perft.h"
#include "hooks/load_variant.h"
#include "loader/notation_rules.h"
#include "movegen/movegen.h"
#include "movetext/notation.h"
#include "server/variant_schema.h"

namespace palace::cli {

void add_position_options(CLI::App& cmd, PositionOptions& o) {
  cmd.add_option("VARIANT_FILE", o.file, "variant YAML file from variants/")->required();
  cmd.add_option("--fen", o.fen, "position to start from (default: the variant's set-up)");
}

Position load_position(const PositionOptions& o) {
  Position pos(load_variant(o.file));
  if (o.fen) set_played_fen(pos, *o.fen);
  return pos;
}

namespace {

int run_perft(const PositionOptions& o, int depth, bool divide, int threads) {
  const auto count = distributed::perft([&] { return load_position(o); }, depth, threads, divide);
  if (!count) return 0;  // another process of an `mpirun`: the lead prints
  auto rows = count->divide;
  std::sort(rows.begin(), rows.end());
  for (const auto& [move, n] : rows) std::cout << move << ": " << n << "\n";
  std::cout << count->total << "\n";
  return 0;
}

int run_moves(const PositionOptions& o, NotationStyle style) {
  Position pos = load_position(o);
  MoveList list;
  generate_legal(pos, list);
  const MoveNotation notation(pos.variant());
  notation.require(style);
  std::vector<std::string> texts;
  for (const Move m : list) texts.push_back(notation.write(pos, m, style));
  std::sort(texts.begin(), texts.end());
  for (std::size_t i = 0; i < texts.size(); ++i) std::cout << (i ? " " : "") << texts[i];
  std::cout << "\n";
  return 0;
}

int run_validate(const std::string& file) {
  const auto start = std::chrono::steady_clock::now();
  const auto variant = load_variant(file);
  const double ms = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count();
  const RuleSet& r = variant->rules();
  std::cout << file << ": ok: " << r.name << ", " << r.board.files << "x" << r.board.ranks << " board, "
            << r.pieces.size() << (r.pieces.size() == 1 ? " kind" : " kinds") << " of piece, loaded and compiled in " << ms << " ms\n";
  return 0;
}

// Each kind on a line: its name, its moves in Betza, what Betza cannot say of them, and the moves
// in words, all read from the compiled rules (its `like`s resolved).
int run_describe(const std::string& file) {
  const auto variant = load_variant(file);
  const RuleSet& r = variant->rules();
  for (const PieceDef& piece : r.pieces) {
    BetzaText betza = write_betza(piece.parts, r.zone_names);
    if (piece.stay_in >= 0) betza.unsaid.push_back("stay_in " + r.zone_names[std::size_t(piece.stay_in)]);
    if (piece.add_moves_hook) betza.unsaid.push_back("hook add_moves");
    std::string beyond;
    for (const std::string& u : betza.unsaid) beyond += (beyond.empty() ? "; not in Betza: " : ", ") + u;
    std::cout << piece.name << " (" << (betza.betza.empty() ? "-" : betza.betza) << beyond
              << "): " << describe_parts(piece.parts, r.zone_names) << "\n";
  }
  return 0;
}

// The file as language 1 writes it, on stdout or over the file itself.
int run_migrate(const std::string& file, bool in_place) {
  const std::string migrated = migrate_rule_text(read_text_file(file), file);
  if (!in_place) {
    std::cout << migrated;
    return 0;
  }
  std::ofstream out(file, std::ios::binary | std::ios::trunc);
  out << migrated;
  if (!out.flush()) throw Error("cannot write " + quote(file));
  return 0;
}

}  // namespace

void add_perft_command(CLI::App& app, Action& action) {
  auto o = std::make_shared<PositionOptions>();
  auto depth = std::make_shared<int>(1);
  auto divide = std::make_shared<bool>(false);
  auto threads = std::make_shared<int>(1);
  CLI::App* cmd = app.add_subcommand("perft", "Count the leaf nodes of the legal move tree; the count is the last line");
  add_position_options(*cmd, *o);
  cmd->add_option("--depth", *depth, "plies to search")->required()->check(CLI::Range(0, 64));
  cmd->add_flag("--divide", *divide, "first print each root move with its count");
  cmd->add_option("-j,--threads", *threads, "threads counting subtrees (in each process under mpirun)")
      ->check(CLI::Range(1, 256));
  cmd->callback([&action, o, depth, divide, threads] {
    action = [o, depth, divide, threads] { return run_perft(*o, *depth, *divide, *threads); };
  });
}

void add_moves_command(CLI::App& app, Action& action) {
  auto o = std::make_shared<PositionOptions>();
  auto notation = std::make_shared<std::string>("uci");
  CLI::App* cmd = app.add_subcommand("moves", "Print every legal move, sorted, space-separated on one line");
  add_position_options(*cmd, *o);
  cmd->add_option("--notation", *notation, "uci (coordinates, the default), san, wxf, janggi, korean, iccs, chinese or chinese-traditional")
      ->check(CLI::IsMember(notation_style_names()));
  cmd->callback([&action, o, notation] {
    action = [o, notation] {
      NotationStyle style = NotationStyle::Coordinates;
      notation_style_by_name(*notation, style);  // CLI11 has checked the word
      return run_moves(*o, style);
    };
  });
}

void add_validate_command(CLI::App& app, Action& action) {
  auto file = std::make_shared<std::string>();
  CLI::App* cmd = app.add_subcommand("validate", "Load and compile a rule file; report the first error with its line");
  cmd->add_option("FILE", *file, "variant YAML file")->required();
  cmd->callback([&action, file] { action = [file] { return run_validate(*file); }; });
}

void add_describe_command(CLI::App& app, Action& action) {
  auto file = std::make_shared<std::string>();
  CLI::App* cmd = app.add_subcommand("describe", "Print each kind's movement in Betza's notation and in words, one line a kind");
  cmd->add_option("FILE", *file, "variant YAML file")->required();
  cmd->callback([&action, file] { action = [file] { return run_describe(*file); }; });
}

void add_migrate_command(CLI::App& app, Action& action) {
  auto file = std::make_shared<std::string>();
  auto in_place = std::make_shared<bool>(false);
  CLI::App* cmd = app.add_subcommand("migrate", "Rewrite a rule file to the current rule language (to stdout, or --in-place)");
  cmd->add_option("FILE", *file, "rule YAML file")->required();
  cmd->add_flag("--in-place", *in_place, "rewrite FILE itself");
  cmd->callback([&action, file, in_place] { action = [file, in_place] { return run_migrate(*file, *in_place); }; });
}

// The language's reference, generated from the loader's key tables: rules/schema.json and
// rules/REFERENCE.md are this command's output, and tests/loader/reference_test.cpp keeps them so.
void add_schema_command(CLI::App& app, Action& action) {
  auto markdown = std::make_shared<bool>(false);
  CLI::App* cmd = app.add_subcommand("schema", "Print the rule language as a JSON Schema (or --markdown: rules/REFERENCE.md)");
  cmd->add_flag("--markdown", *markdown, "print the reference as Markdown instead");
  cmd->callback([&action, markdown] {
    action = [markdown] {
      std::cout << (*markdown ? key_reference_markdown() : server::variant_schema().dump(2) + "\n");
      return 0;
    };
  });
}

}  // namespace palace::cli
