// `palace bench`: perft speed from one position, single thread, leaves counted in bulk.
#include <chrono>
#include <iostream>
#include <memory>

#include "cli/commands.h"
#include "movegen/movegen.h"

namespace palace::cli {

namespace {

struct BenchOptions {
  PositionOptions position;
  int depth = 5;
};

int run_bench(const BenchOptions& o) {
  Position pos = load_position(o.position);
  const auto start = std::chrono::steady_clock::now();
  const std::uint64_t nodes = perft(pos, o.depth);
  const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  std::cout << "variant " << pos.variant().rules().name << " depth " << o.depth << "\n"
            << "time " << seconds << " s\n"
            << "nodes/s " << std::uint64_t(double(nodes) / seconds) << "\n"
            << nodes << "\n";
  return 0;
}

}  // namespace

void add_bench_command(CLI::App& app, Action& action) {
  auto o = std::make_shared<BenchOptions>();
  CLI::App* cmd = app.add_subcommand("bench", "Time a perft and report nodes per second; the node count is the last line");
  add_position_options(*cmd, o->position);
  cmd->add_option("--depth", o->depth, "plies to search (default 5)")->check(CLI::Range(0, 64));
  cmd->callback([&action, o] { action = [o] { return run_bench(*o); }; });
}

}  // namespace palace::cli
