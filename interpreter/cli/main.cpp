// The `palace` command line: thin wrappers that load a variant, set a position and print results
// in the formats the issues define (they are a contract: extend them, don't change them).
#include <CLI/CLI.hpp>

#include <algorithm>
#include <chrono>
#include <iostream>
#include <string>
#include <vector>

#include "compiler/variant.h"
#include "movegen/movegen.h"
#include "position/position.h"

namespace {

using namespace palace;

// Bad input of any kind: one line on stderr, exit code 2.
constexpr int BadInput = 2;

Position make_position(const std::string& variant_file, const std::string& fen) {
  Position pos(load_variant(variant_file));
  if (!fen.empty()) pos.set_fen(fen);
  return pos;
}

std::vector<std::string> sorted_moves(Position& pos) {
  MoveList list;
  generate_legal(pos, list);
  std::vector<std::string> out;
  for (const Move m : list) out.push_back(pos.move_text(m));
  std::sort(out.begin(), out.end());
  return out;
}

int run_perft(const std::string& file, const std::string& fen, int depth, bool divide) {
  Position pos = make_position(file, fen);
  if (!divide) {
    std::cout << perft(pos, depth) << "\n";
    return 0;
  }
  MoveList list;
  generate_legal(pos, list);
  std::vector<std::pair<std::string, std::uint64_t>> rows;
  std::uint64_t total = 0;
  for (const Move m : list) {
    pos.do_move(m);
    const std::uint64_t n = perft(pos, depth - 1);
    pos.undo_move();
    rows.emplace_back(pos.move_text(m), n);
    total += n;
  }
  std::sort(rows.begin(), rows.end());
  for (const auto& [move, n] : rows) std::cout << move << ": " << n << "\n";
  std::cout << total << "\n";
  return 0;
}

int run_moves(const std::string& file, const std::string& fen) {
  Position pos = make_position(file, fen);
  const auto moves = sorted_moves(pos);
  for (std::size_t i = 0; i < moves.size(); ++i) std::cout << (i ? " " : "") << moves[i];
  std::cout << "\n";
  return 0;
}

int run_validate(const std::string& file) {
  const auto start = std::chrono::steady_clock::now();
  const auto variant = load_variant(file);
  const auto elapsed = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count();
  const RuleSet& r = variant->rules();
  std::cout << file << ": ok: " << r.name << ", " << r.board.files << "x" << r.board.ranks << " board, "
            << r.pieces.size() << " kinds of piece, loaded and compiled in " << elapsed << " ms\n";
  return 0;
}

}  // namespace

int main(int argc, char** argv) {
  CLI::App app{"Palace: a data-driven rules interpreter for Janggi, Xiangqi, chess and their variants"};
  app.require_subcommand(1);

  std::string file, fen;
  int depth = 1;
  bool divide = false;

  auto* perft_cmd = app.add_subcommand("perft", "Count the leaf nodes of the legal move tree");
  perft_cmd->add_option("VARIANT_FILE", file, "variant YAML file")->required();
  perft_cmd->add_option("--fen", fen, "start from this position instead of the set-up");
  perft_cmd->add_option("--depth", depth, "plies to search")->required()->check(CLI::Range(0, 64));
  perft_cmd->add_flag("--divide", divide, "print each root move's count before the total");

  auto* moves_cmd = app.add_subcommand("moves", "Print every legal move, sorted, on one line");
  moves_cmd->add_option("VARIANT_FILE", file, "variant YAML file")->required();
  moves_cmd->add_option("--fen", fen, "position (default: the set-up)");

  auto* validate_cmd = app.add_subcommand("validate", "Load and compile a variant file, reporting the first error");
  validate_cmd->add_option("FILE", file, "variant YAML file")->required();

  try {
    app.parse(argc, argv);
  } catch (const CLI::ParseError& e) {
    const int code = app.exit(e);
    return code == 0 ? 0 : BadInput;
  }

  try {
    if (*perft_cmd) return run_perft(file, fen, depth, divide);
    if (*moves_cmd) return run_moves(file, fen);
    if (*validate_cmd) return run_validate(file);
  } catch (const RuleError& e) {
    std::cerr << "error: " << e.what() << "\n";
    return BadInput;
  } catch (const FenError& e) {
    std::cerr << "error: " << e.what() << "\n";
    return BadInput;
  }
  return 0;
}
