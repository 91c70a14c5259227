// The Lua hooks a variant names. Load-time hooks answer questions about pairs of piece kinds
// once, before the rules compile, and their answers become plain rule data. Runtime hooks see the
// position and are asked only for moves of the pieces that name one. See scripts/README.md.
#pragma once

#include <memory>

#include "compiler/variant.h"
#include "core/move_hooks.h"
#include "hooks/lua_host.h"
#include "loader/rule_set.h"

namespace palace {

// Asks every load-time hook (may_jump, may_capture) about every pair of kinds and writes the
// answers into the pieces' screen and capture lists. Throws RuleError naming the hook.
void apply_load_time_hooks(RuleSet& rules);

// The runtime hooks of one variant, on an interpreter of their own.
class LuaMoveHooks final : public MoveHooks {
 public:
  explicit LuaMoveHooks(const Variant& variant);  // throws RuleError when a script fails to load
  // Whether the move passes its piece's allow_move hook. Throws hooks::HookError.
  bool allows(const Position& pos, int kind, Move move) override;

 private:
  const Variant& variant_;
  hooks::LuaHost host_;
  const Position* position_ = nullptr;  // set only while a hook runs
};

}  // namespace palace
