#include "loader/names.h"

#include <algorithm>

#include "core/text.h"

namespace palace {

Kind kind_named(const RuleSet& rules, const std::string& name, const ConfigNode& where) {
  const Kind k = rules.kind_by_name(name);
  if (k < 0) fail_no_piece(rules, name, where);
  return k;
}

void fail_no_piece(const RuleSet& rules, const std::string& name, const ConfigNode& where) {
  const auto removed = std::find_if(rules.removed_kinds.begin(), rules.removed_kinds.end(), [&](const auto& r) { return r.first == name; });
  if (removed == rules.removed_kinds.end()) where.fail("no piece named " + quote(name));
  where.fail("no piece named " + quote(name) + ": " + removed->second.str() + " takes it away, so take this entry away too (`~`)");
}

std::vector<Kind> kinds_named(const RuleSet& rules, const ConfigNode& list) {
  std::vector<Kind> kinds;
  for (const ConfigNode* k : list.items()) kinds.push_back(kind_named(rules, *k));
  return kinds;
}

std::vector<Kind> kind_set_named(const RuleSet& rules, const ConfigNode& node, const std::string& expected) {
  if (node.type() == ConfigNode::Type::Null) return {};
  if (!node.is_sequence()) node.fail(expected);
  std::vector<Kind> kinds = kinds_named(rules, node);
  std::sort(kinds.begin(), kinds.end());
  return kinds;
}

int zone_named(const RuleSet& rules, const std::string& name, const ConfigNode& where) {
  const auto it = std::find(rules.zone_names.begin(), rules.zone_names.end(), name);
  if (it == rules.zone_names.end()) where.fail("no zone named " + quote(name) + " (zones are declared under sides)");
  return int(it - rules.zone_names.begin());
}

Side side_named(const RuleSet& rules, const std::string& name, const ConfigNode& where) {
  const std::optional<Side> side = rules.side_by_name(name);
  if (!side) where.fail("no side named " + quote(name));
  return *side;
}

HookRef hook_named(const RuleSet& rules, const ConfigNode& node) {
  const std::string& text = node.as_string();
  const auto dot = text.find('.');
  HookRef ref;
  ref.mark = node.mark();
  if (dot != std::string::npos) {
    ref.function = text.substr(dot + 1);
    for (std::size_t i = 0; i < rules.scripts.size(); ++i)
      if (rules.scripts[i].name == text.substr(0, dot)) ref.script = int(i);
  }
  if (ref.script < 0 || ref.function.empty())
    node.fail("expected script.function naming a script under `scripts:`, got " + quote(text));
  return ref;
}

}  // namespace palace
