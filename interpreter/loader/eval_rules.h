// The optional `eval:` section of a variant: how the engine values pieces and points, as written
// in YAML. Plain data; the search compiles it once into per-square score tables.
#pragma once

#include <utility>
#include <vector>

#include "loader/config_tree.h"

namespace palace {

struct RuleSet;

struct PieceEvalDef {
  int value_cp = -1;                          // replaces 100 x the piece's `value` when >= 0
  std::vector<std::pair<int, int>> zone_bonus;  // (zone index, centipawns) while in its side's zone
  // Centipawns per point, rows from the side's far rank to its own first rank, files left to
  // right: ranks x files entries, or empty. A side moving downwards reads it mirrored.
  std::vector<int> table;
};

struct EvalDef {
  std::vector<PieceEvalDef> pieces;  // by kind; empty when the variant has no `eval:` section
  // Centipawns per point each kind could move to (eval.mobility), by kind; 0 for a kind not named.
  std::vector<int> mobility;
};

// Reads `eval:` for rules whose board, sides, zones and pieces are already read. Throws RuleError.
EvalDef read_eval(const ConfigNode& node, const RuleSet& rules);

}  // namespace palace
