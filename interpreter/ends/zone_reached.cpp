#include "ends/zone_reached.h"

#include "loader/names.h"

namespace palace {

void ZoneReached::read(const ConfigNode& ends, const RuleSet& rules) {
  const ConfigNode* node = ends.find(keys[0].name);
  if (!node) return;
  node->expect_keys(zone_reached_keys::map);
  kind = kind_named(rules, node->at("kind"));
  zone = zone_named(rules, node->at("zone"));
  if (const ConfigNode* s = node->find("safely")) safely = s->as_bool();
}

}  // namespace palace
