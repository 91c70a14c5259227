#include "loader/search_rules.h"
#include "loader/key_table.h"

namespace palace {

SearchRules read_search_rules(const ConfigNode& node) {
  node.expect_keys(keys::search);
  SearchRules search;
  if (const ConfigNode* r = node.find("reduce_evasions")) search.reduce_evasions = r->as_bool();
  if (const ConfigNode* e = node.find("extend_checks"))
    search.extend_checks = word<CheckExtension>(*e, {{"all", CheckExtension::All}, {"safe", CheckExtension::Safe}});
  if (const ConfigNode* c = node.find("continuation_plies"))
    search.continuation_plies = c->as_int(1, MostContinuationPlies);
  return search;
}

}  // namespace palace
