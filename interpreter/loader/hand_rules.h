// Hands and drops, and winning by reaching a zone: the optional `hands:` and `ends.zone_reached:`
// sections of a variant file, read after the pieces and zones they name.
#pragma once

#include <vector>

#include "core/types.h"

#include "loader/config_tree.h"

namespace palace {

struct RuleSet;

// Captured pieces change side and go to the captor's hand, from which a move may drop them.
struct HandRules {
  bool enabled = false;
  std::vector<Kind> joins_as;    // per kind: the kind it enters a hand as when captured (demotion)
  std::vector<int> drop_zone;   // per kind: zone of the dropping side it may be dropped in; -1 anywhere
  std::vector<Kind> one_per_file;     // kinds of which a drop may not make two of a side on a file
  std::vector<Kind> drop_may_not_mate;  // kinds whose drop may give check but not mate
  bool no_dead_drops = false;   // no piece may be dropped where it could never move
};

// A piece of a side standing in a zone of that side after its move wins, if (safely) the
// opponent cannot capture it there.
struct ZoneReached {
  Kind kind = NoKind;  // -1: no such rule
  int zone = -1;
  bool safely = true;
};

// Reads `hands:` into rules.hands. Throws RuleError.
void read_hand_rules(const ConfigNode& node, RuleSet& rules);
// Reads `ends.zone_reached: {kind: NAME, zone: ZONE, safely: BOOL}` into rules.zone_reached.
void read_zone_reached(const ConfigNode& node, RuleSet& rules);

}  // namespace palace
