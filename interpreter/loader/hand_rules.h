// Hands and drops: the optional `hands:` section of a variant file, read after the pieces and zones
// it names.
#pragma once

#include <array>
#include <vector>

#include "core/types.h"

#include "loader/config_tree.h"

namespace palace {

struct RuleSet;

// Captured pieces change side and go to the captor's hand, from which a move may drop them; or,
// with captures_to_hand off, only the pieces a side starts with in hand are dropped.
struct HandRules {
  bool enabled = false;
  std::vector<Kind> joins_as;    // per kind: the kind it enters a hand as when captured (demotion)
  std::vector<int> drop_zone;   // per kind: zone of the dropping side it may be dropped in; -1 anywhere
  std::vector<Kind> one_per_file;     // kinds of which a drop may not make two of a side on a file
  std::vector<Kind> drop_may_not_mate;  // kinds whose drop may give check but not mate
  bool no_dead_drops = false;   // no piece may be dropped where it could never move
  bool captures_to_hand = true;
  std::array<std::vector<int>, SideCount> at_start;  // per side and kind: pieces in hand at the start (setup.SIDE.hand)
};

// Reads `hands:` into rules.hands. Throws RuleError.
void read_hand_rules(const ConfigNode& node, RuleSet& rules);
// Reads each side's `setup.SIDE.hand` into rules.hands.at_start, once `hands:` is read. Throws RuleError.
void read_start_hands(const ConfigNode& setup, RuleSet& rules);

}  // namespace palace
