#include "game/evaluator.h"

#include "game/material.h"
#include "game/repetition.h"
#include "movegen/movegen.h"
#include "position/endgame_count.h"

namespace palace {

namespace {

Termination win(Side winner, EndReason reason) { return {Termination::Kind::Win, winner, reason}; }
Termination draw(EndReason reason) { return {Termination::Kind::Draw, 0, reason}; }

// A rule's outcome, given for the side it names.
Termination outcome_for(Side side, Outcome outcome, EndReason reason) {
  switch (outcome) {
    case Outcome::Loss: return win(opponent(side), reason);
    case Outcome::Win: return win(side, reason);
    case Outcome::Draw: break;
  }
  return draw(reason);
}

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

// The move that led here breaks a rule of the game's history: its mover loses, should it be played.
Termination refused(const Position& pos, EndReason reason) {
  Termination t = win(pos.side_to_move(), reason);
  t.refused = true;
  return t;
}

// Whom a repetition of `span` plies blames, by the variant's rules in order: the one side that
// checked with every move, else the one side that chased one piece with every move.
struct Blame {
  int side = NoSide;
  EndReason reason = EndReason::Repetition;
  Sanction sanction = Sanction::None;
};

Blame blame(const Position& pos, int span) {
  const GameRules& rules = pos.variant().game_rules();
  if (rules.perpetual_check != Sanction::None)
    if (const int checker = perpetual_checker(pos, span); checker != NoSide)
      return {checker, EndReason::PerpetualCheck, rules.perpetual_check};
  if (rules.perpetual_chase != Sanction::None)
    if (const int chaser = perpetual_chaser(pos, span); chaser != NoSide)
      return {chaser, EndReason::PerpetualChase, rules.perpetual_chase};
  return {};
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
    case RuleEnd::ChecksGiven: return win(Side(checks_given_by(pos)), EndReason::ChecksGiven);
    case RuleEnd::RoyalLost: return win(pos.royal(us) == NoSquare ? opponent(us) : us, EndReason::RoyalExploded);
    case RuleEnd::ZoneReached: return win(Side(zone_winner(pos)), EndReason::ZoneReached);
    case RuleEnd::RoyalTaken: return win(opponent(Side(side_without_royal(pos))), EndReason::RoyalCaptured);
    case RuleEnd::BareRoyal: return outcome_for(Side(bared_side(pos)), rules.bare_royal, EndReason::BareRoyal);
    case RuleEnd::None: break;
  }

  // Otherwise a royal can only be missing where a player may pass in check and the opponent took
  // it; the game ended with that capture, whether or not the loser could still move. Unprotected
  // royals are not tracked as royals: the rule above finds them.
  for (const Side side : {us, opponent(us)})
    if (pos.royal(side) == NoSquare && pos.variant().has_royal(side) && !pos.variant().rules().royals_unprotected)
      return win(opponent(side), EndReason::RoyalCaptured);

  if (rules.no_pieces_rule)
    for (const Side side : {opponent(us), us})
      if (pos.piece_count(side) == 0) return outcome_for(side, rules.no_pieces, EndReason::NoPieces);

  if (legal_move_count == 0) {
    if (in_check(pos)) {
      // As the reference engine has it, such a drop may be played, but its mate loses.
      const Move last = pos.plies_recorded() > 0 ? pos.state().move : Move();
      if (last.type() == MoveType::Drop && pos.variant().drop_may_not_mate(last.drop_kind()))
        return win(us, EndReason::ForbiddenDropMate);
      return win(opponent(us), EndReason::Checkmate);
    }
    return outcome_for(us, rules.stalemate, EndReason::Stalemate);
  }

  if (rules.shuttle_moves > 0 && moved_back_and_forth(pos, rules.shuttle_moves)) return refused(pos, EndReason::BackAndForth);
  if (rules.shuttle_loss_moves > 0 && shuttled_after_arriving(pos, rules.shuttle_loss_moves)) return win(us, EndReason::BackAndForth);

  EndReason claimable = EndReason::None;
  if (rules.repetition_count > 0) {
    const int first = rules.claim_repetition_count ? rules.claim_repetition_count : rules.repetition_count;
    if (const int span = repetition_span(pos, first)) {
      const int full = first == rules.repetition_count ? span : repetition_span(pos, rules.repetition_count);
      if (!full) {
        claimable = EndReason::Repetition;
      } else if (const Blame b = blame(pos, full); b.side == NoSide) {
        return rules.repetition_by_counting ? by_points(pos, EndReason::Repetition) : draw(EndReason::Repetition);
      } else if (b.sanction == Sanction::Loss) {
        return win(opponent(Side(b.side)), b.reason);
      } else if (b.side != us) {
        return refused(pos, b.reason);
      }
      // An illegal perpetual the side to move made: the repetition does not end the game, and the
      // move that would carry the perpetual on is refused when it is made.
    }
  }

  const int quiet = pos.state().quiet_plies;
  if (rules.move_limit_plies > 0 && quiet >= rules.move_limit_plies)
    return rules.move_limit_by_counting ? by_points(pos, EndReason::MoveLimit) : draw(EndReason::MoveLimit);
  if (rules.claim_move_limit_plies > 0 && quiet >= rules.claim_move_limit_plies && claimable == EndReason::None)
    claimable = EndReason::MoveLimit;
  if (count_ran_out(pos.state())) return draw(EndReason::EndgameCount);

  if (material_cannot_mate(pos)) return draw(EndReason::InsufficientMaterial);
  Termination going_on;
  going_on.claimable = claimable;
  return going_on;
}

Termination judge_move(Position& pos, Move m) {
  const GameRules& rules = pos.variant().game_rules();
  const bool may_refuse = rules.shuttle_moves > 0 || rules.perpetual_check == Sanction::Illegal ||
                          rules.perpetual_chase == Sanction::Illegal;
  if (!may_refuse) return {};
  pos.do_move(m);
  Termination after = judge(pos, 1);
  pos.undo_move();
  return after.refused ? after : Termination{};
}

Termination evaluate(Position& pos) {
  MoveList list;
  generate_legal(pos, list);
  return judge(pos, list.size);
}

}  // namespace palace
