// The Lua hooks a variant names, on one sandboxed host. Load-time hooks answer questions about
// pairs of piece kinds once, while the variant compiles; runtime hooks see the position and are
// asked only for moves of the pieces that name one. See scripts/README.md for the Lua side.
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "core/types.h"
#include "hooks/lua_host.h"
#include "loader/rule_set.h"

namespace palace {

class Position;

class RuleHooks {
 public:
  // Loads every script of the rules. Throws RuleError naming the script (and line) on failure.
  explicit RuleHooks(const RuleSet& rules);

  // A load-time question about two kinds, e.g. may_jump(hopper, screen). Throws RuleError.
  bool ask_pair(const HookRef& hook, int first_kind, int second_kind);

  // A runtime question: may this generated move be played in this position? Throws hooks::HookError.
  bool allow_move(const HookRef& hook, const Position& pos, Move move);

 private:
  hooks::Value piece_value(Piece p) const;
  hooks::Value kind_value(int kind) const;
  const std::string& display_name(const HookRef& hook) const { return script_names_[hook.script]; }

  const RuleSet& rules_;
  hooks::LuaHost host_;
  std::vector<std::string> script_names_;  // as messages name them, by index into rules_.scripts
  const Position* position_ = nullptr;  // set only while a runtime hook runs
};

}  // namespace palace
