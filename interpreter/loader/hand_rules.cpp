#include "loader/hand_rules.h"

#include <algorithm>

#include "core/text.h"
#include "loader/rule_set.h"

namespace palace {

namespace {

int kind_named(const ConfigNode& node, const RuleSet& rules) {
  const int k = rules.kind_by_name(node.as_string());
  if (k < 0) node.fail("no piece named " + quote(node.as_string()));
  return k;
}

int zone_named(const ConfigNode& node, const RuleSet& rules) {
  const auto it = std::find(rules.zone_names.begin(), rules.zone_names.end(), node.as_string());
  if (it == rules.zone_names.end()) node.fail("no zone named " + quote(node.as_string()) + " (zones are declared under sides)");
  return int(it - rules.zone_names.begin());
}

std::vector<int> kind_list(const ConfigNode& node, const RuleSet& rules) {
  std::vector<int> kinds;
  for (const ConfigNode* k : node.items()) kinds.push_back(kind_named(*k, rules));
  return kinds;
}

}  // namespace

void read_hand_rules(const ConfigNode& node, RuleSet& rules) {
  node.expect_keys({"demote", "drop_zones", "one_per_file", "drop_may_not_mate", "no_dead_drops"});
  HandRules& hands = rules.hands;
  const int kinds = int(rules.pieces.size());
  hands.enabled = true;
  hands.joins_as.resize(kinds);
  for (int k = 0; k < kinds; ++k) hands.joins_as[k] = k;
  hands.drop_zone.assign(kinds, -1);
  if (const ConfigNode* demote = node.find("demote"))
    for (const auto& [name, base] : demote->entries()) {
      const int from = rules.kind_by_name(name);
      if (from < 0) base.fail("no piece named " + quote(name));
      const int to = kind_named(base, rules);
      if (rules.pieces[to].royal != rules.pieces[from].royal) base.fail("a royal piece demotes only to a royal one");
      hands.joins_as[from] = to;
    }
  // A demoted piece is held as what it demotes to, so that kind must stay itself in a hand.
  for (int k = 0; k < kinds; ++k)
    if (hands.joins_as[hands.joins_as[k]] != hands.joins_as[k])
      node.at("demote").fail(rules.pieces[k].name + " demotes to " + rules.pieces[hands.joins_as[k]].name +
                             ", which demotes again; name the final kind");
  if (const ConfigNode* zones = node.find("drop_zones"))
    for (const auto& [name, zone] : zones->entries()) {
      const int k = rules.kind_by_name(name);
      if (k < 0) zone.fail("no piece named " + quote(name));
      hands.drop_zone[k] = zone_named(zone, rules);
    }
  if (const ConfigNode* list = node.find("one_per_file")) hands.one_per_file = kind_list(*list, rules);
  if (const ConfigNode* list = node.find("drop_may_not_mate")) hands.drop_may_not_mate = kind_list(*list, rules);
  if (const ConfigNode* dead = node.find("no_dead_drops")) hands.no_dead_drops = dead->as_bool();
}

void read_zone_win(const ConfigNode& node, RuleSet& rules) {
  node.expect_keys({"piece", "zone", "safely"});
  rules.zone_win.kind = kind_named(node.at("piece"), rules);
  rules.zone_win.zone = zone_named(node.at("zone"), rules);
  if (const ConfigNode* s = node.find("safely")) rules.zone_win.safely = s->as_bool();
}

void read_royal_capture(const ConfigNode& node, RuleSet& rules) { rules.royals_unprotected = node.as_bool(); }

}  // namespace palace
