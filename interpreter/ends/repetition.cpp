#include "ends/repetition.h"

#include "core/text.h"
#include "loader/names.h"

namespace palace {

namespace {

Sanction sanction(const ConfigNode& node) {
  return word<Sanction>(node, {{"loss", Sanction::Loss}, {"illegal", Sanction::Illegal}, {"vary", Sanction::MustVary},
                               {"draw", Sanction::None}});
}

// chase: {attacker: [victims]}, and the same for victims chased only when they cannot capture back
// (chase_unless_mutual) or even when protected (chase_protected).
void read_chases(const ConfigNode& node, Chase how, const RuleSet& rules, std::vector<std::vector<Chase>>& chases) {
  const std::size_t kinds = rules.pieces.size();
  if (chases.empty()) chases.assign(kinds, std::vector<Chase>(kinds, Chase::Never));
  for (const auto& [attacker, victims] : node.entries()) {
    const Kind a = rules.kind_by_name(attacker);
    if (a < 0) fail_no_piece(rules, attacker, victims);
    for (const ConfigNode* v : victims.items()) {
      const Kind k = kind_named(rules, *v);
      if (rules.pieces[k].royal) v->fail(rules.pieces[k].name + " is royal: attacking it is a check, not a chase");
      chases[a][k] = how;
    }
  }
}

// chase_zones: {victim: zone}, the zone of the victim's own side where attacking it may be a chase.
std::vector<int> read_chase_zones(const ConfigNode& node, const RuleSet& rules) {
  std::vector<int> zones(rules.pieces.size(), -1);
  for (const auto& [victim, zone] : node.entries()) {
    const Kind k = rules.kind_by_name(victim);
    if (k < 0) fail_no_piece(rules, victim, zone);
    zones[std::size_t(k)] = zone_named(rules, zone);
  }
  return zones;
}

}  // namespace

void Repetition::read(const ConfigNode& ends, const RuleSet& rules) {
  const ConfigNode* node = ends.find(keys[0].name);
  if (!node) return;
  node->expect_keys(repetition_keys::map);
  // Without `count` no occurrence ends the game by itself: a player claims the draw (`claim`).
  if (!node->find("claim") || node->find("count")) count = read_int(node->at("count"), repetition_keys::map_keys[0]);
  if (const ConfigNode* res = node->find("result")) {
    if (res->is_map()) {
      res->expect_keys(repetition_keys::winner);
      winner = side_named(rules, res->at("winner"));
    } else {
      by_counting = word<bool>(*res, {{"draw", false}, {"counting", true}});
    }
  }
  if (const ConfigNode* c = node->find("claim")) {
    const ConfigNode* n = node->find("count");
    // A claim comes before the count: the later of the two values written is the one to change.
    if (n && count && n->written_after(*c) && c->as_int(2, 100) >= count)
      n->fail("expected a number above the claim, " + std::to_string(c->as_int(2, 100)) + " (" + c->mark().str() + ")");
    claim = c->as_int(2, count ? count - 1 : 100);
  }
  if (const ConfigNode* pc = node->find("perpetual_check")) perpetual_check = sanction(*pc);
  if (const ConfigNode* pc = node->find("perpetual_chase")) perpetual_chase = sanction(*pc);
  if (const ConfigNode* c = node->find("chase")) read_chases(*c, Chase::Unprotected, rules, chases);
  if (const ConfigNode* c = node->find("chase_unless_mutual")) read_chases(*c, Chase::UnlessMutual, rules, chases);
  if (const ConfigNode* c = node->find("chase_protected")) read_chases(*c, Chase::Always, rules, chases);
  if (const ConfigNode* z = node->find("chase_zones")) chase_zones = read_chase_zones(*z, rules);
  if (perpetual_chase != Sanction::None && chases.empty())
    node->at("perpetual_chase").fail("say under `chase:` which pieces chase which, e.g. chase: {chariot: [horse]}");
  // `shuttle: N` refuses the N-th move back and forth; `shuttle: {moves: N, result: loss}` ends the
  // game against the side whose piece went back and forth N times after arriving (rules/README.md).
  if (const ConfigNode* s = node->find("shuttle")) {
    if (!s->is_map()) {
      shuttle_moves = read_int(*s, repetition_keys::shuttle_keys[0]);
      return;
    }
    s->expect_keys(repetition_keys::shuttle);
    const int moves = read_int(s->at("moves"), repetition_keys::shuttle_keys[0]);
    const Sanction how = sanction(s->at("result"));
    if (how == Sanction::Loss)
      shuttle_loss_moves = moves;
    else if (how == Sanction::Illegal)
      shuttle_moves = moves;
    else
      s->at("result").fail("a shuttle is `illegal` or a `loss`");
  }
}

}  // namespace palace
