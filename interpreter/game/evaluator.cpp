#include "game/evaluator.h"

#include "game/material.h"
#include "game/repetition.h"
#include "movegen/movegen.h"
#include "position/endgame_count.h"

namespace palace {

namespace {

Verdict verdict(Outcome outcome) {
  Verdict v;
  static_cast<Outcome&>(v) = outcome;
  return v;
}
Verdict win(Side winner, Termination termination) { return verdict({termination, winner}); }
Verdict draw(Termination termination) { return verdict({termination, std::nullopt}); }

Verdict by_points(const Position& pos, Termination termination) {
  Verdict t = draw(termination);
  t.counted = true;
  t.points = {points(pos, First), points(pos, Second)};
  if (t.points[0] != t.points[1]) t.winner = Side(t.points[0] > t.points[1] ? 0 : 1);
  return t;
}

// Ends that count points where the variant counts, and are drawn where it does not.
Verdict counted_or_drawn(const Position& pos, Termination termination) {
  return pos.variant().ends().counting ? by_points(pos, termination) : draw(termination);
}

// The move that led here breaks a rule of the game's history: its mover loses, should it be played.
Verdict refused(const Position& pos, Termination termination) {
  Verdict t = win(pos.side_to_move(), termination);
  t.refused = true;
  return t;
}

// Whom a repetition of `span` plies blames, by the variant's rules in order: the one side that
// checked with every move, else the one side that chased one piece with every move.
struct Blame {
  Perpetual perpetual;
  Sanction sanction = Sanction::None;
};

Blame blame(const Position& pos, int span) {
  const EndRules& rules = pos.variant().ends();
  Blame b;
  if (rules.repetition.perpetual_check != Sanction::None)
    if (const int checker = perpetual_checker(pos, span); checker != NoSide) {
      b.perpetual = {Termination::PerpetualCheck, Side(checker)};
      b.sanction = rules.repetition.perpetual_check;
    }
  if (b.sanction == Sanction::None && rules.repetition.perpetual_chase != Sanction::None)
    if (const Chaser chaser = perpetual_chaser(pos, span); chaser.side != NoSide) {
      b.perpetual = {Termination::PerpetualChase, Side(chaser.side), chaser.victim, kind_of(pos.at(chaser.victim))};
      b.sanction = rules.repetition.perpetual_chase;
    }
  b.perpetual.must_vary = b.sanction == Sanction::MustVary;
  return b;
}

// The occurrence at which a repetition rule is judged: the one that ends the game, where the variant
// has one (`count`); otherwise the first a player may claim.
int judged_occurrence(const EndRules& rules) {
  return rules.repetition.count ? rules.repetition.count : rules.repetition.claim;
}

// Whether `now`'s side, having just moved, has repeated its perpetual after it was bound to vary:
// its move made the position occur once more than the occurrence that bound it, every move since
// the first occurrence still part of the perpetual.
bool did_not_vary(const Position& pos, const Perpetual& now) {
  const int span = repetition_span(pos, judged_occurrence(pos.variant().ends()) + 1);
  if (!span) return false;
  const Perpetual whole = blame(pos, span).perpetual;
  return whole.termination == now.termination && whole.side == now.side;
}

// How the repetition rule ends the game at its count, when no perpetual is blamed: a draw, won by a
// named side, or decided by counting.
Verdict repetition_result(const Position& pos) {
  const RepetitionRule& rule = pos.variant().ends().repetition;
  Verdict t = rule.winner ? win(*rule.winner, Termination::Repetition)
              : rule.by_counting ? by_points(pos, Termination::Repetition)
                                 : draw(Termination::Repetition);
  t.occurrences = rule.count;
  return t;
}

// A repetition's verdict at `pos`: unfinished (maybe with a claim or a side bound to vary), or the end.
Verdict judge_repetition(const Position& pos) {
  const EndRules& rules = pos.variant().ends();
  const int first = rules.repetition.claim ? rules.repetition.claim : rules.repetition.count;
  Verdict going_on;
  const int span = repetition_span(pos, first);
  if (!span) return going_on;
  const int full = !rules.repetition.count ? 0 : first == rules.repetition.count ? span : repetition_span(pos, rules.repetition.count);
  const int judged = full ? full : rules.repetition.count ? 0 : span;
  const Blame b = judged ? blame(pos, judged) : Blame{};
  Verdict t;
  switch (b.sanction) {
    case Sanction::None:
      if (full) return repetition_result(pos);
      going_on.claimable = Termination::Repetition;
      going_on.occurrences = first;
      return going_on;
    case Sanction::Loss: t = win(opponent(b.perpetual.side), b.perpetual.termination); break;
    case Sanction::Illegal:
      // An illegal perpetual the side to move made: the repetition does not end the game, and the
      // move that would carry the perpetual on is refused when it is made.
      if (b.perpetual.side == pos.side_to_move()) return going_on;
      t = refused(pos, b.perpetual.termination);
      break;
    case Sanction::MustVary:
      if (b.perpetual.side != pos.side_to_move() && did_not_vary(pos, b.perpetual)) {
        t = win(opponent(b.perpetual.side), b.perpetual.termination);
        t.occurrences = judged_occurrence(rules) + 1;
        t.perpetual = b.perpetual;
        return t;
      }
      t = going_on;
      break;
  }
  t.occurrences = full ? rules.repetition.count : first;
  t.perpetual = b.perpetual;
  return t;
}

}  // namespace

Verdict judge_cycle(const Position& pos, int plies) {
  const RepetitionRule& rule = pos.variant().ends().repetition;
  if (!rule.count && !rule.claim) return {};
  const int span = repetition_span(pos, 2);
  if (!span || span >= plies || blame(pos, span).sanction != Sanction::None) return {};
  // Where a player may claim the draw before the count, the side it suits claims it.
  if (rule.claim) return draw(Termination::Repetition);
  return repetition_result(pos);
}

double points(const Position& pos, Side side) {
  const Variant& v = pos.variant();
  double total = v.ends().counting_bonus[side];
  for (int i = 0; i < pos.piece_count(side); ++i) total += v.rules().pieces[kind_of(pos.at(pos.piece_square(side, i)))].value;
  return total;
}

Verdict judge(const Position& pos, int legal_move_count) {
  const EndRules& rules = pos.variant().ends();
  const Side us = pos.side_to_move();

  if (const Outcome by_rule = ended_by_rule(pos); by_rule.finished()) {
    const bool decided_by_counting = by_rule.termination == Termination::Standoff || by_rule.termination == Termination::BothPassed;
    return decided_by_counting ? counted_or_drawn(pos, by_rule.termination) : verdict(by_rule);
  }

  // Otherwise a royal can only be missing where a player may pass in check and the opponent took
  // it; the game ended with that capture, whether or not the loser could still move. Unprotected
  // royals are not tracked as royals: the rule above finds them.
  for (const Side side : {us, opponent(us)})
    if (pos.royal(side) == NoPoint && pos.variant().has_royal(side) && !rules.royal_captured)
      return win(opponent(side), Termination::RoyalCaptured);

  if (rules.no_pieces)
    for (const Side side : {opponent(us), us})
      if (pos.piece_count(side) == 0) return verdict(outcome_for(side, *rules.no_pieces, Termination::NoPieces));

  if (legal_move_count == 0) {
    if (in_check(pos)) {
      // As the reference engine has it, such a drop may be played, but its mate loses.
      const Move last = pos.plies_recorded() > 0 ? pos.state().move : Move();
      if (last.type() == MoveType::Drop && pos.variant().drop_may_not_mate(last.drop_kind()))
        return win(us, Termination::ForbiddenDropMate);
      return win(opponent(us), Termination::Checkmate);
    }
    return verdict(outcome_for(us, rules.stalemate, Termination::Stalemate));
  }

  if (rules.repetition.shuttle_moves > 0 && moved_back_and_forth(pos, rules.repetition.shuttle_moves)) return refused(pos, Termination::Shuttle);
  if (rules.repetition.shuttle_loss_moves > 0 && shuttled_after_arriving(pos, rules.repetition.shuttle_loss_moves)) return win(us, Termination::Shuttle);

  Verdict going_on;
  if (rules.repetition.count > 0 || rules.repetition.claim > 0) {
    going_on = judge_repetition(pos);
    if (going_on.finished()) return going_on;
  }

  const int quiet = pos.state().quiet_plies;
  if (rules.move_limit.plies > 0 && quiet >= rules.move_limit.plies)
    return rules.move_limit.by_counting ? by_points(pos, Termination::MoveLimit) : draw(Termination::MoveLimit);
  if (rules.move_limit.claim > 0 && quiet >= rules.move_limit.claim && going_on.claimable == Termination::None)
    going_on.claimable = Termination::MoveLimit;
  if (count_ran_out(pos.state())) return draw(Termination::EndgameCount);

  if (material_cannot_mate(pos)) return draw(Termination::InsufficientMaterial);
  return going_on;
}

Verdict judge_move(Position& pos, Move m) {
  const EndRules& rules = pos.variant().ends();
  const bool may_refuse = rules.repetition.shuttle_moves > 0 || rules.repetition.perpetual_check == Sanction::Illegal ||
                          rules.repetition.perpetual_chase == Sanction::Illegal;
  if (!may_refuse) return {};
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
