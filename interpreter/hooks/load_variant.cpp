#include "hooks/load_variant.h"

#include "hooks/rule_hooks.h"

namespace palace {

std::shared_ptr<const Variant> load_variant(const std::string& path, MoveBackend backend) {
  RuleSet rules = load_rules(path);
  if (!rules.scripts.empty()) apply_load_time_hooks(rules);
  // A hand holds at most the pieces the set-up has, and drops fill what a move list leaves free:
  // pieces these hooks place, and moves they add, could overflow either.
  for (const PieceDef& p : rules.pieces)
    for (const HookRef* hook : {&p.add_moves_hook, &p.after_move_hook})
      if (*hook && rules.hands.enabled)
        throw RuleError(hook->mark, "", "hooks that add moves or change the board are not supported where captured pieces go to a hand");
  // Each position makes its own runtime hooks from the compiled variant (position/move_hooks.h).
  return std::make_shared<const Variant>(std::move(rules), backend);
}

}  // namespace palace
