#include "hooks/load_variant.h"

#include <algorithm>

#include "hooks/rule_hooks.h"

namespace palace {

std::shared_ptr<const Variant> load_variant(const std::string& path) {
  RuleSet rules = load_rules(path);
  if (rules.scripts.empty()) return std::make_shared<const Variant>(std::move(rules));
  apply_load_time_hooks(rules);
  const bool runtime = std::any_of(rules.pieces.begin(), rules.pieces.end(), [](const PieceDef& p) { return bool(p.allow_move_hook); });
  MoveHooksFactory factory;
  if (runtime) factory = [](const Variant& v) -> std::unique_ptr<MoveHooks> { return std::make_unique<LuaMoveHooks>(v); };
  return std::make_shared<const Variant>(std::move(rules), std::move(factory));
}

}  // namespace palace
