// Runtime rules that see the position, for the piece kinds whose rules name one. Move generation
// asks allow_move for each generated move of such a piece, and the attack test for each attack
// such a piece makes, so a move a rule forbids never gives check either. add_moves gives a piece
// points beyond its movement, in the generator and the attack test alike; after_move changes the
// board once the piece's move is made; game_end may end the game. See scripts/README.md.
#pragma once

#include <cstdint>
#include <exception>
#include <functional>
#include <memory>
#include <vector>

#include "compiler/variant.h"
#include "core/outcome.h"
#include "core/types.h"

namespace palace {

class Position;  // position/position.h, which includes this header

// A point an add_moves hook lets a piece reach: ModeBits say whether it may move there, capture
// there, or both.
struct AddedTarget {
  Point to;
  std::uint8_t modes;
};

// A change an after_move hook makes to the board: the point's new occupant, NoPiece to empty it.
struct PointEdit {
  Point at;
  Piece piece;
};

// Hooks may keep state that is unsafe to share (a Lua interpreter), so each Position owns its
// own, made by its variant's factory; threads never share one. Each call throws an Error naming
// the hook when it fails or answers what the rules cannot play.
class MoveHooks {
 public:
  virtual ~MoveHooks() = default;
  virtual bool allows(const Position& pos, Kind kind, Move move) = 0;
  // The points the piece of `kind` on `from` may also reach; none holds a piece of its own side.
  virtual void add_targets(const Position& pos, Kind kind, Point from, std::vector<AddedTarget>& targets) = 0;
  // The board's changes once a move of `kind` from `from` to `to` is made: `pos` shows the board
  // after the move, the mover still to move. No edit places a royal piece or touches one, and none
  // puts a piece outside the zone it must stay in.
  virtual void after_move(const Position& pos, Kind kind, Point from, Point to, Piece moved, Piece captured,
                          std::vector<PointEdit>& edits) = 0;
  // How the variant's ends.game_end hook says the game at `pos` ended: unfinished (Termination::None)
  // while it goes on, or Termination::GameEnd with the winner, none for a draw.
  virtual Outcome game_end(const Position& pos) = 0;
  // `stop` is asked now and then while a hook runs (a hook may take milliseconds); when it answers
  // true the call throws HookInterrupted. An empty function asks nothing.
  virtual void set_interrupt(std::function<bool()> stop) = 0;
  // What set_interrupt last gave. A copy of a position asks the same: the copies a search makes of
  // its positions (to look back for repetitions, chases, perpetual checks) run hooks too, and
  // must stop when the search is stopped or out of time.
  virtual const std::function<bool()>& interrupt() const = 0;
};

// Thrown by a hook call that its interrupt stopped (see MoveHooks::set_interrupt). Not an Error:
// it reports no fault, and whoever set the interrupt catches it.
class HookInterrupted : public std::exception {
 public:
  const char* what() const noexcept override { return "hook interrupted"; }
};

// A new set of runtime hooks for one position of `variant`, or null where it names none. The
// hook host (hooks/rule_hooks.cpp) defines it; throws RuleError when a script fails to load.
std::unique_ptr<MoveHooks> make_move_hooks(const Variant& variant);

}  // namespace palace
