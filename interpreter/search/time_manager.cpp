#include "search/time_manager.h"

#include <algorithm>

namespace palace::search {

namespace {

// Kept back from a share of a clock for the move to travel to the GUI, where running over loses
// the game. A fixed movetime is spent whole, as UCI asks ("search exactly x mseconds") and
// Stockfish does.
constexpr std::int64_t OverheadMs = 10;
// Moves the clock is spread over when the time control does not say.
constexpr int DefaultMovesToGo = 30;

}  // namespace

TimeManager::TimeManager(const Limits& limits, Side us) : start_(std::chrono::steady_clock::now()) {
  if (limits.infinite) return;
  if (limits.movetime_ms > 0) {
    budget_ms_ = limits.movetime_ms;
    fixed_ = true;
    return;
  }
  const std::int64_t left = limits.time_left_ms[us];
  if (left < 0) return;
  const int moves = limits.moves_to_go > 0 ? limits.moves_to_go : DefaultMovesToGo;
  const std::int64_t share = left / moves + limits.increment_ms[us] * 8 / 10;
  // Never more than half of what is left, whatever the increment promises.
  budget_ms_ = std::max<std::int64_t>(1, std::min(share, left / 2) - OverheadMs);
}

std::int64_t TimeManager::elapsed_ms() const {
  return std::chrono::duration_cast<std::chrono::milliseconds>(std::chrono::steady_clock::now() - start_).count();
}

}  // namespace palace::search
