#include "search/see.h"

#include "movegen/movegen.h"

namespace palace::search {

namespace {

// The exchange as a quick test judges it where see_ge cannot: the victim, less the capturer where
// a dearer piece takes onto a defended point.
int quick_exchange(const Position& pos, Move m, const Evaluation& eval) {
  const Piece victim = captured_piece(pos, m);
  if (!victim) return 0;
  const int gain = eval.value(kind_of(victim));
  const Kind attacker = kind_of(pos.at(m.from()));
  const bool losing = eval.value(attacker) > gain && attacked(pos, m.to(), side_of(victim), attacker);
  return losing ? gain - eval.value(attacker) : gain;
}

}  // namespace

bool see_ge(const Position& pos, Move m, int threshold, const Evaluation& eval) {
  if (m.is_pass() || m.type() == MoveType::Compound) return 0 >= threshold;
  const Variant& v = pos.variant();
  // Where runtime hooks may forbid or add captures, the tables cannot tell who recaptures without
  // asking them at every step; where captures explode, no recapture follows. Both are judged by
  // the quick test instead, which may call a losing capture even and never calls a quiet move bad.
  if (v.has_runtime_hooks() || v.explosive()) return quick_exchange(pos, m, eval) >= threshold;

  const int* worth = eval.exchange_values();
  const Point to = m.to();
  const Kind mover = m.type() == MoveType::Drop ? m.drop_kind() : kind_of(pos.at(m.from()));
  const Kind arrives = m.promotion_kind() >= 0 ? m.promotion_kind() : mover;
  const Piece victim = captured_piece(pos, m);
  // What the move gains if nothing recaptures, above the threshold; then what it still gains if
  // the piece it leaves there is taken for nothing.
  int swap = (victim ? worth[kind_of(victim)] : 0) + worth[arrives] - worth[mover] - threshold;
  if (swap < 0) return false;
  swap = worth[arrives] - swap;
  if (swap <= 0) return true;

  Emptied gone;
  if (m.type() != MoveType::Drop) gone.add(m.from());
  if (m.type() == MoveType::CaptureGhost) gone.add(pos.state().ghost_victim);
  Side side = pos.side_to_move();
  Kind on_target = arrives;
  // Whether the side to move is ahead of the threshold once the side to move next stops taking;
  // each capture flips it, and `swap` stays what the capturing side's opponent would keep.
  bool ahead = true;
  for (;;) {
    side = opponent(side);
    const Attacker a = cheapest_attacker(pos, to, side, on_target, gone, worth);
    if (a.from == NoPoint) break;
    ahead = !ahead;
    gone.add(a.from);
    // A royal may take last only: where the other side could take it back, it may not take.
    if (v.royal(a.kind))
      return cheapest_attacker(pos, to, opponent(side), a.kind, gone, worth).from != NoPoint ? !ahead : ahead;
    swap = worth[a.kind] - swap;
    if (swap < int(ahead)) break;
    on_target = a.kind;
  }
  return ahead;
}

}  // namespace palace::search
