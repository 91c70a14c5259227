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
  // The same two as the game nears its end (eval.phase); -1 and empty: as above.
  int endgame_value_cp = -1;
  std::vector<int> endgame_table;
};

// A bonus for a piece that no enemy piece of its own kind can stop: none stands ahead of it on its
// file or the files beside it. One entry per rank, from the side's far rank to its first.
struct PassedEvalDef {
  int kind = -1;
  std::vector<int> bonus;
  std::vector<int> endgame_bonus;  // the same number of entries as `bonus`
};

struct EvalDef {
  std::vector<PieceEvalDef> pieces;  // by kind; empty when the variant has no `eval:` section
  // Centipawns per point each kind could move to (eval.mobility), by kind; 0 for a kind not named.
  std::vector<int> mobility;
  // How much each kind on the board (or in a hand) counts towards the opening, by kind
  // (eval.phase); all 0 when the variant does not taper its scores.
  std::vector<int> phase;
  std::vector<PassedEvalDef> passed;
  // Centipawns per point next to the enemy royal each kind could move to (eval.royal_attack).
  std::vector<int> royal_attack;
  // Centipawns for a side holding two or more of a kind on the board (eval.pair), by kind.
  std::vector<int> pair;
};

// Reads `eval:` for rules whose board, sides, zones and pieces are already read. Throws RuleError.
EvalDef read_eval(const ConfigNode& node, const RuleSet& rules);

}  // namespace palace
