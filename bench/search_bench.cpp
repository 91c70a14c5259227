// Search speed from each variant's set-up: a fixed-depth search, so the node count is the same
// every run; nodes per second are reported as items_per_second, the time to depth 8 as the time.
// The games of two-word bitboards, those whose cannons hop, and chess also search on the mailbox
// generator, the back end they had before (the trees differ, as the two list moves in another
// order: compare nodes per second).
#include <benchmark/benchmark.h>

#include <string>

#include "compiler/variant.h"
#include "hooks/load_variant.h"
#include "position/position.h"
#include "search/search.h"

namespace {

std::string search_variant_file(const std::string& name) {
  return std::string(PALACE_SOURCE_DIR) + "/variants/" + name + ".yaml";
}

void BM_SearchToDepth(benchmark::State& state, const std::string& name, int depth,
                      palace::MoveBackend backend = palace::MoveBackend::Fastest) {
  const auto variant = palace::load_variant(search_variant_file(name), backend);
  const palace::Position pos(variant);
  palace::search::Limits limits;
  limits.depth = depth;
  std::uint64_t nodes = 0;
  for (auto _ : state) {
    palace::search::Searcher searcher(variant);
    searcher.search(pos, limits, [&](const palace::search::Report& r) { if (r.depth == depth) nodes += r.nodes; });
  }
  state.SetItemsProcessed(std::int64_t(nodes));
  state.counters["nodes"] = double(nodes) / double(state.iterations());
}

}  // namespace

BENCHMARK_CAPTURE(BM_SearchToDepth, janggi_modern_d8, std::string("janggi-modern"), 8)->Unit(benchmark::kSecond)->Iterations(1);
BENCHMARK_CAPTURE(BM_SearchToDepth, janggi_modern_d8_mailbox, std::string("janggi-modern"), 8, palace::MoveBackend::Mailbox)->Unit(benchmark::kSecond)->Iterations(1);
BENCHMARK_CAPTURE(BM_SearchToDepth, xiangqi_d8, std::string("xiangqi"), 8)->Unit(benchmark::kSecond)->Iterations(1);
BENCHMARK_CAPTURE(BM_SearchToDepth, xiangqi_d8_mailbox, std::string("xiangqi"), 8, palace::MoveBackend::Mailbox)->Unit(benchmark::kSecond)->Iterations(1);
BENCHMARK_CAPTURE(BM_SearchToDepth, chess_d8, std::string("chess"), 8)->Unit(benchmark::kSecond)->Iterations(1);
BENCHMARK_CAPTURE(BM_SearchToDepth, chess_d8_mailbox, std::string("chess"), 8, palace::MoveBackend::Mailbox)->Unit(benchmark::kSecond)->Iterations(1);
BENCHMARK_CAPTURE(BM_SearchToDepth, shogi_d15, std::string("shogi"), 15)->Unit(benchmark::kSecond)->Iterations(1);
BENCHMARK_CAPTURE(BM_SearchToDepth, shogi_d15_mailbox, std::string("shogi"), 15, palace::MoveBackend::Mailbox)->Unit(benchmark::kSecond)->Iterations(1);
BENCHMARK_CAPTURE(BM_SearchToDepth, capablanca_d19, std::string("capablanca"), 19)->Unit(benchmark::kSecond)->Iterations(1);
BENCHMARK_CAPTURE(BM_SearchToDepth, capablanca_d19_mailbox, std::string("capablanca"), 19, palace::MoveBackend::Mailbox)->Unit(benchmark::kSecond)->Iterations(1);
BENCHMARK_CAPTURE(BM_SearchToDepth, grand_d24, std::string("grand"), 24)->Unit(benchmark::kSecond)->Iterations(1);
BENCHMARK_CAPTURE(BM_SearchToDepth, grand_d24_mailbox, std::string("grand"), 24, palace::MoveBackend::Mailbox)->Unit(benchmark::kSecond)->Iterations(1);
