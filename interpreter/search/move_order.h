// The order moves are tried in: the hash move, captures by victim value then cheapest attacker,
// killers, the countermove, quiet moves by history, captures that lose the exchange, and a pass
// last. Moves are picked in place in the caller's list, their scores in the caller's MoveScores.
#pragma once

#include <cstdint>
#include <utility>
#include <vector>

#include "core/types.h"
#include "movegen/movegen.h"  // is_capture
#include "position/position.h"
#include "search/eval.h"

namespace palace::search {

constexpr int MaxPly = 128;

// What the search learnt about quiet moves: the killers of each ply, a history score per side,
// from and to point, the quiet reply that last refuted each move (its countermove), and a history
// score of each reply to each move, by the kinds that move and where they go (continuation); where
// the variant asks, also of each move after its own side's move before.
struct Histories {
  explicit Histories(const Variant& variant);

  Move killers[MaxPly][2];
  int history[SideCount][MaxPoints][MaxPoints];
  Move counters[SideCount][MaxPoints][MaxPoints];
  // continuation[(back * cells + earlier) * cells + move]: how a move did after the move `back`
  // plies before the one it answers (0: that one, 1: its own side's move before), for `back` below
  // the variant's search.continuation_plies; a move's cell is its kind x squares + its arrival
  // point. Empty where the variant's cells are too many for a table of every pair.
  std::vector<int> continuation;
  int squares;
  int cells;
  int plies;  // the variant's search.continuation_plies

  void clear();
  // The history score of a move; a pass, from and to no point, has none.
  int of(Side side, Move m) const { return m.is_pass() ? 0 : history[side][m.from()][m.to()]; }
  // A continuation cell: the kind that moves and its arrival point; a move's, before it is made.
  int cell(Kind kind, Point to) const { return kind * squares + to; }
  int cell(const Position& pos, Move m) const;
  // The continuation scores of every move that follows the move made `back` plies before the one
  // that led to `pos` (0: the move it answers, 1: the side's own move before), by the move's cell;
  // null where no piece moved then, `back` is beyond the variant's search.continuation_plies, or
  // the variant has no table.
  const int* replies(const Position& pos, int back) const;
  int* replies(const Position& pos, int back) {
    return const_cast<int*>(std::as_const(*this).replies(pos, back));
  }
  // What the histories say of the quiet move `m` of `pos`: its history score plus its continuation
  // scores after the earlier moves whose replies are `follows` (replies(pos, 0), replies(pos, 1)).
  int quiet_score(const Position& pos, Move m, const int* const (&follows)[MostContinuationPlies]) const {
    if (m.is_pass()) return 0;
    const int c = cell(pos, m);
    int score = history[pos.side_to_move()][m.from()][m.to()];
    for (const int* const scores : follows)
      if (scores) score += scores[c];
    return score;
  }
  // The countermove of the move that led to `pos`, if any.
  Move counter(const Position& pos) const;
  // A quiet move caused a cutoff at `ply` of `pos` with `depth` plies left, after the quiet moves
  // `tried` (`count` of them) had failed to: those lose what it gains.
  void reward(const Position& pos, Move m, int ply, int depth, const Move* tried, int count);
};

// What MoveOrder knows of each move of a list: as large as the list, so the search keeps both in
// its frames (node_frames.h) rather than on the stack.
struct MoveScores {
  // Read four at a time (first_best), the last group padded with scores below any move's.
  static constexpr int Lanes = 4;
  int score[MaxMoves + Lanes - 1];
  bool losing[MaxMoves];
  bool unsure[MaxMoves];  // a capture whose losing is not yet known
};

class MoveOrder {
 public:
  MoveOrder(const Position& pos, MoveList& list, MoveScores& scores, Move hash_move, const Histories& h, int ply,
            const Evaluation& eval);
  // The best move not yet returned, or a null Move when none is left.
  Move next();
  // Whether the move next() returned last is a capture that loses the exchange (see_ge), as
  // found when sorting.
  bool losing() const { return s_.losing[done_ - 1]; }

 private:
  const Position& pos_;
  const Evaluation& eval_;
  MoveList& list_;
  MoveScores& s_;
  int done_ = 0;
};

}  // namespace palace::search
