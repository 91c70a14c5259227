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

void BM_Perft(benchmark::State& state, const std::string& name, int depth,
              palace::MoveBackend backend = palace::MoveBackend::Fastest) {
  palace::Position pos(palace::load_variant(variant_file(name), backend));
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
BENCHMARK_CAPTURE(BM_Perft, shogi_d5, std::string("shogi"), 5)->Unit(benchmark::kSecond)->Iterations(1);
BENCHMARK_CAPTURE(BM_Perft, minishogi_d6, std::string("minishogi"), 6)->Unit(benchmark::kSecond)->Iterations(1);
BENCHMARK_CAPTURE(BM_Perft, crazyhouse_d5, std::string("crazyhouse"), 5)->Unit(benchmark::kSecond)->Iterations(1);
BENCHMARK_CAPTURE(BM_Perft, capablanca_d5, std::string("capablanca"), 5)->Unit(benchmark::kSecond)->Iterations(1);
BENCHMARK_CAPTURE(BM_Perft, grand_d4, std::string("grand"), 4)->Unit(benchmark::kSecond)->Iterations(1);
// Chess, the games of two-word bitboards and those whose cannons hop on the mailbox generator, the
// back end they had before.
BENCHMARK_CAPTURE(BM_Perft, janggi_modern_d5_mailbox, std::string("janggi-modern"), 5, palace::MoveBackend::Mailbox)->Unit(benchmark::kSecond)->Iterations(1);
BENCHMARK_CAPTURE(BM_Perft, chess_d6_mailbox, std::string("chess"), 6, palace::MoveBackend::Mailbox)->Unit(benchmark::kSecond)->Iterations(1);
BENCHMARK_CAPTURE(BM_Perft, xiangqi_d5_mailbox, std::string("xiangqi"), 5, palace::MoveBackend::Mailbox)->Unit(benchmark::kSecond)->Iterations(1);
BENCHMARK_CAPTURE(BM_Perft, minixiangqi_d5_mailbox, std::string("minixiangqi"), 5, palace::MoveBackend::Mailbox)->Unit(benchmark::kSecond)->Iterations(1);
BENCHMARK_CAPTURE(BM_Perft, shogi_d5_mailbox, std::string("shogi"), 5, palace::MoveBackend::Mailbox)->Unit(benchmark::kSecond)->Iterations(1);
BENCHMARK_CAPTURE(BM_Perft, capablanca_d5_mailbox, std::string("capablanca"), 5, palace::MoveBackend::Mailbox)->Unit(benchmark::kSecond)->Iterations(1);
BENCHMARK_CAPTURE(BM_Perft, grand_d4_mailbox, std::string("grand"), 4, palace::MoveBackend::Mailbox)->Unit(benchmark::kSecond)->Iterations(1);
BENCHMARK_CAPTURE(BM_Perft, chess960_d5, std::string("chess960"), 5)->Unit(benchmark::kSecond)->Iterations(1);
BENCHMARK_CAPTURE(BM_Perft, atomic_d5, std::string("atomic"), 5)->Unit(benchmark::kSecond)->Iterations(1);
BENCHMARK_CAPTURE(BM_Perft, antichess_d6, std::string("antichess"), 6)->Unit(benchmark::kSecond)->Iterations(1);
BENCHMARK_CAPTURE(BM_Perft, three_check_d5, std::string("three-check"), 5)->Unit(benchmark::kSecond)->Iterations(1);
BENCHMARK_CAPTURE(BM_Perft, king_of_the_hill_d5, std::string("king-of-the-hill"), 5)->Unit(benchmark::kSecond)->Iterations(1);
BENCHMARK_CAPTURE(BM_Perft, horde_d6, std::string("horde"), 6)->Unit(benchmark::kSecond)->Iterations(1);
BENCHMARK_CAPTURE(BM_Perft, makruk_d5, std::string("makruk"), 5)->Unit(benchmark::kSecond)->Iterations(1);
BENCHMARK_CAPTURE(BM_Perft, shatranj_d6, std::string("shatranj"), 6)->Unit(benchmark::kSecond)->Iterations(1);
BENCHMARK_CAPTURE(BM_Perft, minixiangqi_d5, std::string("minixiangqi"), 5)->Unit(benchmark::kSecond)->Iterations(1);
BENCHMARK_CAPTURE(BM_Perft, manchu_d5, std::string("manchu"), 5)->Unit(benchmark::kSecond)->Iterations(1);
BENCHMARK_CAPTURE(BM_Perft, berolina_d5, std::string("berolina"), 5)->Unit(benchmark::kSecond)->Iterations(1);
BENCHMARK_CAPTURE(BM_Perft, dobutsu_d9, std::string("dobutsu"), 9)->Unit(benchmark::kSecond)->Iterations(1);
BENCHMARK_CAPTURE(BM_Perft, janggi_kakao_d5, std::string("janggi-kakao"), 5)->Unit(benchmark::kSecond)->Iterations(1);
BENCHMARK_CAPTURE(BM_LoadAndCompile, janggi_modern, std::string("janggi-modern"))->Unit(benchmark::kMillisecond);
BENCHMARK_CAPTURE(BM_LoadAndCompile, chess, std::string("chess"))->Unit(benchmark::kMillisecond);

BENCHMARK_MAIN();
