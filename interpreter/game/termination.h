// How a game ended, as a value: the rule that ended it, the result, and the points where the
// variant decided it by counting. The words users read are made from it only when printed.
#pragma once

#include <array>
#include <cstdint>
#include <string>

#include "compiler/variant.h"
#include "core/types.h"

namespace palace {

enum class EndReason : std::uint8_t {
  None,
  Standoff,              // the royals faced each other too long
  BothPassed,            // two passes in a row
  RoyalCaptured,
  Checkmate,
  Stalemate,
  Repetition,
  PerpetualCheck,
  MoveLimit,
  InsufficientMaterial,
  BareRoyal,             // a royal left without any other piece of its side
  NoPieces,              // a side with no piece left
  PerpetualChase,        // one side attacked the same piece with every move of a repetition
  BackAndForth,          // one piece moved back and forth too many times in a row
  ChecksGiven,           // a side gave the checks the variant asks for
  RoyalExploded,         // a capture's explosion took a royal
  ZoneReached,           // a piece reached the zone whose reaching wins
  ForbiddenDropMate,     // mated by the drop of a kind that may not mate: the mated side wins
  EndgameCount,          // the endgame count ran past its limit
};

struct Termination {
  enum class Kind : std::uint8_t { Unfinished, Win, Draw };
  Kind kind = Kind::Unfinished;
  Side winner = 0;  // with Win
  EndReason reason = EndReason::None;
  bool counted = false;  // decided by counting: points holds each side's total
  std::array<double, SideCount> points{};
  // The move that led here breaks a rule about the game's history (reason says which): the game
  // refuses it, and the search scores it as a loss for its mover (kind Win, winner to move).
  bool refused = false;
  // Unfinished, but the side to move may claim a draw for this reason (FIDE's threefold repetition
  // and fifty moves): the game goes on unless a player claims it.
  EndReason claimable = EndReason::None;

  bool finished() const { return kind != Kind::Unfinished; }
  // "checkmate", "standoff, 73.5 to 72 points" (winner's points first).
  std::string reason_text() const;
  // "repetition": the words for a claimable draw's reason.
  std::string claim_text() const;
  // "unfinished", "draw: REASON" or "SIDE wins: REASON", SIDE as the variant names it.
  std::string str(const Variant& variant) const;
};

}  // namespace palace
