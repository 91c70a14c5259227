#include "ends/game_end.h"

#include "loader/names.h"

namespace palace {

void GameEnd::read(const ConfigNode& ends, const RuleSet& rules) {
  const ConfigNode* node = ends.find(keys[0].name);
  if (!node) return;
  node->expect_keys(game_end_keys::map);
  hook = hook_named(rules, node->at("hook"));
  if (const ConfigNode* n = node->find("name")) name = n->as_string();
}

}  // namespace palace
