#include "ends/counting.h"

#include "loader/names.h"

namespace palace {

void Counting::read(const ConfigNode& ends, const RuleSet& rules) {
  const ConfigNode* c = ends.find("counting");
  if (!c) return;
  c->expect_keys(counting_keys::map);
  on = true;
  if (const ConfigNode* b = c->find("bonus"))
    for (const auto& [side, value] : b->entries()) bonus[side_named(rules, side, value)] = value.as_number();
}

}  // namespace palace
