// Static exchange evaluation: what the side to move gains by the captures and recaptures a move
// starts on its arrival point, each side taking with its cheapest piece and free to stop, as the
// search's ordering and pruning ask it. From the variant's own attack tables (movegen.h's
// cheapest_attacker): steps and leaps, blocked leaps, slides, hops and the zones pieces keep to.
#pragma once

#include "position/position.h"
#include "search/eval.h"

namespace palace::search {

// Whether the exchange `m` starts on its arrival point gains the side to move at least
// `threshold` (in the evaluation's piece values), each later capture by the cheapest piece that
// can make it, read from the board as the exchange has emptied it, so a slide, a leap or a hop the
// exchange opens or closes counts. The first move may promote, drop or take a ghost; the
// recaptures are taken as plain ones. Pins are not looked at, nor the game's end: a royal
// recaptures only where nothing of the other side's could then take it. A pass or a compound move
// exchanges nothing.
bool see_ge(const Position& pos, Move m, int threshold, const Evaluation& eval);

}  // namespace palace::search
