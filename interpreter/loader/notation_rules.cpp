#include "loader/notation_rules.h"

#include <cctype>

#include "core/text.h"
#include "loader/key_table.h"
#include "loader/names.h"
#include "loader/rule_set.h"

namespace palace {

namespace {

constexpr std::array<std::pair<const char*, NotationStyle>, 9> StyleNames = {{
    {"uci", NotationStyle::Coordinates},
    {"san", NotationStyle::San},
    {"lan", NotationStyle::Lan},
    {"wxf", NotationStyle::Wxf},
    {"janggi", NotationStyle::Janggi},
    {"korean", NotationStyle::Korean},
    {"iccs", NotationStyle::Iccs},
    {"chinese", NotationStyle::Chinese},
    {"chinese-traditional", NotationStyle::ChineseTraditional},
}};

// `{KIND: NAME or [FIRST_SIDE, SECOND_SIDE]}` into `names`, indexed by kind.
void read_side_names(const ConfigNode& node, const RuleSet& set, std::vector<std::array<std::string, 2>>& names) {
  for (const auto& [piece, spelled] : node.entries()) {
    const auto items = spelled.items();
    if (items.empty() || items.size() > 2) spelled.fail("give one name, or one per side");
    const std::size_t k = std::size_t(kind_named(set, piece, spelled));
    names[k] = {items.front()->as_string(), items.back()->as_string()};
    for (const ConfigNode* item : items)
      if (item->as_string().empty()) item->fail("a piece name is not empty");
  }
}

// `chinese: {simplified: {...}, traditional: {...}, also: {NAME: KIND}}`: both scripts are written
// (a kind given no character, as a variant's own piece, by its letter); all of them, and `also`,
// are read.
void read_chinese(const ConfigNode& node, const RuleSet& set, NotationRules& rules) {
  node.expect_keys(keys::chinese);
  rules.chinese_simplified.assign(set.pieces.size(), {});
  rules.chinese_traditional.assign(set.pieces.size(), {});
  for (const char* script : {"simplified", "traditional"}) {
    const ConfigNode* names = node.find(script);
    if (!names) node.fail(std::string("a chinese: section gives the ") + script + " characters");
    auto& table = std::string(script) == "simplified" ? rules.chinese_simplified : rules.chinese_traditional;
    read_side_names(*names, set, table);
    for (std::size_t k = 0; k < table.size(); ++k)
      for (const std::string& name : table[k])
        if (!name.empty()) rules.chinese_names.emplace_back(name, int(k));
  }
  if (const ConfigNode* a = node.find("also"))
    for (const auto& [name, piece] : a->entries()) rules.chinese_names.emplace_back(name, kind_named(set, piece));
}

}  // namespace

bool notation_offered(const NotationRules& rules, NotationStyle style, std::string& why) {
  if (style == NotationStyle::Iccs && !rules.iccs) why = "its notation: section does not say iccs: true";
  if ((style == NotationStyle::Chinese || style == NotationStyle::ChineseTraditional) && rules.chinese_names.empty())
    why = "its notation: section has no chinese: characters";
  return why.empty();
}

bool notation_style_by_name(const std::string& word, NotationStyle& style) {
  for (const auto& [name, s] : StyleNames)
    if (word == name) {
      style = s;
      return true;
    }
  return false;
}

std::vector<std::string> notation_style_names() {
  std::vector<std::string> names;
  for (const auto& [name, style] : StyleNames) names.push_back(name);
  return names;
}

const char* notation_style_name(NotationStyle style) {
  for (const auto& [name, s] : StyleNames)
    if (s == style) return name;
  return "uci";
}

NotationRules default_notation_rules(const std::vector<PieceDef>& pieces) {
  NotationRules rules;
  for (const PieceDef& p : pieces) rules.letters.push_back(p.letter);
  rules.names.resize(pieces.size());
  rules.kif_names.resize(pieces.size());
  rules.csa_names.resize(pieces.size());
  return rules;
}

NotationRules read_notation_rules(const ConfigNode& node, const RuleSet& set) {
  node.expect_keys(keys::notation);
  NotationRules rules = default_notation_rules(set.pieces);
  if (const ConfigNode* n = node.find("native")) {
    if (!notation_style_by_name(n->as_string(), rules.native) || rules.native == NotationStyle::Coordinates)
      n->fail("unknown notation " + quote(n->as_string()) + " (san, wxf, janggi, korean)");
  }
  if (const ConfigNode* l = node.find("letters"))
    for (const auto& [piece, letter] : l->entries()) {
      const std::string& text = letter.as_string();
      if (text.size() != 1 || !std::isupper(static_cast<unsigned char>(text[0])))
        letter.fail("a notation letter is one upper-case letter, got " + quote(text));
      rules.letters[std::size_t(kind_named(set, piece, letter))] = text[0];
    }
  if (const ConfigNode* u = node.find("unlettered")) rules.unlettered = kind_named(set, *u);
  if (const ConfigNode* n = node.find("names")) read_side_names(*n, set, rules.names);
  if (const ConfigNode* a = node.find("also"))
    for (const auto& [name, piece] : a->entries())
      rules.also_names.emplace_back(name, kind_named(set, piece));
  if (const ConfigNode* p = node.find("pgn"))
    for (const ConfigNode* tag : p->items()) rules.pgn_names.push_back(tag->as_string());
  if (const ConfigNode* p = node.find("pass"))
    for (const ConfigNode* word : p->items()) rules.pass_names.push_back(word->as_string());
  if (const ConfigNode* c = node.find("check_words"))
    for (const ConfigNode* word : c->items()) rules.check_words.push_back(word->as_string());
  if (const ConfigNode* i = node.find("iccs")) {
    rules.iccs = i->as_bool();
    // One digit a rank, from 0, and a letter a file.
    if (rules.iccs && (set.board.ranks > 10 || set.board.files > 26)) i->fail("ICCS writes at most 10 ranks and 26 files");
  }
  if (const ConfigNode* c = node.find("chinese")) read_chinese(*c, set, rules);
  if (const ConfigNode* c = node.find("capture_words"))
    for (const ConfigNode* word : c->items()) rules.capture_words.push_back(word->as_string());
  if (const ConfigNode* w = node.find("side_words"))
    for (const auto& [side, words] : w->entries())
      for (const ConfigNode* word : words.items())
        rules.side_words[std::size_t(side_named(set, side, words))].push_back(word->as_string());
  if (const ConfigNode* s = node.find("points")) {
    if (s->as_string() != "shogi") s->fail("unknown numbering of points " + quote(s->as_string()) + " (shogi)");
    rules.shogi_squares = true;
  }
  if (const ConfigNode* k = node.find("kif"))
    for (const auto& [piece, spelled] : k->entries()) {
      auto& names = rules.kif_names[std::size_t(kind_named(set, piece, spelled))];
      for (const ConfigNode* item : spelled.items()) {
        if (item->as_string().empty()) item->fail("a piece name is not empty");
        names.push_back(item->as_string());
      }
    }
  if (const ConfigNode* c = node.find("csa"))
    for (const auto& [piece, code] : c->entries()) {
      const std::string& text = code.as_string();
      if (text.size() != 2 || !std::isupper(static_cast<unsigned char>(text[0])) ||
          !std::isupper(static_cast<unsigned char>(text[1])))
        code.fail("a CSA piece name is two upper-case letters, got " + quote(text));
      rules.csa_names[std::size_t(kind_named(set, piece, code))] = text;
    }
  if (const ConfigNode* h = node.find("handicaps"))
    for (const auto& [name, fen] : h->entries()) rules.handicaps.emplace_back(name, fen.as_string());
  return rules;
}

}  // namespace palace
