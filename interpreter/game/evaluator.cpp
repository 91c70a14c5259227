#include "game/evaluator.h"

#include "ends/registry.h"
#include "game/material.h"
#include "game/repetition.h"
#include "movegen/movegen.h"
#include "position/endgame_count.h"

namespace palace {

Verdict judge_cycle(const Position& pos, int plies) { return pos.variant().ends().get<Repetition>().cycle(pos, plies); }

double points(const Position& pos, Side side) { return pos.variant().ends().get<Counting>().points(pos, side); }

Verdict judge(const Position& pos, int legal_move_count) {
  Judging judging;
  judging.legal_moves = legal_move_count;
  return judge_ends<Stage::AfterMoves>(pos, judging) ? judging.result : judging.going_on;
}

Verdict judge_move(Position& pos, Move m) {
  if (!pos.variant().ends().get<Repetition>().may_refuse()) return {};
  pos.do_move(m);
  Verdict after = judge(pos, 1);
  pos.undo_move();
  return after.refused ? after : Verdict{};
}

Verdict evaluate(Position& pos) {
  MoveList list;
  generate_legal(pos, list);
  return judge(pos, list.size);
}

}  // namespace palace
