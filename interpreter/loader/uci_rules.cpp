#include "loader/uci_rules.h"

#include "core/text.h"
#include "loader/key_table.h"
#include "loader/language.h"

namespace palace {

UciRules read_uci_rules(const ConfigNode& node) {
  node.expect_keys(keys::uci);
  UciRules uci;
  if (const ConfigNode* v = node.find("variant")) uci.variant = v->as_string();
  if (const ConfigNode* x = node.find("xboard")) uci.xboard = x->as_string();
  if (const ConfigNode* c = node.find("chess960")) uci.chess960 = c->as_string();
  if (const ConfigNode* m = node.find("mirror_ranks")) uci.mirror_ranks = m->as_bool();
  if (const ConfigNode* p = node.find("pass")) {
    const std::string& word = p->as_string();
    reject_old_word(*p);
    if (word == "null_move")
      uci.pass = WirePass::NullMove;
    else if (word == "royal_point")
      uci.pass = WirePass::RoyalPoint;
    else
      p->fail("unknown pass notation " + quote(word) + " (null_move, royal_point)");
  }
  return uci;
}

}  // namespace palace
