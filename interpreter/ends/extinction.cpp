#include "ends/extinction.h"

#include "loader/names.h"

namespace palace {

void Extinction::read(const ConfigNode& ends, const RuleSet& rules) {
  const ConfigNode* node = ends.find(keys[0].name);
  if (!node) return;
  node->expect_keys(extinction_keys::map);
  for (const Kind k : kinds_named(rules, node->at("kinds"))) kinds |= std::uint32_t(1) << k;
  if (!kinds) node->at("kinds").fail("name at least one kind, e.g. [queen, rook]");
  if (const ConfigNode* c = node->find("count")) count = read_int(*c, extinction_keys::map_keys[1]);
  if (const ConfigNode* c = node->find("opponent_count")) opponent_count = read_int(*c, extinction_keys::map_keys[2]);
  if (const ConfigNode* r = node->find("result")) result = read_side_result(*r);
  if (const ConfigNode* t = node->find("together")) together = t->as_bool();
}

}  // namespace palace
