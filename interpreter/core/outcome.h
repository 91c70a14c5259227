// How a game ends, the one vocabulary of every layer: each way has one name, from its YAML key in
// `ends:` (rules/README.md) through the rule module that finds it (ends/registry.h)
// to the words a player reads. Modelled on python-chess's Outcome: the way, and the winner if any.
#pragma once

#include <cstdint>
#include <optional>

#include "core/types.h"

namespace palace {

enum class Termination : std::uint8_t {
  None,                  // the game goes on
  Checkmate,
  Stalemate,             // ends.stalemate
  Standoff,              // ends.standoff: the royals faced each other too long (rules.facing_royals: standoff)
  BothPassed,            // ends.both_passed: two passes in a row
  RoyalCaptured,         // ends.royal_captured, or a royal taken where a side may pass in check
  RoyalExploded,         // rules.explosion: a capture's blast took a royal
  ChecksGiven,           // ends.checks_given: a side gave the checks it needed
  ZoneReached,           // ends.zone_reached: a piece reached the zone whose reaching wins
  BareRoyal,             // ends.bare_royal: a royal left without any other piece of its side
  NoPieces,              // ends.no_pieces: a side with no piece left
  Repetition,            // ends.repetition
  PerpetualCheck,        // ends.repetition.perpetual_check
  PerpetualChase,        // ends.repetition.perpetual_chase
  Shuttle,               // ends.repetition.shuttle: one piece moved back and forth too often
  MoveLimit,             // ends.move_limit
  InsufficientMaterial,  // ends.insufficient_material and ends.dead_material
  ForbiddenDropMate,     // hands.drop_may_not_mate: mated by such a drop, the mated side wins
  EndgameCount,          // ends.endgame_count ran past its limit
  Extinction,            // ends.extinction: a side lost every piece of a kind it must keep
  GameEnd,               // ends.game_end: the variant's own hook ended the game (its words are the variant's)
};

// The words a player reads for it: "checkmate", "zone reached"; empty for None.
const char* termination_name(Termination termination);

struct Outcome {
  Termination termination = Termination::None;
  std::optional<Side> winner;  // none: a draw, or the game goes on

  bool finished() const { return termination != Termination::None; }
};

}  // namespace palace
