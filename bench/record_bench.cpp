// Google Benchmark: game records checked per second (items_per_second), as `palace replay` does
// it: a long PGN file of 500 games (the chess and Xiangqi records of tests/records/, repeated) read,
// each game's variant found by its tags, and every move replayed through the game layer.
#include <benchmark/benchmark.h>

#include <string>

#include "core/text_file.h"
#include "notation/pgn.h"
#include "notation/replay.h"

namespace {

std::string long_pgn() {
  const std::string dir = std::string(PALACE_SOURCE_DIR) + "/tests/records/";
  const std::string pair = palace::read_text_file(dir + "chess-immortal-game.pgn") + "\n" +
                           palace::read_text_file(dir + "xiangqi-li-wang-2004.pgn") + "\n";
  std::string text;
  for (int i = 0; i < 250; ++i) text += pair;
  return text;
}

void BM_ReplayRecords(benchmark::State& state) {
  const std::string text = long_pgn();
  palace::VariantCatalog catalog(std::string(PALACE_SOURCE_DIR) + "/variants");
  std::int64_t games = 0;
  for (auto _ : state) {
    for (const palace::GameRecord& record : palace::read_pgn(text)) {
      const palace::Replay replay = palace::replay_record(record, catalog.find(record, palace::StandardVariant));
      if (!replay.good) state.SkipWithError(replay.verdict.c_str());
      ++games;
    }
  }
  state.SetItemsProcessed(games);
}

}  // namespace

BENCHMARK(BM_ReplayRecords)->Unit(benchmark::kMillisecond);
