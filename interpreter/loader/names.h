// Looking up the pieces, zones and sides a rule file names. Each lookup fails at the node that holds the
// name (a RuleError naming file, line and key) when the rules declare no such piece, zone or side.
#pragma once

#include <string>
#include <vector>

#include "loader/config_tree.h"
#include "loader/rule_set.h"

namespace palace {

Kind kind_named(const RuleSet& rules, const std::string& name, const ConfigNode& where);
// Fails at `where`: the rules have no piece `name`; where an importing file took it away, says where.
[[noreturn]] void fail_no_piece(const RuleSet& rules, const std::string& name, const ConfigNode& where);
inline Kind kind_named(const RuleSet& rules, const ConfigNode& node) { return kind_named(rules, node.as_string(), node); }
// A list of piece names, in order.
std::vector<Kind> kinds_named(const RuleSet& rules, const ConfigNode& list);
// A list of pieces that may be empty (`[]` or `~`), sorted, as material rules compare them; anything
// else fails with `expected`.
std::vector<Kind> kind_set_named(const RuleSet& rules, const ConfigNode& node, const std::string& expected);

int zone_named(const RuleSet& rules, const std::string& name, const ConfigNode& where);
inline int zone_named(const RuleSet& rules, const ConfigNode& node) { return zone_named(rules, node.as_string(), node); }

Side side_named(const RuleSet& rules, const std::string& name, const ConfigNode& where);
inline Side side_named(const RuleSet& rules, const ConfigNode& node) { return side_named(rules, node.as_string(), node); }

// "script.function", naming a script declared under `scripts:`.
HookRef hook_named(const RuleSet& rules, const ConfigNode& node);

}  // namespace palace
