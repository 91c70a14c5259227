#include "loader/config_tree.h"

#include <yaml-cpp/yaml.h>

#include <algorithm>
#include <cctype>
#include <cerrno>
#include <cmath>
#include <cstdlib>
#include <filesystem>
#include <unordered_map>
#include <unordered_set>

#include "core/text.h"
#include "core/text_file.h"
#include "loader/key_table.h"
#include "loader/language.h"

namespace palace {

std::string SourceMark::str() const {
  std::string name = file ? *file : std::string("<input>");
  const bool control = std::any_of(name.begin(), name.end(), [](char c) { return static_cast<unsigned char>(c) < 0x20; });
  if (control) name = palace::quote(name, 200);
  if (line <= 0) return name;
  return name + ":" + std::to_string(line) + ":" + std::to_string(column);
}

RuleError::RuleError(const SourceMark& mark, const std::string& key, const std::string& message)
    : Error(mark.str() + ": " + (key.empty() ? "" : key + ": ") + message) {}

// A key as it appears in a path such as `pieces.horse.moves`: quoted when it holds a space, a
// control character or a megabyte, so that a message naming it stays one readable line.
static std::string path_word(const std::string& key) { return palace::word_or_quote(key); }

// A key that could be a rule's, mistyped: letters, digits, '_' and '-', at most 40 of them.
static bool is_rule_word(const std::string& key) {
  return !key.empty() && key.size() <= 40 &&
         std::all_of(key.begin(), key.end(), [](char c) { return std::isalnum(static_cast<unsigned char>(c)) || c == '_' || c == '-'; });
}

static SourceMark mark_of(const std::shared_ptr<const std::string>& file, const YAML::Mark& mark) {
  return SourceMark{file, mark.line + 1, mark.column + 1};
}

struct ConfigBuilder {
  std::shared_ptr<const std::string> file;
  // An alias (`*name`) is the very node its anchor names, so a node met twice is a repetition. A
  // few hundred bytes of nested aliases can ask for billions of copies; the copies are weighed
  // (text plus a fixed cost per value) and refused past MaxAliasBytes.
  std::unordered_set<std::uint64_t> visited;
  std::size_t repeated_bytes = 0;

  void weigh(const YAML::Node& node, const std::string& path, bool& repeating) {
    if (node.Type() == YAML::NodeType::Null) return;
    const std::uint64_t identity = std::uint64_t(node.Mark().pos) << 3 | std::uint64_t(node.Type());
    repeating = repeating || !visited.insert(identity).second;
    if (!repeating) return;
    repeated_bytes += AliasValueCost + (node.IsScalar() ? node.Scalar().size() : 0);
    if (repeated_bytes > MaxAliasBytes)
      throw RuleError(mark_of(file, node.Mark()), path,
                      "aliases repeat more than " + std::to_string(MaxAliasBytes) +
                          " bytes of values (see Anchors and aliases in rules/README.md)");
  }

  ConfigNode convert(const YAML::Node& node, const std::string& path, bool repeating = false) {
    weigh(node, path, repeating);
    ConfigNode out;
    out.path_ = path;
    out.mark_ = mark_of(file, node.Mark());
    out.flow_ = node.Style() == YAML::EmitterStyle::Flow;
    switch (node.Type()) {
      case YAML::NodeType::Scalar:
        out.type_ = ConfigNode::Type::Scalar;
        out.scalar_ = node.Scalar();
        break;
      case YAML::NodeType::Sequence:
        out.type_ = ConfigNode::Type::Sequence;
        for (const auto& item : node)
          out.sequence_.push_back(convert(item, path + "[" + std::to_string(out.sequence_.size()) + "]", repeating));
        break;
      case YAML::NodeType::Map: {
        out.type_ = ConfigNode::Type::Map;
        std::unordered_set<std::string> keys;
        for (const auto& kv : node) {
          const SourceMark key_mark = mark_of(file, kv.first.Mark());
          if (!kv.first.IsScalar()) throw RuleError(key_mark, "", "a key must be a plain word");
          const std::string& key = kv.first.Scalar();
          const std::string key_path = path.empty() ? path_word(key) : path + "." + path_word(key);
          if (!keys.insert(key).second) throw RuleError(key_mark, key_path, "key appears twice");
          ConfigNode value = convert(kv.second, key_path, repeating);
          value.key_mark_ = key_mark;
          // An empty value (`key:`) has no mark of its own; point at its key instead.
          if (value.type_ == ConfigNode::Type::Null) value.mark_ = value.key_mark_;
          out.map_.emplace_back(key, std::move(value));
        }
        break;
      }
      default:
        out.type_ = ConfigNode::Type::Null;
        break;
    }
    return out;
  }
};

static ConfigNode parse_yaml(const std::string& text, const std::shared_ptr<const std::string>& file) {
  YAML::Node root;
  try {
    root = YAML::Load(text);
  } catch (const YAML::Exception& e) {
    throw RuleError(SourceMark{file, e.mark.line + 1, e.mark.column + 1}, "", "malformed YAML: " + e.msg);
  }
  ConfigNode tree = ConfigBuilder{file, {}, 0}.convert(root, "");
  if (!tree.is_map()) tree.fail("a rule file must be a map of sections");
  return tree;
}

ConfigNode ConfigNode::parse_string(const std::string& text, const std::string& display_name) {
  return parse_yaml(text, std::make_shared<const std::string>(display_name));
}

// One load: the files being read (an import of one of them closes a cycle), and every file read
// so far, merged with its imports. A file imported by many others (a diamond) is read once.
struct ConfigNode::ImportState {
  std::vector<std::string> chain;
  std::unordered_map<std::string, ConfigNode> loaded;
};

ConfigNode ConfigNode::load_file(const std::string& path) {
  ImportState state;
  ConfigNode tree = load_file_chain(std::filesystem::path(path).lexically_normal().string(), state, nullptr);
  tree.set_path("");
  return tree;
}

// `importer` is the import line that named this file, to point at when the file cannot be read or
// closes a cycle; null for the file the user asked for. The answer lives in `state`.
const ConfigNode& ConfigNode::load_file_chain(const std::string& path, ImportState& state, const ConfigNode* importer) {
  namespace fs = std::filesystem;
  std::error_code error;
  std::string canonical = fs::weakly_canonical(fs::path(path), error).string();
  if (error) canonical = path;
  if (std::find(state.chain.begin(), state.chain.end(), canonical) != state.chain.end())
    importer->fail("import cycle: " + palace::quote(path, 200) + " imports itself through " + palace::quote(*importer->mark().file, 200));
  if (const auto done = state.loaded.find(canonical); done != state.loaded.end()) return done->second;

  std::string text;
  try {
    text = read_text_file(path);
  } catch (const FileError& e) {
    if (importer) importer->fail("cannot import " + palace::quote(path, 200) + ": " + e.reason());
    throw RuleError(SourceMark{std::make_shared<const std::string>(path), 0, 0}.str() + ": " + e.reason());
  }
  ConfigNode own = parse_yaml(text, std::make_shared<const std::string>(path));

  state.chain.push_back(canonical);
  ConfigNode merged;
  merged.type_ = Type::Map;
  if (const ConfigNode* imports = own.find("import")) {
    for (const ConfigNode* item : imports->items()) {
      const fs::path target = (fs::path(path).parent_path() / item->as_string()).lexically_normal();
      merged.merge_from(load_file_chain(target.string(), state, item));
    }
  }
  state.chain.pop_back();
  own.map_.erase(std::remove_if(own.map_.begin(), own.map_.end(), [](const auto& e) { return e.first == "import"; }),
                 own.map_.end());
  const SourceMark own_mark = own.mark_;  // a missing section is reported against this file
  merged.merge_from(std::move(own));
  merged.mark_ = own_mark;
  return state.loaded.emplace(canonical, std::move(merged)).first->second;
}

void ConfigNode::merge_from(ConfigNode overlay) {
  if (!is_map() || !overlay.is_map() || map_.empty()) {
    *this = std::move(overlay);
    return;
  }
  std::unordered_map<std::string, std::size_t> index;
  for (std::size_t i = 0; i < map_.size(); ++i) index.emplace(map_[i].first, i);
  std::vector<std::string> removed;
  for (auto& [key, value] : overlay.map_) {
    const auto [it, added] = index.emplace(key, map_.size());
    if (added)
      map_.emplace_back(key, std::move(value));
    else if (value.type_ == Type::Null)
      removed.push_back(key);  // `key: ~` over an inherited entry takes the entry away
    else
      map_[it->second].second.merge_from(std::move(value));
  }
  std::erase_if(map_, [&](const auto& entry) { return std::find(removed.begin(), removed.end(), entry.first) != removed.end(); });
}

void ConfigNode::set_path(const std::string& path) {
  path_ = path;
  for (std::size_t i = 0; i < sequence_.size(); ++i) sequence_[i].set_path(path + "[" + std::to_string(i) + "]");
  for (auto& [key, value] : map_) value.set_path(path.empty() ? path_word(key) : path + "." + path_word(key));
}

void ConfigNode::fail(const std::string& message) const { throw RuleError(mark_, path_, message); }

const std::string& ConfigNode::scalar(const char* expected) const {
  if (!is_scalar()) fail(std::string("expected ") + expected + ", got " + (is_map() ? "a map" : is_sequence() ? "a list" : "nothing"));
  return scalar_;
}

const std::string& ConfigNode::as_string() const { return scalar("a single value"); }

int ConfigNode::as_int(int min, int max) const {
  const std::string& s = scalar("a whole number");
  char* end = nullptr;
  errno = 0;
  const long value = std::strtol(s.c_str(), &end, 10);
  if (s.empty() || *end != '\0' || errno != 0) fail("expected a whole number, got " + palace::quote(s));
  if (value < min || value > max)
    fail("expected a number from " + std::to_string(min) + " to " + std::to_string(max) + ", got " + std::to_string(value));
  return int(value);
}

double ConfigNode::as_number() const {
  const std::string& s = scalar("a number");
  char* end = nullptr;
  const double value = std::strtod(s.c_str(), &end);
  if (s.empty() || *end != '\0' || !std::isfinite(value)) fail("expected a number, got " + palace::quote(s));
  return value;
}

bool ConfigNode::as_bool() const {
  const std::string& s = scalar("true or false");
  if (s == "true" || s == "yes") return true;
  if (s == "false" || s == "no") return false;
  fail("expected true or false, got " + palace::quote(s));
}

const ConfigNode* ConfigNode::find(const std::string& key) const {
  if (!is_map()) return nullptr;
  for (const auto& [k, v] : map_)
    if (k == key) return &v;
  return nullptr;
}

const ConfigNode& ConfigNode::at(const std::string& key) const {
  if (!is_map()) fail("expected a map with key " + palace::quote(key));
  if (const ConfigNode* node = find(key)) return *node;
  fail("missing key " + palace::quote(key));
}

const std::vector<std::pair<std::string, ConfigNode>>& ConfigNode::entries() const {
  if (!is_map()) fail("expected a map");
  return map_;
}

void ConfigNode::expect_keys(const MapSpec& allowed) const {
  if (!is_map()) fail("expected a map");
  for (const auto& [key, value] : map_) {
    const bool known = std::any_of(allowed.keys.begin(), allowed.keys.end(), [&key = key](const KeySpec& a) {
      return !a.checked_elsewhere && key == a.name;
    });
    if (known) continue;
    std::string list;
    for (const KeySpec& a : allowed.keys)
      if (!a.checked_elsewhere) list += std::string(list.empty() ? "" : ", ") + a.name;
    reject_unknown_key(key, value, list);
  }
}

void ConfigNode::expect_keys(std::initializer_list<const char*> allowed) const {
  if (!is_map()) fail("expected a map");
  for (const auto& [key, value] : map_) {
    const bool known = std::any_of(allowed.begin(), allowed.end(), [&key = key](const char* a) { return key == a; });
    if (known) continue;
    std::string list;
    for (const char* a : allowed) list += std::string(list.empty() ? "" : ", ") + a;
    reject_unknown_key(key, value, list);
  }
}

void ConfigNode::reject_unknown_key(const std::string& key, const ConfigNode& value, const std::string& expected) const {
  reject_old_key(value);
  // A key that is no word is not shown: the file is likely no rule file at all (an import of
  // /etc/shadow would have its first line printed), so only its name and position are.
  if (!is_rule_word(key)) {
    std::string parent = value.path_.substr(0, value.path_.size() - std::min(value.path_.size(), path_word(key).size()));
    if (!parent.empty() && parent.back() == '.') parent.pop_back();
    throw RuleError(value.key_mark_, parent, "a key that is not a word, so no rule key (expected one of: " + expected + ")");
  }
  throw RuleError(value.key_mark_, value.path_, "unknown key " + palace::quote(key) + " (expected one of: " + expected + ")");
}

std::vector<const ConfigNode*> ConfigNode::items() const {
  std::vector<const ConfigNode*> out;
  if (is_scalar()) {
    out.push_back(this);
  } else if (is_sequence()) {
    for (const auto& item : sequence_) out.push_back(&item);
  } else {
    fail(is_map() ? "expected a list, got a map" : "expected a list");
  }
  return out;
}

}  // namespace palace
