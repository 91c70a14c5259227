#include "loader/hand_rules.h"

#include <algorithm>
#include <limits>

#include "core/text.h"
#include "loader/key_table.h"
#include "loader/names.h"
#include "loader/rule_set.h"

namespace palace {

void read_hand_rules(const ConfigNode& node, RuleSet& rules) {
  node.expect_keys(keys::hands);
  HandRules& hands = rules.hands;
  const int kinds = int(rules.pieces.size());
  hands.enabled = true;
  hands.joins_as.resize(kinds);
  for (Kind k = Kind(0); k < kinds; ++k) hands.joins_as[k] = k;
  hands.drop_zone.assign(kinds, -1);
  if (const ConfigNode* demote = node.find("demote"))
    for (const auto& [name, base] : demote->entries()) {
      const Kind from = rules.kind_by_name(name);
      if (from < 0) fail_no_piece(rules, name, base);
      const Kind to = kind_named(rules, base);
      if (rules.pieces[to].royal != rules.pieces[from].royal) base.fail("a royal piece demotes only to a royal one");
      hands.joins_as[from] = to;
    }
  // A demoted piece is held as what it demotes to, so that kind must stay itself in a hand.
  for (Kind k = Kind(0); k < kinds; ++k)
    if (hands.joins_as[hands.joins_as[k]] != hands.joins_as[k])
      node.at("demote").fail(rules.pieces[k].name + " demotes to " + rules.pieces[hands.joins_as[k]].name +
                             ", which demotes again; name the final kind");
  if (const ConfigNode* zones = node.find("drop_zones"))
    for (const auto& [name, zone] : zones->entries()) {
      const Kind k = rules.kind_by_name(name);
      if (k < 0) fail_no_piece(rules, name, zone);
      hands.drop_zone[k] = zone_named(rules, zone);
    }
  if (const ConfigNode* list = node.find("one_per_file")) hands.one_per_file = kinds_named(rules, *list);
  if (const ConfigNode* list = node.find("drop_may_not_mate")) hands.drop_may_not_mate = kinds_named(rules, *list);
  if (const ConfigNode* dead = node.find("no_dead_drops")) hands.no_dead_drops = dead->as_bool();
  if (const ConfigNode* to_hand = node.find("captures_to_hand")) hands.captures_to_hand = to_hand->as_bool();
  for (std::vector<int>& held : hands.at_start) held.assign(kinds, 0);
}

void read_start_hands(const ConfigNode& setup, RuleSet& rules) {
  for (const auto& [side_name, side_node] : setup.entries()) {
    const ConfigNode* hand = side_node.find("hand");
    if (!hand) continue;
    if (!rules.hands.enabled) hand->fail("a hand at the start needs drops: add a hands: section");
    std::vector<int>& held = rules.hands.at_start[side_named(rules, side_name, side_node)];
    for (const auto& [name, count] : hand->entries()) {
      const Kind k = kind_named(rules, name, count);
      if (rules.pieces[k].royal) count.fail("a royal piece (" + name + ") cannot start in a hand");
      if (rules.hands.joins_as[k] != k)
        count.fail(name + " is held as " + rules.pieces[rules.hands.joins_as[k]].name + " (hands.demote): put that in the hand");
      held[k] = count.as_int(1, std::numeric_limits<int>::max());
    }
  }
}

}  // namespace palace
