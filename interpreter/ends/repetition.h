// ends.repetition: the n-th occurrence of a position since the last irreversible move ends the game
// (a draw, won by a side, or decided by counting) or lets a player claim a draw, unless one side
// checked (else chased one piece) with every one of its moves since the first of those
// occurrences and the variant punishes that: that side loses; or, where the perpetual is illegal,
// the move that carried it on is refused; or, where the side must vary, the game goes on and that
// side loses when its next move repeats the cycle again. Its `shuttle` refuses (or punishes) one
// piece moved back and forth too often. The history is read by game/repetition.h.
#pragma once

#include <optional>
#include <vector>

#include "ends/counting.h"
#include "ends/end_rule.h"

namespace palace {

namespace repetition_keys {
inline constexpr KeySpec winner_keys[] = {
    {"winner", KeyType::String, "the side that wins"},
};
inline constexpr MapSpec winner{"ends.repetition.result", "A repetition won by one side.", winner_keys};
inline constexpr KeySpec shuttle_keys[] = {
    {"moves", KeyType::Int, "moves in a row of one piece back and forth", "", "", KeyType::String, nullptr, false, 2, 100},
    {"result", KeyType::Enum, "the move is refused, or its side loses", "", "illegal|loss"},
};
inline constexpr MapSpec shuttle{"ends.repetition.shuttle", "One piece going back and forth.", shuttle_keys};
inline constexpr KeySpec map_keys[] = {
    {"count", KeyType::Int, "the occurrence that ends the game by itself", "none", "", KeyType::String, nullptr, false, 2, 100},
    {"result", KeyType::Any, "`draw`, `counting` or `{winner: SIDE}`", "draw", "", KeyType::String, &winner},
    {"claim", KeyType::Int, "from this occurrence the side to move may claim a draw", "none"},
    {"perpetual_check", KeyType::Enum, "for the side that checked with every move", "draw", "loss|illegal|vary|draw"},
    {"perpetual_chase", KeyType::Enum, "for the side that chased one piece with every move (needs `chase`)", "draw",
     "loss|illegal|vary|draw"},
    {"chase", KeyType::MapOf, "attacker kind: the kinds it chases when unprotected", "", "", KeyType::OneOrList},
    {"chase_unless_mutual", KeyType::MapOf,
     "attacker kind: the kinds it chases when unprotected and unable to capture it back", "", "", KeyType::OneOrList},
    {"chase_protected", KeyType::MapOf, "attacker kind: the kinds it chases even when protected", "", "", KeyType::OneOrList},
    {"chase_zones", KeyType::MapOf, "victim kind: the zone of its own side where it can be chased (elsewhere never)", "",
     "", KeyType::String},
    {"shuttle", KeyType::Any, "`N`, or `{moves: N, result: illegal|loss}`: one piece back and forth", "none", "",
     KeyType::String, &shuttle},
};
inline constexpr MapSpec map{"ends.repetition", "Repeated positions.", map_keys};
}  // namespace repetition_keys

struct Repetition {
  static constexpr std::array keys{
      KeySpec{"repetition", KeyType::Map, "the same position repeated", "", "", KeyType::String, &repetition_keys::map},
  };
  static constexpr Stage stage = Stage::AfterMoves;

  int count = 0;               // the n-th occurrence ends the game; 0 = never (a claim may still)
  bool by_counting = false;    // result: counting; otherwise a repetition is a draw
  std::optional<Side> winner;  // result: {winner: SIDE}
  int claim = 0;               // the n-th occurrence lets a player claim a draw
  Sanction perpetual_check = Sanction::None;  // for the side giving every check of the cycle
  Sanction perpetual_chase = Sanction::None;  // for the side chasing one piece with every move of the cycle
  std::vector<std::vector<Chase>> chases;     // [attacker kind][victim kind]; empty without the rule
  std::vector<int> chase_zones;  // [victim kind]: the zone of its side it is chased in, -1 anywhere; empty: anywhere
  int shuttle_moves = 0;         // shuttle: N, the n-th move in a row of one piece back and forth is illegal
  int shuttle_loss_moves = 0;    // shuttle: {moves: N, result: loss}, n moves back and forth after arriving lose

  void read(const ConfigNode& ends, const RuleSet& rules);

  // Whether a move legal on the board may still be refused for what it repeats.
  bool may_refuse() const {
    return shuttle_moves > 0 || perpetual_check == Sanction::Illegal || perpetual_chase == Sanction::Illegal;
  }

  template <class Pos>
  bool judge(const Pos& pos, Judging& j) const {
    if (shuttle_moves > 0 && moved_back_and_forth(pos, shuttle_moves)) return j.ends(refused(pos, Termination::Shuttle));
    if (shuttle_loss_moves > 0 && shuttled_after_arriving(pos, shuttle_loss_moves))
      return j.win(pos.side_to_move(), Termination::Shuttle);
    if (count == 0 && claim == 0) return false;
    const Verdict v = judge_occurrences(pos);
    if (v.finished()) return j.ends(v);
    j.going_on = v;
    return false;
  }

  // A cycle as a search sees it: where `pos` occurred once before, fewer than `plies` plies ago, and
  // no perpetual is blamed for the plies between, the players could play the cycle again up to the
  // count, so it is judged as that count would be (a draw where the draw may be claimed before).
  template <class Pos>
  Verdict cycle(const Pos& pos, int plies) const {
    if (!count && !claim) return {};
    const int span = repetition_span(pos, 2);
    if (!span || span >= plies || blame(pos, span).sanction != Sanction::None) return {};
    // Where a player may claim the draw before the count, the side it suits claims it.
    if (claim) return drawn(Termination::Repetition);
    return result(pos);
  }

 private:
  static Verdict drawn(Termination termination) {
    Verdict t;
    t.termination = termination;
    return t;
  }
  static Verdict won(Side winner, Termination termination) {
    Verdict t = drawn(termination);
    t.winner = winner;
    return t;
  }
  // The move that led here breaks a rule of the game's history: its mover loses, should it be played.
  template <class Pos>
  static Verdict refused(const Pos& pos, Termination termination) {
    Verdict t = won(pos.side_to_move(), termination);
    t.refused = true;
    return t;
  }

  // Whom a repetition of `span` plies blames, in order: the one side that checked with every move,
  // else the one side that chased one piece with every move.
  struct Blame {
    Perpetual perpetual;
    Sanction sanction = Sanction::None;
  };
  template <class Pos>
  Blame blame(const Pos& pos, int span) const {
    Blame b;
    if (perpetual_check != Sanction::None)
      if (const int checker = perpetual_checker(pos, span); checker != NoSide) {
        b.perpetual = {Termination::PerpetualCheck, Side(checker)};
        b.sanction = perpetual_check;
      }
    if (b.sanction == Sanction::None && perpetual_chase != Sanction::None)
      if (const auto chaser = perpetual_chaser(pos, span); chaser.side != NoSide) {
        b.perpetual = {Termination::PerpetualChase, Side(chaser.side), chaser.victim, kind_of(pos.at(chaser.victim))};
        b.sanction = perpetual_chase;
      }
    b.perpetual.must_vary = b.sanction == Sanction::MustVary;
    return b;
  }

  // The occurrence at which the rule is judged: the one that ends the game, where the variant has
  // one (`count`); otherwise the first a player may claim.
  int judged_occurrence() const { return count ? count : claim; }

  // Whether `now`'s side, having just moved, has repeated its perpetual after it was bound to vary:
  // its move made the position occur once more than the occurrence that bound it, every move since
  // the first occurrence still part of the perpetual.
  template <class Pos>
  bool did_not_vary(const Pos& pos, const Perpetual& now) const {
    const int span = repetition_span(pos, judged_occurrence() + 1);
    if (!span) return false;
    const Perpetual whole = blame(pos, span).perpetual;
    return whole.termination == now.termination && whole.side == now.side;
  }

  // How the rule ends the game at its count, when no perpetual is blamed.
  template <class Pos>
  Verdict result(const Pos& pos) const {
    Verdict t = winner        ? won(*winner, Termination::Repetition)
                : by_counting ? end_rule<Counting>(pos).by_points(pos, Termination::Repetition)
                              : drawn(Termination::Repetition);
    t.occurrences = count;
    return t;
  }

  // The verdict at `pos`: unfinished (maybe with a claim or a side bound to vary), or the end.
  template <class Pos>
  Verdict judge_occurrences(const Pos& pos) const {
    const int first = claim ? claim : count;
    Verdict going_on;
    const int span = repetition_span(pos, first);
    if (!span) return going_on;
    const int full = !count ? 0 : first == count ? span : repetition_span(pos, count);
    const int judged = full ? full : count ? 0 : span;
    const Blame b = judged ? blame(pos, judged) : Blame{};
    Verdict t;
    switch (b.sanction) {
      case Sanction::None:
        if (full) return result(pos);
        going_on.claimable = Termination::Repetition;
        going_on.occurrences = first;
        return going_on;
      case Sanction::Loss: t = won(opponent(b.perpetual.side), b.perpetual.termination); break;
      case Sanction::Illegal:
        // An illegal perpetual the side to move made: the repetition does not end the game, and the
        // move that would carry the perpetual on is refused when it is made.
        if (b.perpetual.side == pos.side_to_move()) return going_on;
        t = refused(pos, b.perpetual.termination);
        break;
      case Sanction::MustVary:
        if (b.perpetual.side != pos.side_to_move() && did_not_vary(pos, b.perpetual)) {
          t = won(opponent(b.perpetual.side), b.perpetual.termination);
          t.occurrences = judged_occurrence() + 1;
          t.perpetual = b.perpetual;
          return t;
        }
        t = going_on;
        break;
    }
    t.occurrences = full ? count : first;
    t.perpetual = b.perpetual;
    return t;
  }
};

}  // namespace palace
