// perft spread over a job set (jobs.h): the tree is cut at the shallowest ply with enough subtrees to
// keep every thread of every process busy, and each subtree is a job.
#pragma once

#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "position/position.h"

namespace palace::distributed {

struct PerftCount {
  std::uint64_t total = 0;
  std::vector<std::pair<std::string, std::uint64_t>> divide;  // per root move, in generation order
};

// The leaf count of the tree `depth` plies below the position `load` returns (every process loads
// its own), split by root move when `divide`. The count on the lead, nullopt elsewhere.
std::optional<PerftCount> perft(const std::function<Position()>& load, int depth, int threads, bool divide);

}  // namespace palace::distributed
