#include "loader/eval_rules.h"

#include <algorithm>

#include "core/text.h"
#include "loader/rule_set.h"

namespace palace {

namespace {

int zone_index(const ConfigNode& key_node, const std::string& name, const RuleSet& rules) {
  const auto it = std::find(rules.zone_names.begin(), rules.zone_names.end(), name);
  if (it == rules.zone_names.end()) {
    std::string known;
    for (const std::string& z : rules.zone_names) known += (known.empty() ? "" : ", ") + z;
    key_node.fail("no zone named " + quote(name) + " (known: " + (known.empty() ? "none" : known) + ")");
  }
  return int(it - rules.zone_names.begin());
}

std::vector<int> read_table(const ConfigNode& node, const BoardDef& board) {
  const std::vector<const ConfigNode*> rows = node.items();
  if (!node.is_sequence() || int(rows.size()) != board.ranks)
    node.fail("expected " + std::to_string(board.ranks) + " rows, one per rank, far rank first");
  std::vector<int> table;
  for (const ConfigNode* row : rows) {
    const std::vector<const ConfigNode*> cells = row->items();
    if (!row->is_sequence() || int(cells.size()) != board.files)
      row->fail("expected a row of " + std::to_string(board.files) + " numbers, one per file");
    for (const ConfigNode* cell : cells) table.push_back(cell->as_int(-10000, 10000));
  }
  return table;
}

PieceEvalDef read_piece(const ConfigNode& node, const RuleSet& rules) {
  node.expect_keys({"value", "zones", "table"});
  PieceEvalDef def;
  if (const ConfigNode* v = node.find("value")) def.value_cp = v->as_int(0, 100000);
  if (const ConfigNode* zones = node.find("zones")) {
    if (!zones->is_map()) zones->fail("expected pairs of a zone name and centipawns, e.g. {palace: 20}");
    for (const auto& [name, bonus] : zones->entries())
      def.zone_bonus.emplace_back(zone_index(bonus, name, rules), bonus.as_int(-10000, 10000));
  }
  if (const ConfigNode* t = node.find("table")) def.table = read_table(*t, rules.board);
  return def;
}

}  // namespace

EvalDef read_eval(const ConfigNode& node, const RuleSet& rules) {
  node.expect_keys({"pieces", "mobility"});
  EvalDef def;
  def.pieces.resize(rules.pieces.size());
  def.mobility.resize(rules.pieces.size());
  if (const ConfigNode* pieces = node.find("pieces")) {
    if (!pieces->is_map()) pieces->fail("expected piece names, each with its value, zones or table");
    for (const auto& [name, piece] : pieces->entries()) {
      const int kind = rules.kind_by_name(name);
      if (kind < 0) piece.fail("no piece named " + quote(name));
      def.pieces[kind] = read_piece(piece, rules);
    }
  }
  if (const ConfigNode* mobility = node.find("mobility")) {
    if (!mobility->is_map()) mobility->fail("expected piece names, each with centipawns per point it could move to");
    for (const auto& [name, weight] : mobility->entries()) {
      const int kind = rules.kind_by_name(name);
      if (kind < 0) weight.fail("no piece named " + quote(name));
      def.mobility[kind] = weight.as_int(-1000, 1000);
    }
  }
  return def;
}

}  // namespace palace
