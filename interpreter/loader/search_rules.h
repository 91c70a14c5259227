// The optional `search:` section of a variant: heuristics of the engine's search that help some
// games and cost others, so that each variant file picks its own, as Fairy-Stockfish tunes its
// search by variant. Every default is the search as it runs without the section.
#pragma once

#include <cstdint>

#include "loader/config_tree.h"

namespace palace {

// Which checks the search extends by a ply.
enum class CheckExtension : std::uint8_t {
  All,   // every check
  Safe,  // a check whose checking piece is not left hanging (attacked and not defended)
};

struct SearchRules {
  // Late-move reductions also of quiet moves out of check, not only of quiet moves in a quiet
  // position.
  bool reduce_evasions = false;
  CheckExtension extend_checks = CheckExtension::All;
  // How many earlier moves a quiet move's continuation history follows: 1, the move it answers;
  // 2, also its own side's move before that.
  int continuation_plies = 1;
};

constexpr int MostContinuationPlies = 2;

// Reads `search: {reduce_evasions: BOOL, extend_checks: all|safe, continuation_plies: 1|2}`.
// Throws RuleError.
SearchRules read_search_rules(const ConfigNode& node);

}  // namespace palace
