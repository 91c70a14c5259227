// Google Benchmark targets: perft speed from each variant's set-up (nodes per second are reported
// as items_per_second) and the time to load and compile a variant.
#include <benchmark/benchmark.h>

#include <string>

#include "compiler/variant.h"
#include "hooks/load_variant.h"
#include "movegen/movegen.h"
#include "position/position.h"

namespace {

std::string variant_file(const std::string& name) { return std::string(PALACE_SOURCE_DIR) + "/variants/" + name + ".yaml"; }

void BM_Perft(benchmark::State& state, const std::string& name, int depth) {
  palace::Position pos(palace::load_variant(variant_file(name)));
  std::uint64_t nodes = 0;
  for (auto _ : state) nodes += palace::perft(pos, depth);
  state.SetItemsProcessed(std::int64_t(nodes));
}

void BM_LoadAndCompile(benchmark::State& state, const std::string& name) {
  for (auto _ : state) benchmark::DoNotOptimize(palace::load_variant(variant_file(name)));
}

}  // namespace

BENCHMARK_CAPTURE(BM_Perft, janggi_modern_d5, std::string("janggi-modern"), 5)->Unit(benchmark::kSecond)->Iterations(1);
BENCHMARK_CAPTURE(BM_Perft, janggi_d5, std::string("janggi"), 5)->Unit(benchmark::kSecond)->Iterations(1);
BENCHMARK_CAPTURE(BM_Perft, janggi_casual_d5, std::string("janggi-casual"), 5)->Unit(benchmark::kSecond)->Iterations(1);
BENCHMARK_CAPTURE(BM_Perft, xiangqi_d5, std::string("xiangqi"), 5)->Unit(benchmark::kSecond)->Iterations(1);
BENCHMARK_CAPTURE(BM_Perft, chess_d6, std::string("chess"), 6)->Unit(benchmark::kSecond)->Iterations(1);
BENCHMARK_CAPTURE(BM_LoadAndCompile, janggi_modern, std::string("janggi-modern"))->Unit(benchmark::kMillisecond);
BENCHMARK_CAPTURE(BM_LoadAndCompile, chess, std::string("chess"))->Unit(benchmark::kMillisecond);

BENCHMARK_MAIN();
