// The optional `eval:` section of a variant: how the engine values pieces and points, as written
// in YAML. Plain data; the search compiles it once into per-square score tables.
#pragma once

#include <optional>
#include <utility>
#include <vector>

#include "core/types.h"
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
  Kind kind = NoKind;
  std::vector<int> bonus;
  std::vector<int> endgame_bonus;  // the same number of entries as `bonus`
  // Endgame centipawns, by rank as `bonus`, per point of distance from the side's own royal and
  // from the enemy's to the point ahead of the piece (up to PassedRoyalReach points); empty if
  // not given.
  std::vector<int> own_royal, enemy_royal;
};

// How far a royal's distance to a passed piece still counts: a royal farther away is as good as
// absent.
constexpr int PassedRoyalReach = 5;

// How a side's pieces of one kind stand on the files (eval.structure): centipawns for each piece
// with no friend of its kind on a file beside it, and for each one more than one on a file.
struct StructureEvalDef {
  Kind kind = NoKind;
  int isolated = 0, doubled = 0;
  int endgame_isolated = 0, endgame_doubled = 0;  // the same, as the game nears its end
};

// Centipawns for a piece of `kind` on a file with no piece of a kind eval.structure names (open),
// or with none of its own side's (half open) (eval.open_file).
struct OpenFileEvalDef {
  Kind kind = NoKind;
  int open = 0, half_open = 0;
};

// A bonus in the opening for the royal's cover (eval.shelter): on the royal's file and each file
// beside it, the nearest piece of `kind` and the royal's side ahead of it scores bonus[d - 1], d
// ranks ahead; only while the royal stands in zone `zone` of its side, if one is named.
struct ShelterEvalDef {
  Kind kind = NoKind;
  std::vector<int> bonus;  // empty: no shelter term
  int zone = -1;
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
  // Centipawns for each enemy piece worth more than itself each kind could capture (eval.threat).
  std::vector<int> threat;
  // Centipawns for each other enemy piece (not a royal) each kind could capture that no enemy
  // piece could take back (eval.hanging).
  std::vector<int> hanging;
  // Centipawns for a side holding two or more of a kind on the board (eval.pair), by kind.
  std::vector<int> pair;
  std::vector<StructureEvalDef> structure;
  std::vector<OpenFileEvalDef> open_file;
  ShelterEvalDef shelter;
  // Centipawns for having the move (eval.tempo).
  int tempo = 0;
  // The game's own ends. Centipawns for the piece whose reaching a zone wins (ends.zone_reached)
  // by its distance to the zone's nearest point, entry d - 1 for d points, nothing farther away
  // (eval.goal); for a side by the checks it has given where giving them wins (ends.checks_given),
  // entry n - 1 for n checks, the last entry for more (eval.checks). Unset: DefaultGoal and
  // DefaultChecks where the game has the end.
  std::optional<std::vector<int>> goal, checks;
  // Centipawns for each piece of a kind in a hand (eval.hand), by kind; -1: its value on the board.
  std::vector<int> hand;
  // Centipawns for a side by how many pieces besides its royals it has, on the board and in hand,
  // entry n for n pieces, nothing for more (eval.few_pieces): a game lost, or won, when a side is
  // bared (ends.bare_royal, ends.no_pieces) weighs its last pieces apart from their value.
  std::vector<int> few_pieces;
};

// What eval.goal and eval.checks are where the game has the end and the engine file does not say:
// a modest pull towards the goal, and a check given worth about a pawn and the next one more.
inline const std::vector<int> DefaultGoal = {150, 60, 25};
inline const std::vector<int> DefaultChecks = {80, 250};

// Reads `eval:` for rules whose board, sides, zones and pieces are already read. Throws RuleError.
EvalDef read_eval(const ConfigNode& node, const RuleSet& rules);

}  // namespace palace
