#include "ends/dead_material.h"

#include "loader/names.h"

namespace palace {

void DeadMaterial::read(const ConfigNode& ends, const RuleSet& rules) {
  if (const ConfigNode* im = ends.find("insufficient_material")) {
    if (!im->is_sequence()) im->fail("expected a list of piece lists, e.g. [[], [bishop], [knight]]");
    for (const ConfigNode* set : im->items()) insufficient.push_back(kind_set_named(rules, *set, "expected a list of pieces"));
  }
  const ConfigNode* node = ends.find("dead_material");
  if (!node) return;
  if (!node->is_sequence())
    node->fail("expected a list of piece lists, {one_colour: [kinds]} and {only: [kinds]}, e.g. [[], [knight]]");
  for (const ConfigNode* entry : node->items()) {
    if (entry->is_map()) {
      entry->expect_keys(dead_material_keys::kinds);
      for (const auto& [key, kinds] : entry->entries()) {
        std::vector<Kind>& into = key == "one_colour" ? one_colour : only;
        const std::vector<Kind> named = kinds_named(rules, kinds);
        into.insert(into.end(), named.begin(), named.end());
      }
      continue;
    }
    sets.push_back(kind_set_named(rules, *entry, "expected a list of pieces, {one_colour: [kinds]} or {only: [kinds]}"));
  }
}

}  // namespace palace
