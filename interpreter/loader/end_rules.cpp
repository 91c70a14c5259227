#include "loader/end_rules.h"

#include <algorithm>

#include "core/text.h"
#include "loader/key_table.h"
#include "loader/names.h"

namespace palace {

namespace {

Sanction sanction(const ConfigNode& node) {
  return word<Sanction>(node, {{"loss", Sanction::Loss}, {"illegal", Sanction::Illegal}, {"vary", Sanction::MustVary},
                               {"draw", Sanction::None}});
}

// chase: {attacker: [victims]}, and the same for victims chased only when they cannot capture back
// (chase_unless_mutual) or even when protected (chase_protected).
void read_chases(const ConfigNode& node, Chase how, RuleSet& rules) {
  const std::size_t kinds = rules.pieces.size();
  auto& chases = rules.rules.chases;
  if (chases.empty()) chases.assign(kinds, std::vector<Chase>(kinds, Chase::Never));
  for (const auto& [attacker, victims] : node.entries()) {
    const Kind a = rules.kind_by_name(attacker);
    if (a < 0) victims.fail("no piece named " + palace::quote(attacker));
    for (const ConfigNode* v : victims.items()) {
      const Kind k = kind_named(rules, *v);
      if (rules.pieces[k].royal) v->fail(rules.pieces[k].name + " is royal: attacking it is a check, not a chase");
      chases[a][k] = how;
    }
  }
}

// chase_zones: {victim: zone}, the zone of the victim's own side where attacking it may be a chase.
void read_chase_zones(const ConfigNode& node, RuleSet& rules) {
  auto& zones = rules.rules.chase_zones;
  zones.assign(rules.pieces.size(), -1);
  for (const auto& [victim, zone] : node.entries()) {
    const Kind k = rules.kind_by_name(victim);
    if (k < 0) zone.fail("no piece named " + palace::quote(victim));
    zones[std::size_t(k)] = zone_named(rules, zone);
  }
}

// `shuttle: N` refuses the N-th move back and forth; `shuttle: {moves: N, result: loss}` ends the
// game against the side whose piece went back and forth N times after arriving (rules/README.md).
void read_shuttle(const ConfigNode& node, GameRules& r) {
  if (!node.is_map()) {
    r.shuttle_moves = node.as_int(2, 100);
    return;
  }
  node.expect_keys(keys::shuttle);
  const int moves = node.at("moves").as_int(2, 100);
  const Sanction how = sanction(node.at("result"));
  if (how == Sanction::Loss)
    r.shuttle_loss_moves = moves;
  else if (how == Sanction::Illegal)
    r.shuttle_moves = moves;
  else
    node.at("result").fail("a shuttle is `illegal` or a `loss`");
}

}  // namespace

void read_repetition(const ConfigNode& node, RuleSet& rules) {
  node.expect_keys(keys::repetition);
  GameRules& r = rules.rules;
  // Without `count` no occurrence ends the game by itself: a player claims the draw (`claim`).
  if (!node.find("claim") || node.find("count")) r.repetition_count = node.at("count").as_int(2, 100);
  if (const ConfigNode* res = node.find("result")) {
    if (res->is_map()) {
      res->expect_keys(keys::repetition_winner);
      r.repetition_winner = side_named(rules, res->at("winner"));
    } else {
      r.repetition_by_counting = word<bool>(*res, {{"draw", false}, {"counting", true}});
    }
  }
  if (const ConfigNode* claim = node.find("claim"))
    r.repetition_claim = claim->as_int(2, r.repetition_count ? r.repetition_count - 1 : 100);
  if (const ConfigNode* pc = node.find("perpetual_check")) r.perpetual_check = sanction(*pc);
  if (const ConfigNode* pc = node.find("perpetual_chase")) r.perpetual_chase = sanction(*pc);
  if (const ConfigNode* c = node.find("chase")) read_chases(*c, Chase::Unprotected, rules);
  if (const ConfigNode* c = node.find("chase_unless_mutual")) read_chases(*c, Chase::UnlessMutual, rules);
  if (const ConfigNode* c = node.find("chase_protected")) read_chases(*c, Chase::Always, rules);
  if (const ConfigNode* z = node.find("chase_zones")) read_chase_zones(*z, rules);
  if (r.perpetual_chase != Sanction::None && r.chases.empty())
    node.at("perpetual_chase").fail("say under `chase:` which pieces chase which, e.g. chase: {chariot: [horse]}");
  if (const ConfigNode* s = node.find("shuttle")) read_shuttle(*s, r);
}

void read_move_limit(const ConfigNode& node, RuleSet& rules) {
  node.expect_keys(keys::move_limit);
  GameRules& r = rules.rules;
  // A limit may be a claim alone, where the rules end no game by it without a claim, or no limit at
  // all: the half-move clock a FEN writes, reset as `reset_by` says (Makruk's, which the endgame
  // count replaces).
  if (!node.find("plies") && !node.find("claim") && !node.find("reset_by"))
    node.fail("expected `plies:`, `claim:` or `reset_by:`");
  if (const ConfigNode* plies = node.find("plies")) r.move_limit_plies = plies->as_int(1, 10000);
  if (const ConfigNode* reset = node.find("reset_by"))
    r.move_limit_reset_by = kinds_named(rules, *reset);
  if (const ConfigNode* res = node.find("result"))
    r.move_limit_by_counting = word<bool>(*res, {{"draw", false}, {"counting", true}});
  if (const ConfigNode* claim = node.find("claim"))
    r.move_limit_claim = claim->as_int(1, r.move_limit_plies ? r.move_limit_plies - 1 : 10000);
}

void read_endgame_count(const ConfigNode& node, RuleSet& rules) {
  node.expect_keys(keys::endgame_count);
  EndgameCount& count = rules.rules.endgame_count;
  if (const ConfigNode* b = node.find("blocked_by")) count.blocked_by = kinds_named(rules, *b);
  if (const ConfigNode* b = node.find("board")) count.board_moves = b->as_int(1, 1000);
  if (const ConfigNode* bare = node.find("bare")) {
    if (!bare->is_sequence()) bare->fail("expected a list like [{pieces: [rook], moves: 16}, {pieces: [], moves: 64}]");
    for (const ConfigNode* entry : bare->items()) {
      entry->expect_keys(keys::bare_count);
      count.bare.push_back({kind_set_named(rules, entry->at("pieces"), "expected a list of pieces, e.g. [rook, rook]"),
                            entry->at("moves").as_int(1, 1000)});
      for (const Kind kind : count.bare.back().pieces)
        if (rules.pieces[std::size_t(kind)].royal) entry->at("pieces").fail(rules.pieces[std::size_t(kind)].name + " is royal: list the pieces besides it");
    }
  }
  if (!count.on()) node.fail("say how far a side counts: `board:`, `bare:` or both");
}

void read_dead_material(const ConfigNode& node, RuleSet& rules) {
  if (!node.is_sequence()) node.fail("expected a list of piece lists, {one_colour: [kinds]} and {only: [kinds]}, e.g. [[], [knight]]");
  GameRules& r = rules.rules;
  for (const ConfigNode* entry : node.items()) {
    if (entry->is_map()) {
      entry->expect_keys(keys::dead_material_kinds);
      for (const auto& [key, kinds] : entry->entries()) {
        std::vector<Kind>& into = key == "one_colour" ? r.one_colour_kinds : r.dead_kinds;
        const std::vector<Kind> named = kinds_named(rules, kinds);
        into.insert(into.end(), named.begin(), named.end());
      }
      continue;
    }
    r.dead_material.push_back(kind_set_named(rules, *entry, "expected a list of pieces, {one_colour: [kinds]} or {only: [kinds]}"));
  }
}

}  // namespace palace
