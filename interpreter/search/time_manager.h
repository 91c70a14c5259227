// How long one search may think: a fixed movetime, or a share of the side's clock. Only limits
// that name a time consult the clock, so depth and node limits stay deterministic.
#pragma once

#include <chrono>
#include <cstdint>

#include "search/search.h"

namespace palace::search {

class TimeManager {
 public:
  TimeManager(const Limits& limits, Side us);

  bool timed() const { return budget_ms_ > 0; }
  // What the search may spend, in milliseconds; 0 when untimed.
  std::int64_t budget_ms() const { return budget_ms_; }
  std::int64_t elapsed_ms() const;
  // Past the budget: stop now, mid-iteration.
  bool out_of_time() const { return timed() && elapsed_ms() >= budget_ms_; }
  // Another iteration would likely not finish within the budget. A fixed time per move is the
  // opponent's too: it is spent to the end, and the last, unfinished iteration may still improve
  // the move. A share of a clock is saved instead for the moves to come.
  bool iteration_unaffordable() const { return timed() && !fixed_ && elapsed_ms() * 2 >= budget_ms_; }

 private:
  std::chrono::steady_clock::time_point start_;
  std::int64_t budget_ms_ = 0;
  bool fixed_ = false;  // a movetime, not a share of a clock
};

}  // namespace palace::search
