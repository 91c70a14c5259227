// How a game stands, as a value: its Outcome (core/outcome.h), the points where the variant
// decided it by counting, and the claims and perpetuals of repetition. The words users read are made from it only when printed.
#pragma once

#include <array>
#include <cstdint>
#include <string>

#include "core/outcome.h"
#include "core/types.h"

namespace palace {

class Variant;

// A perpetual one side is blamed for: a check with every one of its moves, or a chase of one piece,
// since the first occurrence of the repeated position.
struct Perpetual {
  Termination termination = Termination::None;  // PerpetualCheck or PerpetualChase; None: nobody is blamed
  Side side = First;                   // the side that kept it up
  Point victim = NoPoint;            // with a chase: where the chased piece stands
  Kind victim_kind = NoKind;                // and its kind
  bool must_vary = false;              // the rule binds that side to vary, and it loses only if it does not
};

// The game's state after a move: its Outcome (unfinished while termination is None), and what
// more the rules found, for the player and the search.
struct Verdict : Outcome {
  bool counted = false;  // decided by counting: points holds each side's total
  std::array<double, SideCount> points{};
  // The move that led here breaks a rule about the game's history (reason says which): the game
  // refuses it, and the search scores it as a loss for its mover (the side to move wins).
  bool refused = false;
  // Unfinished, but the side to move may claim a draw for this reason (FIDE's threefold repetition
  // and fifty moves): the game goes on unless a player claims it.
  Termination claimable = Termination::None;
  // Where a repetition rule applied: the position's occurrences so far (since the last capture), and
  // the perpetual it blames, if any. A game going on with a perpetual that must vary warns its side.
  int occurrences = 0;
  Perpetual perpetual{};

  // "checkmate", "standoff, 73.5 to 72 points" (winner's points first); an end the variant's hook
  // decided in the variant's words for it.
  std::string reason_text(const Variant& variant) const;
  // "repetition": the words for a claimable draw's reason.
  std::string claim_text() const;
  // "unfinished", "draw: REASON" or "SIDE wins: REASON", SIDE as the variant names it.
  std::string str(const Variant& variant) const;
  // The repetition behind the verdict in a sentence, where a perpetual or a claim is (empty
  // otherwise): "Red has chased the horse on c7 with every move for 2 cycles; Red must vary", "the
  // position has occurred 3 times; Black may claim a draw".
  std::string explanation(const Variant& variant, Side to_move) const;
};

}  // namespace palace
