#include "notation/gib.h"

#include <cctype>
#include <map>

#include "core/text.h"
#include "game/explain.h"
#include "loader/config_tree.h"
#include "loader/rule_set.h"
#include "notation/encoding.h"
#include "notation/replay.h"
#include "position/position.h"

namespace palace {

namespace {

// The .gib tags that have a PGN name; the formation tags, per side.
constexpr std::pair<const char*, const char*> TagNames[] = {
    {"대회명", "Event"}, {"대국장소", "Site"}, {"대국일자", "Date"}, {"회전", "Round"},
    {"초대국자", "White"}, {"한대국자", "Black"},
};
constexpr const char* FormationTags[SideCount] = {"초차림", "한차림"};
constexpr const char* SideWords[SideCount] = {"초", "한"};

// The result a .gib states in words: "한 시간승" (Han wins on time), "초 완승".
std::string result_of(const std::string& words) {
  if (words.find("승") == std::string::npos) return "*";
  for (int s = 0; s < SideCount; ++s)
    if (words.rfind(SideWords[s], 0) == 0) return s == 0 ? "1-0" : "0-1";
  return "*";
}

// A FEN whose board field has `pieces` put on their points.
std::string with_pieces(const std::string& fen, const BoardDef& board, const std::map<Square, char>& pieces) {
  const std::size_t space = fen.find(' ');
  std::vector<std::string> rows(1);
  for (const char c : fen.substr(0, space)) {
    if (c == '/')
      rows.emplace_back();
    else
      rows.back() += c;
  }
  std::vector<std::string> grid;
  for (const std::string& row : rows) {
    std::string cells;
    int count = 0;
    for (const char c : row) {
      if (std::isdigit(static_cast<unsigned char>(c))) {
        count = count * 10 + (c - '0');
        continue;
      }
      cells.append(std::size_t(count), '.');
      count = 0;
      cells += c;
    }
    cells.append(std::size_t(count), '.');
    grid.push_back(cells);
  }
  for (const auto& [s, c] : pieces) grid[std::size_t(board.ranks - 1 - board.rank_of(s))][std::size_t(board.file_of(s))] = c;
  std::string out;
  for (const std::string& cells : grid) {
    if (!out.empty()) out += '/';
    int empty = 0;
    for (const char c : cells) {
      if (c == '.') {
        ++empty;
        continue;
      }
      if (empty) out += std::to_string(empty);
      empty = 0;
      out += c;
    }
    if (empty) out += std::to_string(empty);
  }
  return out + fen.substr(space);
}

}  // namespace

std::string gib_text(std::string_view bytes) { return utf8_text(bytes, "cp949"); }

std::vector<GameRecord> read_gib(std::string_view bytes) {
  std::vector<GameRecord> games = read_pgn(gib_text(bytes));
  for (GameRecord& game : games) {
    for (auto& [name, value] : game.tags)
      for (const auto& [gib, pgn] : TagNames)
        if (name == gib) name = pgn;
    if (const std::string* words = game.tag("대국결과"))
      if (game.result == "*") game.result = result_of(*words);
  }
  return games;
}

void apply_formation_tags(GameRecord& record, const std::shared_ptr<const Variant>& variant) {
  if (record.tag("FEN")) return;
  const RuleSet& rules = variant->rules();
  const ConfigNode root = ConfigNode::load_file(rules.source_file);
  const ConfigNode* formations = root.find("formations");
  const ConfigNode* setup = root.find("setup");
  auto kind_named = [&](const std::string& name) {
    for (std::size_t k = 0; k < rules.notation.names.size(); ++k)
      if (rules.notation.names[k][0] == name || rules.notation.names[k][1] == name) return int(k);
    for (const auto& [also, k] : rules.notation.also_names)
      if (also == name) return k;
    return -1;
  };
  std::map<Square, char> pieces;
  for (int s = 0; s < SideCount; ++s) {
    const std::string tag = capitalised(rules.sides[s].name) + "Formation";
    const std::string* given = record.tag(tag);
    if (!given) given = record.tag(FormationTags[s]);
    if (!given) continue;
    const ConfigNode* side = setup ? setup->find(rules.sides[s].name) : nullptr;
    const ConfigNode* placed = side ? side->find("formation") : nullptr;
    // A formation by Palace's name, or by its pieces from file to file as a .gib spells it.
    std::vector<int> spelled;
    for (const std::string& c : utf8_characters(*given)) spelled.push_back(kind_named(c));
    std::string found;
    std::vector<int> kinds;
    if (formations && placed)
      for (const auto& [name, list] : formations->entries()) {
        std::vector<int> listed;
        for (const ConfigNode* k : list.items()) listed.push_back(rules.kind_by_name(k->as_string()));
        if (name == *given || listed == spelled) found = name, kinds = listed;
      }
    if (found.empty()) {
      record.problem = tag + " " + quote(*given) + " is none of " + rules.name + "'s formations";
      return;
    }
    record.set_tag(tag, found);
    const auto squares = placed->at("squares").items();
    for (std::size_t i = 0; i < squares.size() && i < kinds.size(); ++i) {
      const char letter = rules.pieces[std::size_t(kinds[i])].letter;
      pieces[rules.board.parse_square(squares[i]->as_string())] =
          rules.sides[s].upper_case ? letter : char(std::tolower(static_cast<unsigned char>(letter)));
    }
  }
  if (pieces.empty()) return;
  const std::string start = Position(variant).fen();
  const std::string fen = with_pieces(start, rules.board, pieces);
  if (fen == start) return;
  record.set_tag("SetUp", "1");
  record.set_tag("FEN", fen);
}

}  // namespace palace
