// The order moves are tried in: the hash move, captures by victim value then cheapest attacker,
// killers, quiet moves by history, and a pass last. Moves are picked in place in the caller's
// list, their scores on the stack beside it.
#pragma once

#include <cstdint>

#include "core/types.h"
#include "movegen/movegen.h"  // is_capture
#include "position/position.h"
#include "search/eval.h"

namespace palace::search {

constexpr int MaxPly = 128;

// What the search learnt about quiet moves: the killers of each ply and a history score per
// side, from and to point.
struct Histories {
  Move killers[MaxPly][2];
  int history[SideCount][MaxSquares][MaxSquares];

  void clear();
  // A quiet move caused a cutoff at `ply` with `depth` plies left.
  void reward(Side side, Move m, int ply, int depth);
};

class MoveOrder {
 public:
  MoveOrder(const Position& pos, MoveList& list, Move hash_move, const Histories& h, int ply,
            const Evaluation& eval);
  // The best move not yet returned, or a null Move when none is left.
  Move next();

 private:
  MoveList& list_;
  int scores_[MaxMoves];
  int done_ = 0;
};

}  // namespace palace::search
