#include "loader/eval_rules.h"

#include <algorithm>

#include "core/text.h"
#include "loader/key_table.h"
#include "loader/names.h"
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

// `ranks` numbers, one per rank as the side sees the board, far rank first.
std::vector<int> read_rank_list(const ConfigNode& node, const BoardDef& board) {
  const std::vector<const ConfigNode*> cells = node.items();
  if (!node.is_sequence() || int(cells.size()) != board.ranks)
    node.fail("expected " + std::to_string(board.ranks) + " numbers, one per rank, far rank first");
  std::vector<int> list;
  for (const ConfigNode* cell : cells) list.push_back(cell->as_int(-10000, 10000));
  return list;
}

// An endgame figure is meaningless without a phase to weigh it by.
void require_phase(const ConfigNode& node, bool tapered) {
  if (!tapered) node.fail("has no effect without eval.phase, which says how far the game is from its end");
}

PieceEvalDef read_piece(const ConfigNode& node, const RuleSet& rules, bool tapered) {
  node.expect_keys(keys::piece_eval);
  PieceEvalDef def;
  if (const ConfigNode* v = node.find("value")) def.value_cp = v->as_int(0, 100000);
  if (const ConfigNode* zones = node.find("zones")) {
    if (!zones->is_map()) zones->fail("expected pairs of a zone name and centipawns, e.g. {palace: 20}");
    for (const auto& [name, bonus] : zones->entries())
      def.zone_bonus.emplace_back(zone_index(bonus, name, rules), bonus.as_int(-10000, 10000));
  }
  if (const ConfigNode* t = node.find("table")) def.table = read_table(*t, rules.board);
  if (const ConfigNode* end = node.find("endgame")) {
    require_phase(*end, tapered);
    if (!end->is_map()) end->fail("expected the piece's endgame value or table, e.g. {value: 120}");
    end->expect_keys(keys::piece_eval_endgame);
    if (const ConfigNode* v = end->find("value")) def.endgame_value_cp = v->as_int(0, 100000);
    if (const ConfigNode* t = end->find("table")) def.endgame_table = read_table(*t, rules.board);
  }
  return def;
}

Kind kind_index(const ConfigNode& node, const std::string& name, const RuleSet& rules) {
  const Kind kind = rules.kind_by_name(name);
  if (kind < 0) fail_no_piece(rules, name, node);
  return kind;
}

// A map of piece names to numbers from `min` to `max`, by kind; 0 for a kind not named.
std::vector<int> read_kind_numbers(const ConfigNode* node, const RuleSet& rules, const std::string& each, int min,
                                   int max) {
  std::vector<int> numbers(rules.pieces.size());
  if (!node) return numbers;
  if (!node->is_map()) node->fail("expected piece names, each with " + each);
  for (const auto& [name, number] : node->entries()) numbers[kind_index(number, name, rules)] = number.as_int(min, max);
  return numbers;
}

PassedEvalDef read_passed(const ConfigNode& node, Kind kind, const RuleSet& rules, bool tapered) {
  if (!node.is_map()) node.fail("expected the bonus by rank, e.g. {bonus: [0, 90, 60, 40, 25, 15, 10, 0]}");
  node.expect_keys(keys::passed_eval);
  PassedEvalDef def;
  def.kind = kind;
  def.bonus = read_rank_list(node.at("bonus"), rules.board);
  def.endgame_bonus = def.bonus;
  if (const ConfigNode* end = node.find("endgame")) {
    require_phase(*end, tapered);
    def.endgame_bonus = read_rank_list(*end, rules.board);
  }
  if (const ConfigNode* royals = node.find("royal_distance")) {
    require_phase(*royals, tapered);
    if (!royals->is_map()) royals->fail("expected own: and enemy:, each one number per rank");
    royals->expect_keys(keys::royal_distance);
    def.own_royal = read_rank_list(royals->at("own"), rules.board);
    def.enemy_royal = read_rank_list(royals->at("enemy"), rules.board);
  }
  return def;
}

StructureEvalDef read_structure(const ConfigNode& node, Kind kind, bool tapered) {
  if (!node.is_map())
    node.fail("expected centipawns for isolated and doubled pieces, e.g. {isolated: -10, doubled: -10}");
  node.expect_keys(keys::structure_eval);
  StructureEvalDef def;
  def.kind = kind;
  const auto read = [](const ConfigNode& from, const char* key, int fallback) {
    const ConfigNode* n = from.find(key);
    return n ? n->as_int(-10000, 10000) : fallback;
  };
  def.isolated = def.endgame_isolated = read(node, "isolated", 0);
  def.doubled = def.endgame_doubled = read(node, "doubled", 0);
  if (const ConfigNode* end = node.find("endgame")) {
    require_phase(*end, tapered);
    if (!end->is_map()) end->fail("expected the endgame's figures, e.g. {isolated: -20, doubled: -30}");
    end->expect_keys(keys::structure_eval_endgame);
    def.endgame_isolated = read(*end, "isolated", def.isolated);
    def.endgame_doubled = read(*end, "doubled", def.doubled);
  }
  return def;
}

OpenFileEvalDef read_open_file(const ConfigNode& node, Kind kind) {
  if (!node.is_map())
    node.fail("expected centipawns for an open and a half-open file, e.g. {open: 25, half_open: 10}");
  node.expect_keys(keys::open_file_eval);
  OpenFileEvalDef def;
  def.kind = kind;
  if (const ConfigNode* n = node.find("open")) def.open = n->as_int(-10000, 10000);
  if (const ConfigNode* n = node.find("half_open")) def.half_open = n->as_int(-10000, 10000);
  return def;
}

ShelterEvalDef read_shelter(const ConfigNode& node, const RuleSet& rules) {
  if (!node.is_map())
    node.fail("expected the sheltering kind and its bonus by distance, e.g. {kind: pawn, bonus: [20, 10]}");
  node.expect_keys(keys::shelter_eval);
  ShelterEvalDef def;
  const ConfigNode& kind = node.at("kind");
  def.kind = kind_index(kind, kind.as_string(), rules);
  const ConfigNode& bonus = node.at("bonus");
  if (!bonus.is_sequence() || bonus.items().empty() || int(bonus.items().size()) >= rules.board.ranks)
    bonus.fail("expected centipawns by ranks ahead of the royal, from 1, fewer than the board's ranks");
  for (const ConfigNode* cell : bonus.items()) def.bonus.push_back(cell->as_int(-10000, 10000));
  if (const ConfigNode* zone = node.find("zone")) def.zone = zone_index(*zone, zone->as_string(), rules);
  return def;
}

// A list of 1 to `most` centipawn figures.
std::vector<int> read_list(const ConfigNode& node, std::size_t most, const std::string& what) {
  const std::vector<const ConfigNode*> cells = node.items();
  if (!node.is_sequence() || cells.empty() || cells.size() > most)
    node.fail("expected 1 to " + std::to_string(most) + " numbers: " + what);
  std::vector<int> list;
  for (const ConfigNode* cell : cells) list.push_back(cell->as_int(-10000, 10000));
  return list;
}

// The terms that weigh how the game ends: each needs its end, which the rules read before `engine:`.
void read_ends_terms(const ConfigNode& node, const RuleSet& rules, EvalDef& def) {
  if (const ConfigNode* goal = node.find("goal")) {
    if (rules.ends.get<ZoneReached>().kind < 0) goal->fail("has no effect without ends.zone_reached, which names the goal");
    def.goal = read_list(*goal, MaxFiles + MaxRanks, "centipawns by the distance to the goal, from 1 point");
  }
  if (const ConfigNode* checks = node.find("checks")) {
    if (!rules.ends.get<ChecksGiven>().limit) checks->fail("has no effect without ends.checks_given, which counts the checks");
    def.checks = read_list(*checks, 99, "centipawns by the checks given, from 1");
  }
  def.hand.assign(rules.pieces.size(), -1);
  if (const ConfigNode* hand = node.find("hand")) {
    if (!rules.hands.enabled) hand->fail("has no effect without hands:, which hold the pieces");
    if (!hand->is_map()) hand->fail("expected piece names, each with its worth in a hand, e.g. {pawn: 120}");
    for (const auto& [name, worth] : hand->entries()) def.hand[kind_index(worth, name, rules)] = worth.as_int(0, 100000);
  }
  if (const ConfigNode* few = node.find("few_pieces"))
    def.few_pieces = read_list(*few, 16, "centipawns by the pieces left besides the royals, from 0");
}

}  // namespace

EvalDef read_eval(const ConfigNode& node, const RuleSet& rules) {
  node.expect_keys(keys::eval);
  EvalDef def;
  def.phase = read_kind_numbers(node.find("phase"), rules, "its weight in the opening's material", 0, 100);
  const bool tapered = std::any_of(def.phase.begin(), def.phase.end(), [](int w) { return w > 0; });
  def.pieces.resize(rules.pieces.size());
  if (const ConfigNode* pieces = node.find("pieces")) {
    if (!pieces->is_map()) pieces->fail("expected piece names, each with its value, zones or table");
    for (const auto& [name, piece] : pieces->entries())
      def.pieces[kind_index(piece, name, rules)] = read_piece(piece, rules, tapered);
  }
  def.mobility = read_kind_numbers(node.find("mobility"), rules, "centipawns per point it could move to", -1000, 1000);
  if (const ConfigNode* passed = node.find("passed")) {
    if (!passed->is_map()) passed->fail("expected piece names, each with its bonus by rank");
    for (const auto& [name, bonus] : passed->entries())
      def.passed.push_back(read_passed(bonus, kind_index(bonus, name, rules), rules, tapered));
  }
  def.royal_attack = read_kind_numbers(node.find("royal_attack"), rules,
                                       "centipawns per point next to the enemy royal it could move to", -1000, 1000);
  def.threat = read_kind_numbers(node.find("threat"), rules,
                                 "centipawns for each enemy piece worth more than itself that it could capture", -1000, 1000);
  def.hanging = read_kind_numbers(node.find("hanging"), rules,
                                  "centipawns for each other enemy piece it could capture that none defends", -1000, 1000);
  def.pair = read_kind_numbers(node.find("pair"), rules, "centipawns for holding two or more", -10000, 10000);
  if (const ConfigNode* structure = node.find("structure")) {
    if (!structure->is_map()) structure->fail("expected piece names, each with its isolated and doubled figures");
    for (const auto& [name, terms] : structure->entries())
      def.structure.push_back(read_structure(terms, kind_index(terms, name, rules), tapered));
  }
  if (const ConfigNode* files = node.find("open_file")) {
    if (!files->is_map()) files->fail("expected piece names, each with its open and half-open file bonus");
    if (def.structure.empty()) files->fail("needs eval.structure, which names the kinds that close a file");
    for (const auto& [name, terms] : files->entries())
      def.open_file.push_back(read_open_file(terms, kind_index(terms, name, rules)));
  }
  if (const ConfigNode* shelter = node.find("shelter")) def.shelter = read_shelter(*shelter, rules);
  if (const ConfigNode* tempo = node.find("tempo")) def.tempo = tempo->as_int(-1000, 1000);
  read_ends_terms(node, rules, def);
  return def;
}

}  // namespace palace
