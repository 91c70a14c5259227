#include "game/evaluator.h"

#include <algorithm>
#include <vector>

#include "movegen/movegen.h"

namespace palace {

namespace {

Termination win(Side winner, EndReason reason) { return {Termination::Kind::Win, winner, reason}; }
Termination draw(EndReason reason) { return {Termination::Kind::Draw, 0, reason}; }

Termination by_points(const Position& pos, EndReason reason) {
  Termination t = draw(reason);
  t.counted = true;
  t.points = {points(pos, 0), points(pos, 1)};
  if (t.points[0] != t.points[1]) {
    t.kind = Termination::Kind::Win;
    t.winner = t.points[0] > t.points[1] ? 0 : 1;
  }
  return t;
}

// Ends that count points where the variant counts, and are drawn where it does not.
Termination counted_or_drawn(const Position& pos, EndReason reason) {
  return pos.variant().game_rules().counting ? by_points(pos, reason) : draw(reason);
}

std::vector<int> non_royal_kinds(const Position& pos, Side side) {
  std::vector<int> kinds;
  for (int i = 0; i < pos.piece_count(side); ++i) {
    const int kind = kind_of(pos.at(pos.piece_square(side, i)));
    if (!pos.variant().royal(kind)) kinds.push_back(kind);
  }
  std::sort(kinds.begin(), kinds.end());
  return kinds;
}

// Plies back to the occurrence of the current position that makes it the n-th, or 0 when it is not
// there yet. A capture or a reset move cannot be undone, so positions before one are never equal to
// this one and the search stops there.
int repetition_span(const Position& pos, int count) {
  const int window = std::min<int>(pos.state().quiet_plies, pos.plies_recorded());
  const std::uint64_t hash = pos.state().hash;
  int seen = 1;
  for (int back = 2; back <= window; back += 2)
    if (pos.state_back(back).hash == hash && ++seen == count) return back;
  return 0;
}

// The side that gave check with every one of its moves over the last `span` plies, if exactly one
// did. A copy is unwound ply by ply: the side to move in each earlier position shows whether the
// move that led to it gave check.
int perpetual_checker(const Position& pos, int span) {
  Position scratch(pos);
  bool every_move_checked[SideCount] = {true, true};
  for (int ply = 0; ply < span; ++ply) {
    const Side mover = opponent(scratch.side_to_move());
    if (!in_check(scratch)) every_move_checked[mover] = false;
    scratch.undo_move();
  }
  if (every_move_checked[0] == every_move_checked[1]) return -1;
  return every_move_checked[0] ? 0 : 1;
}

}  // namespace

double points(const Position& pos, Side side) {
  const Variant& v = pos.variant();
  double total = v.game_rules().count_bonus[side];
  for (int i = 0; i < pos.piece_count(side); ++i) total += v.rules().pieces[kind_of(pos.at(pos.piece_square(side, i)))].value;
  return total;
}

Termination judge(const Position& pos, int legal_move_count) {
  const GameRules& rules = pos.variant().game_rules();
  const Side us = pos.side_to_move();

  switch (ended_by_rule(pos)) {
    case RuleEnd::Standoff: return counted_or_drawn(pos, EndReason::Standoff);
    case RuleEnd::BothPassed: return counted_or_drawn(pos, EndReason::BothPassed);
    case RuleEnd::GoalReached: return win(Side(goal_reached_by(pos)), EndReason::GoalReached);
    case RuleEnd::ChecksGiven: return win(Side(checks_given_by(pos)), EndReason::ChecksGiven);
    case RuleEnd::RoyalLost: return win(pos.royal(us) == NoSquare ? opponent(us) : us, EndReason::RoyalExploded);
    case RuleEnd::None: break;
  }

  // Otherwise a royal can only be missing where a player may pass in check and the opponent took
  // it; the game ended with that capture, whether or not the loser could still move.
  for (const Side side : {us, opponent(us)})
    if (pos.royal(side) == NoSquare && pos.variant().has_royal(side)) return win(opponent(side), EndReason::RoyalCaptured);

  if (legal_move_count == 0) {
    if (in_check(pos)) return win(opponent(us), EndReason::Checkmate);
    switch (rules.stalemate) {
      case Outcome::Loss: return win(opponent(us), EndReason::Stalemate);
      case Outcome::Win: return win(us, EndReason::Stalemate);
      case Outcome::Draw: break;
    }
    return draw(EndReason::Stalemate);
  }

  if (rules.repetition_count > 0) {
    if (const int span = repetition_span(pos, rules.repetition_count)) {
      if (rules.perpetual_check_loses)
        if (const int checker = perpetual_checker(pos, span); checker >= 0)
          return win(opponent(Side(checker)), EndReason::PerpetualCheck);
      return rules.repetition_by_counting ? by_points(pos, EndReason::Repetition) : draw(EndReason::Repetition);
    }
  }

  if (rules.move_limit_plies > 0 && pos.state().quiet_plies >= rules.move_limit_plies) return draw(EndReason::MoveLimit);

  if (!rules.insufficient_material.empty()) {
    const auto& lists = rules.insufficient_material;
    auto cannot_mate = [&](Side side) { return std::find(lists.begin(), lists.end(), non_royal_kinds(pos, side)) != lists.end(); };
    if (cannot_mate(0) && cannot_mate(1)) return draw(EndReason::InsufficientMaterial);
  }
  return {};
}

Termination evaluate(Position& pos) {
  MoveList list;
  generate_legal(pos, list);
  return judge(pos, list.size);
}

}  // namespace palace
