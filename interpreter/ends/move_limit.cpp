#include "ends/move_limit.h"

#include "loader/names.h"

namespace palace {

void MoveLimit::read(const ConfigNode& ends, const RuleSet& rules) {
  const ConfigNode* node = ends.find(keys[0].name);
  if (!node) return;
  node->expect_keys(move_limit_keys::map);
  // A limit may be a claim alone, where the rules end no game by it without a claim, or no limit at
  // all: the half-move clock a FEN writes, reset as `reset_by` says (Makruk's, which the endgame
  // count replaces).
  if (!node->find("plies") && !node->find("claim") && !node->find("reset_by"))
    node->fail("expected `plies:`, `claim:` or `reset_by:`");
  if (const ConfigNode* p = node->find("plies")) plies = read_int(*p, move_limit_keys::map_keys[0]);
  if (const ConfigNode* reset = node->find("reset_by")) reset_by = kinds_named(rules, *reset);
  if (const ConfigNode* res = node->find("result")) by_counting = word<bool>(*res, {{"draw", false}, {"counting", true}});
  if (const ConfigNode* c = node->find("claim")) claim = c->as_int(1, plies ? plies - 1 : 10000);
}

}  // namespace palace
