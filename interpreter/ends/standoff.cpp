#include "ends/standoff.h"

#include "loader/rule_set.h"

namespace palace {

void Standoff::read(const ConfigNode& ends, const RuleSet& rules) {
  on = rules.rules.facing_royals == FacingRule::Standoff;
  if (const ConfigNode* s = ends.find(keys[0].name)) plies = read_int(*s, keys[0]);
}

}  // namespace palace
