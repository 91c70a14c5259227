// The end rules, one module each (ends/end_rule.h says what a module holds), in the one list that
// gives each its place. The loader reads `ends:` through it, the reference and the schema list its
// keys, the move generator asks its BeforeMoves rules and the game's judge asks all of them: adding a
// rule is its module and a line here.
#pragma once

#include <tuple>

#include "ends/bare_royal.h"
#include "ends/both_passed.h"
#include "ends/checks_given.h"
#include "ends/counting.h"
#include "ends/dead_material.h"
#include "ends/end_rule.h"
#include "ends/endgame_count.h"
#include "ends/extinction.h"
#include "ends/game_end.h"
#include "ends/move_limit.h"
#include "ends/no_moves.h"
#include "ends/no_pieces.h"
#include "ends/repetition.h"
#include "ends/royal_captured.h"
#include "ends/royal_exploded.h"
#include "ends/royal_taken.h"
#include "ends/standoff.h"
#include "ends/zone_reached.h"

namespace palace {

// The order of precedence: a position that ends several ways gets the answer of the first rule
// that ends it, and a rule's keys are listed in this order. The rules the position alone decides
// come first, the variant's own hook last of them; a side with no legal move is mated or
// stalemated before repetition is asked, and a repetition before the move limit, whose claim
// yields to the repetition's.
using EndRuleList = std::tuple<ChecksGiven, RoyalExploded, BothPassed, Standoff, ZoneReached, RoyalCaptured, BareRoyal,
                               Extinction, GameEnd, RoyalTaken, NoPieces, NoMoves, Repetition, MoveLimit, EndgameCount,
                               DeadMaterial, Counting>;

// `ends:`, every way a game ends besides checkmate, as the file sets it.
struct EndRules {
  EndRuleList modules;

  template <class R>
  const R& get() const {
    return std::get<R>(modules);
  }
  template <class R>
  R& get() {
    return std::get<R>(modules);
  }

  // Every module's settings from the `ends:` map, refusing a key no module reads. Throws RuleError.
  void read(const ConfigNode& ends, const RuleSet& rules);
};

namespace keys {
extern const MapSpec ends;  // every module's keys, in the list's order
}

namespace detail {

template <class... R>
constexpr bool stages_in_order(std::tuple<R...>*) {
  const Stage stages[] = {R::stage...};
  for (std::size_t i = 1; i < sizeof...(R); ++i)
    if (stages[i] < stages[i - 1]) return false;
  return true;
}
static_assert(stages_in_order(static_cast<EndRuleList*>(nullptr)),
              "the rules the position alone decides come before those that need its moves or history");

template <Stage Last, class R, class Pos>
bool ask(const R& rule, const Pos& pos, Judging& j) {
  if constexpr (R::stage <= Last)
    return rule.judge(pos, j);
  else
    return false;
}

}  // namespace detail

// Asks the rules of the stages up to `Last` in order; true, with j.result, once one ends the game.
template <Stage Last, class Pos>
bool judge_ends(const Pos& pos, Judging& j) {
  return std::apply([&](const auto&... rule) { return (detail::ask<Last>(rule, pos, j) || ...); },
                    pos.variant().ends().modules);
}

}  // namespace palace
