// A runtime rule that sees the position, for the piece kinds whose rules name one. Move
// generation asks it for each generated move of such a piece, and the attack test for each attack
// such a piece makes, so a move a rule forbids never gives check either.
#pragma once

#include <functional>
#include <memory>

#include "core/types.h"

namespace palace {

class Position;
class Variant;

// Hooks may keep state that is unsafe to share (a Lua interpreter), so each Position owns its
// own, made by its variant's factory; threads never share one.
class MoveHooks {
 public:
  virtual ~MoveHooks() = default;
  virtual bool allows(const Position& pos, int kind, Move move) = 0;
};

using MoveHooksFactory = std::function<std::unique_ptr<MoveHooks>(const Variant&)>;

}  // namespace palace
