// Google Benchmark targets: what one runtime hook call costs (scripts/README.md), each made as move
// generation makes it, through the position's hooks, on a hook that answers at once
// (tests/hooks/variants/bench_hooks.yaml: chess whose knights carry one hook of each kind).
#include <benchmark/benchmark.h>

#include <memory>
#include <string>
#include <vector>

#include "hooks/load_variant.h"
#include "position/position.h"

namespace {

struct Bench {
  palace::Position pos;
  palace::Kind knight;
  palace::Point b1, c3;
  Bench()
      : pos(palace::load_variant(std::string(PALACE_SOURCE_DIR) + "/tests/hooks/variants/bench_hooks.yaml")),
        knight(pos.variant().rules().kind_by_name("knight")),
        b1(pos.variant().board().parse_point("b1")),
        c3(pos.variant().board().parse_point("c3")) {}
};

void BM_HookAllowMove(benchmark::State& state) {
  Bench b;
  palace::MoveHooks& hooks = *b.pos.move_hooks();
  const palace::Move move(b.b1, b.c3);
  for (auto _ : state) benchmark::DoNotOptimize(hooks.allows(b.pos, b.knight, move));
  state.SetItemsProcessed(state.iterations());
}

void BM_HookAddMoves(benchmark::State& state) {
  Bench b;
  palace::MoveHooks& hooks = *b.pos.move_hooks();
  std::vector<palace::AddedTarget> targets;
  for (auto _ : state) {
    targets.clear();
    hooks.add_targets(b.pos, b.knight, b.b1, targets);
    benchmark::DoNotOptimize(targets.data());
  }
  state.SetItemsProcessed(state.iterations());
}

void BM_HookAfterMove(benchmark::State& state) {
  Bench b;
  palace::MoveHooks& hooks = *b.pos.move_hooks();
  std::vector<palace::PointEdit> edits;
  const palace::Piece knight = b.pos.at(b.b1);
  for (auto _ : state) {
    edits.clear();
    hooks.after_move(b.pos, b.knight, b.b1, b.c3, knight, palace::NoPiece, edits);
    benchmark::DoNotOptimize(edits.data());
  }
  state.SetItemsProcessed(state.iterations());
}

}  // namespace

BENCHMARK(BM_HookAllowMove);
BENCHMARK(BM_HookAddMoves);
BENCHMARK(BM_HookAfterMove);
