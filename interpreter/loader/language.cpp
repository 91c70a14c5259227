#include "loader/language.h"

#include <algorithm>
#include <sstream>
#include <vector>

#include "core/text.h"

namespace palace {

namespace {

// A key of the older language and where language 1 has it. `*` stands for any one name (a side, a
// piece); the new path repeats the names the old one matched, in order.
struct KeyChange {
  const char* old_path;
  const char* new_path;
};

// Every way a game ends moved to `ends:`, named as the end is named to players ("checks given",
// "zone reached", "royal captured", "both sides passed"); engine tuning moved to `engine:`; one
// word each for royal, point and kind.
constexpr KeyChange KeyChanges[] = {
    {"rules.check_limit", "ends.checks_given"},
    {"rules.stalemate", "ends.stalemate"},
    {"rules.bare_royal", "ends.bare_royal"},
    {"rules.no_pieces", "ends.no_pieces"},
    {"rules.repetition", "ends.repetition"},
    {"rules.move_limit", "ends.move_limit"},
    {"rules.insufficient_material", "ends.insufficient_material"},
    {"rules.dead_material", "ends.dead_material"},
    {"rules.endgame_count", "ends.endgame_count"},
    {"rules.counting", "ends.counting"},
    {"rules.double_pass_ends", "ends.both_passed"},
    {"rules.standoff_plies", "ends.standoff"},
    {"reaching_wins", "ends.zone_reached"},
    {"capturing_royal_wins", "ends.royal_captured"},
    {"eval", "engine.eval"},
    {"search", "engine.search"},
    {"sides.*.has_royal", "sides.*.royal"},
    {"setup.*.formation.squares", "setup.*.formation.points"},
    {"notation.squares", "notation.points"},
    {"compound_moves.*.piece", "compound_moves.*.kind"},
    {"castling.piece", "castling.kind"},
    {"ends.zone_reached.piece", "ends.zone_reached.kind"},
    {"reaching_wins.piece", "reaching_wins.kind"},  // renamed in place; `reaching_wins` then moves
};

// A word of the older language, under the key `context` ends with (list indices left out), and its
// language 1 spelling: the language's own words are snake_case, and a point is never a square.
struct WordChange {
  const char* context;
  const char* old_word;
  const char* new_word;
};

constexpr WordChange WordChanges[] = {
    {"step", "forward-left", "forward_left"},     {"step", "forward-right", "forward_right"},
    {"step", "backward-left", "backward_left"},   {"step", "backward-right", "backward_right"},
    {"slide", "forward-left", "forward_left"},    {"slide", "forward-right", "forward_right"},
    {"slide", "backward-left", "backward_left"},  {"slide", "backward-right", "backward_right"},
    {"hop", "forward-left", "forward_left"},      {"hop", "forward-right", "forward_right"},
    {"hop", "backward-left", "backward_left"},    {"hop", "backward-right", "backward_right"},
    {"symmetry", "left-right", "left_right"},     {"promotion.optional", "unless-dead", "unless_dead"},
    {"uci.pass", "null-move", "null_move"},       {"uci.pass", "royal-square", "royal_point"},
};

std::vector<std::string> split(const std::string& text, char by) {
  std::vector<std::string> parts;
  std::string part;
  std::istringstream in(text);
  while (std::getline(in, part, by)) parts.push_back(part);
  if (!text.empty() && text.back() == by) parts.emplace_back();
  return parts;
}

std::string join(const std::vector<std::string>& parts, std::size_t from, std::size_t to) {
  std::string out;
  for (std::size_t i = from; i < to; ++i) out += (i > from ? "." : "") + parts[i];
  return out;
}

// `path` with its list indices left out: "pieces.horse.moves[0].step[1]" is "pieces.horse.moves.step".
std::string without_indices(const std::string& path) {
  std::string out;
  bool in_index = false;
  for (char c : path) {
    if (c == '[') in_index = true;
    if (!in_index) out += c;
    if (c == ']') in_index = false;
  }
  return out;
}

// The new path of the key at `path`, or empty where the key did not change.
std::string new_path_of(const std::string& path) {
  const std::vector<std::string> have = split(path, '.');
  for (const KeyChange& change : KeyChanges) {
    const std::vector<std::string> old_parts = split(change.old_path, '.');
    if (old_parts.size() != have.size()) continue;
    std::vector<std::string> names;
    bool match = true;
    for (std::size_t i = 0; i < have.size() && match; ++i) {
      if (old_parts[i] == "*") names.push_back(have[i]);
      else match = old_parts[i] == have[i];
    }
    if (!match) continue;
    std::vector<std::string> out = split(change.new_path, '.');
    std::size_t next = 0;
    for (std::string& part : out)
      if (part == "*") part = names[next++];
    return join(out, 0, out.size());
  }
  return "";
}

const WordChange* word_change(const ConfigNode& node) {
  if (!node.is_scalar()) return nullptr;
  const std::string path = without_indices(node.path());
  for (const WordChange& change : WordChanges) {
    const std::string context = change.context;
    const bool under = path == context || (path.size() > context.size() &&
                                           path.compare(path.size() - context.size(), context.size(), context) == 0 &&
                                           path[path.size() - context.size() - 1] == '.');
    if (under && node.as_string() == change.old_word) return &change;
  }
  return nullptr;
}

const char* MigrateHint = " (palace migrate FILE rewrites a file to language 1)";

}  // namespace

void reject_old_key(const ConfigNode& node) {
  const std::string now = new_path_of(node.path());
  if (!now.empty())
    throw RuleError(node.key_mark(), node.path(), "language " + std::to_string(LanguageVersion) + " writes this as `" + now + "`" + MigrateHint);
}

void reject_old_word(const ConfigNode& node) {
  if (const WordChange* change = word_change(node))
    node.fail("language " + std::to_string(LanguageVersion) + " writes " + palace::quote(change->old_word) + " as `" +
              change->new_word + "`" + MigrateHint);
}

namespace {

// The rewriting of one file's lines. Edits within a line come first (renamed keys, respelled
// words), then whole entries move to their new sections.
class Migration {
 public:
  Migration(const std::string& text, const std::string& name)
      : root_(ConfigNode::parse_string(text, name)), lines_(split(text, '\n')) {
    if (!lines_.empty() && lines_.back().empty()) lines_.pop_back();
  }

  std::string run() {
    collect(root_, nullptr);
    apply_edits();
    move_entries();
    add_language();
    std::string out;
    for (const std::string& line : lines_) out += line + "\n";
    return out;
  }

 private:
  struct Edit {
    int line, column;  // 1-based, where `from` starts
    std::string from, to;
  };
  // An entry leaving its map for a new section (`ends`, `engine`).
  struct Move {
    const ConfigNode* node;
    const ConfigNode* parent;  // the map it leaves: the root or a top-level section
    std::string section, key;  // where it goes and under which key
  };

  void collect(const ConfigNode& node, const ConfigNode* parent) {
    if (node.is_map()) {
      for (const auto& [key, value] : node.entries()) {
        const std::string now = new_path_of(value.path());
        if (!now.empty()) {
          const std::vector<std::string> old_parts = split(value.path(), '.'), new_parts = split(now, '.');
          if (new_parts.size() == old_parts.size() && join(new_parts, 0, new_parts.size() - 1) == join(old_parts, 0, old_parts.size() - 1))
            edits_.push_back({value.key_mark().line, value.key_mark().column, key, new_parts.back()});
          else
            moves_.push_back({&value, &node, new_parts.front(), new_parts.back()});
        }
        collect(value, &node);
      }
    } else if (node.is_sequence()) {
      for (const ConfigNode* item : node.items()) collect(*item, parent);
    } else if (const WordChange* change = word_change(node)) {
      edits_.push_back({node.mark().line, node.mark().column, change->old_word, change->new_word});
    }
  }

  void apply_edits() {
    std::sort(edits_.begin(), edits_.end(), [](const Edit& a, const Edit& b) {
      return a.line != b.line ? a.line > b.line : a.column > b.column;
    });
    for (const Edit& e : edits_) {
      std::string& line = lines_[std::size_t(e.line - 1)];
      const std::size_t at = line.find(e.from, std::size_t(e.column - 1));
      if (at != std::string::npos) line.replace(at, e.from.size(), e.to);
    }
  }

  static int indent_of(const std::string& line) {
    const std::size_t first = line.find_first_not_of(' ');
    return first == std::string::npos ? -1 : int(first);
  }
  static bool blank_or_comment(const std::string& line) {
    const std::size_t first = line.find_first_not_of(' ');
    return first == std::string::npos || line[first] == '#';
  }

  // The lines [begin, end) of an entry of a map written as a block: from the comments that lead
  // into its key to the next key of the same map, less the blank lines and comments that lead
  // into that one.
  std::pair<int, int> block_range(const ConfigNode& value, const ConfigNode& parent) const {
    const int key_line = value.key_mark().line - 1;
    int end = parent_end(parent);
    int previous = &parent == &root_ ? -1 : parent.key_mark().line - 1;
    for (const auto& [key, other] : parent.entries()) {
      const int line = other.key_mark().line - 1;
      if (line > key_line) end = std::min(end, line);
      if (line < key_line) previous = std::max(previous, line);
    }
    const int column = value.key_mark().column - 1;
    const auto leads_in = [&](int line) {
      const std::string& text = lines_[std::size_t(line)];
      return blank_or_comment(text) && indent_of(text) >= 0 && indent_of(text) <= column;
    };
    while (end > key_line + 1 && (blank_or_comment(lines_[std::size_t(end - 1)]) && indent_of(lines_[std::size_t(end - 1)]) <= column)) --end;
    int begin = key_line;
    while (previous >= 0 && begin - 1 > previous && leads_in(begin - 1)) --begin;
    return {begin, end};
  }

  // Where the entries of `map` end: the next top-level key after them, or the end of the file.
  int parent_end(const ConfigNode& map) const {
    if (&map == &root_) return int(lines_.size());
    int end = int(lines_.size());
    for (const auto& [key, top] : root_.entries())
      if (top.key_mark().line > map.key_mark().line) end = std::min(end, top.key_mark().line - 1);
    return end;
  }

  // A value written inline, for an entry whose map is itself inline.
  static std::string inline_text(const ConfigNode& node) {
    if (node.is_scalar()) {
      const std::string& s = node.as_string();
      const bool plain = !s.empty() && s.find_first_of(":#{}[],&*!|>'\"%@`") == std::string::npos && s.front() != ' ' && s.back() != ' ';
      return plain ? s : palace::quote(s);
    }
    std::string out;
    if (node.is_sequence()) {
      for (const ConfigNode* item : node.items()) out += (out.empty() ? "" : ", ") + inline_text(*item);
      return "[" + out + "]";
    }
    if (node.is_map()) {
      for (const auto& [key, value] : node.entries()) out += (out.empty() ? "" : ", ") + key + ": " + inline_text(value);
      return "{" + out + "}";
    }
    return "~";
  }

  void move_entries() {
    if (moves_.empty()) return;
    struct Removal {
      int begin, end;
      std::vector<std::string> replacement;
    };
    std::vector<Removal> removals;
    std::vector<std::pair<std::string, std::vector<std::string>>> sections;  // in order of first appearance
    std::vector<std::pair<std::string, int>> anchors;                         // where each section goes (line index before removals)
    auto section_lines = [&](const std::string& name, int anchor) -> std::vector<std::string>& {
      for (auto& [section, lines] : sections)
        if (section == name) return lines;
      sections.push_back({name, {}});
      anchors.push_back({name, anchor});
      return sections.back().second;
    };
    // Inline maps that lose entries are written anew, whole; block maps lose the entries' lines.
    std::vector<const ConfigNode*> inline_parents;
    for (const Move& m : moves_) {
      const ConfigNode& top = m.parent == &root_ ? *m.node : *m.parent;
      const int anchor = block_range(top, root_).second;
      std::vector<std::string>& out = section_lines(m.section, anchor);
      if (m.parent != &root_ && m.parent->flow()) {
        out.push_back("  " + m.key + ": " + inline_text(*m.node));
        if (std::find(inline_parents.begin(), inline_parents.end(), m.parent) == inline_parents.end()) inline_parents.push_back(m.parent);
        continue;
      }
      const auto [begin, end] = block_range(*m.node, *m.parent);
      const int column = m.node->key_mark().column - 1;
      const std::string old_key = split(m.node->path(), '.').back();
      for (int i = begin; i < end; ++i) {
        const std::string& line = lines_[std::size_t(i)];
        const int cut = std::min(column, std::max(0, indent_of(line)));
        std::string moved = line.find_first_not_of(' ') == std::string::npos ? "" : line.substr(std::size_t(cut));
        if (i == m.node->key_mark().line - 1 && moved.rfind(old_key, 0) == 0) moved.replace(0, old_key.size(), m.key);
        out.push_back(moved.empty() ? "" : "  " + moved);
      }
      removals.push_back({begin, end, {}});
    }
    for (const ConfigNode* parent : inline_parents) {
      std::string kept;
      for (const auto& [key, value] : parent->entries()) {
        const ConfigNode* node = &value;  // clang 14 cannot capture a structured binding
        const bool moved = std::any_of(moves_.begin(), moves_.end(), [node](const Move& m) { return m.node == node; });
        if (!moved) kept += (kept.empty() ? "" : ", ") + key + ": " + inline_text(value);
      }
      const auto [begin, end] = block_range(*parent, root_);
      const std::string key = split(parent->path(), '.').back();
      removals.push_back({begin, end, kept.empty() ? std::vector<std::string>{} : std::vector<std::string>{key + ": {" + kept + "}"}});
    }
    // A block map whose every entry moved goes too.
    for (const auto& [key, top] : root_.entries()) {
      if (!top.is_map() || top.flow() || top.entries().empty()) continue;
      const bool all_moved = std::all_of(top.entries().begin(), top.entries().end(), [&](const auto& entry) {
        return std::any_of(moves_.begin(), moves_.end(), [&](const Move& m) { return m.node == &entry.second; });
      });
      if (all_moved) removals.push_back({top.key_mark().line - 1, top.key_mark().line, {}});
    }
    std::sort(removals.begin(), removals.end(), [](const Removal& a, const Removal& b) { return a.begin > b.begin; });
    // Sections go in after the removals, at their anchors shifted up by the lines removed above them.
    std::vector<std::pair<int, std::vector<std::string>>> inserts;
    for (std::size_t s = 0; s < sections.size(); ++s) {
      int at = anchors[s].second;
      for (const Removal& r : removals)
        if (r.begin < at) at -= std::min(at, r.end) - r.begin - int(r.replacement.size());
      std::vector<std::string> block = {sections[s].first + ":"};
      block.insert(block.end(), sections[s].second.begin(), sections[s].second.end());
      inserts.push_back({at, block});
    }
    for (const Removal& r : removals) {
      lines_.erase(lines_.begin() + r.begin, lines_.begin() + r.end);
      lines_.insert(lines_.begin() + r.begin, r.replacement.begin(), r.replacement.end());
    }
    // Later sections first, so that one anchored on the same line as an earlier one follows it.
    for (auto it = inserts.rbegin(); it != inserts.rend(); ++it) lines_.insert(lines_.begin() + it->first, it->second.begin(), it->second.end());
  }

  // `language: 1` before the first key, after the comments that open the file.
  void add_language() {
    if (root_.find("language")) return;
    std::size_t at = 0;
    while (at < lines_.size() && (blank_or_comment(lines_[at]) || lines_[at].rfind("---", 0) == 0)) ++at;
    lines_.insert(lines_.begin() + long(at), "language: " + std::to_string(LanguageVersion));
  }

  const ConfigNode root_;
  std::vector<std::string> lines_;
  std::vector<Edit> edits_;
  std::vector<Move> moves_;
};

}  // namespace

std::string migrate_rule_text(const std::string& text, const std::string& display_name) {
  return Migration(text, display_name).run();
}

}  // namespace palace
