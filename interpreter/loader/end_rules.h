// The sections of `ends:` about how a whole game ends that take more than one word: repetition and
// whom it blames, the move limit, material that can never mate, and the endgame count. read_ends
// hands them here; each throws RuleError naming the line at fault and fills only its own EndRules
// fields.
#pragma once

#include "loader/rule_set.h"

namespace palace {

// repetition: {count, result (draw, counting or {winner: SIDE}), claim, perpetual_check, perpetual_chase, chase, shuttle}
void read_repetition(const ConfigNode& node, RuleSet& rules);

// move_limit: {plies, reset_by, result, claim}
void read_move_limit(const ConfigNode& node, RuleSet& rules);

// dead_material: a list of whole-board piece lists, {one_colour: [kinds]} or {only: [kinds]}.
void read_dead_material(const ConfigNode& node, RuleSet& rules);

// endgame_count: {blocked_by: [kinds], board: MOVES, bare: [{pieces: [kinds], moves: MOVES}, ...]}
void read_endgame_count(const ConfigNode& node, RuleSet& rules);

}  // namespace palace
