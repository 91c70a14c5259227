#include "loader/config_tree.h"

#include <yaml-cpp/eventhandler.h>
#include <yaml-cpp/parser.h>
#include <yaml-cpp/yaml.h>

#include <algorithm>
#include <cctype>
#include <cerrno>
#include <cmath>
#include <cstdlib>
#include <filesystem>
#include <sstream>
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
  int depth = 0;  // containers around the node being converted, aliases' values included

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
    const bool container = node.IsSequence() || node.IsMap();
    if (container && depth++ >= MaxNesting) out.fail("values nest more than " + std::to_string(MaxNesting) + " levels deep");
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
    if (container) --depth;
    return out;
  }
};

// A first pass over the parser's events, before any node is built: it counts the values, follows
// the containers open, and stops at the first that no rule file needs, so that a hostile file
// costs what its first MaxValues values cost. An alias of a container still open (`a: &x [*x]`)
// would make a node hold itself: yaml-cpp builds that graph, and converting it would never end.
class Survey : public YAML::EventHandler {
 public:
  explicit Survey(std::shared_ptr<const std::string> file) : file_(std::move(file)) {}

  void OnDocumentStart(const YAML::Mark&) override { ++documents_; }
  void OnDocumentEnd() override {}
  void OnNull(const YAML::Mark& mark, YAML::anchor_t) override { value(mark), done(nullptr); }
  void OnAlias(const YAML::Mark& mark, YAML::anchor_t anchor) override {
    value(mark);
    for (const Open& open : open_)
      if (open.anchor == anchor) throw RuleError(mark_of(file_, mark), path(), "an alias refers to the value that holds it");
    done(nullptr);
  }
  void OnScalar(const YAML::Mark& mark, const std::string&, YAML::anchor_t, const std::string& text) override {
    value(mark), done(&text);
  }
  void OnSequenceStart(const YAML::Mark& mark, const std::string&, YAML::anchor_t anchor, YAML::EmitterStyle::value) override {
    start(mark, anchor, false);
  }
  void OnSequenceEnd() override { open_.pop_back(), done(nullptr); }
  void OnMapStart(const YAML::Mark& mark, const std::string&, YAML::anchor_t anchor, YAML::EmitterStyle::value) override {
    start(mark, anchor, true);
  }
  void OnMapEnd() override { open_.pop_back(), done(nullptr); }

 private:
  struct Open {
    std::string path;
    YAML::anchor_t anchor;
    bool map;
    bool key_next = true;  // a map's next value is a key
    std::string key;
    std::size_t items = 0;
  };

  // The path of the value about to come, as ConfigNode::path() will name it.
  std::string path() const {
    if (open_.empty()) return "";
    const Open& in = open_.back();
    if (!in.map) return in.path + "[" + std::to_string(in.items) + "]";
    if (in.key_next) return in.path;
    return in.path.empty() ? path_word(in.key) : in.path + "." + path_word(in.key);
  }
  void value(const YAML::Mark& mark) {
    // A second document (after `---`) would otherwise be dropped without a word.
    if (documents_ > 1) throw RuleError(mark_of(file_, mark), "", "a rule file is one YAML document");
    if (++values_ > MaxValues)
      throw RuleError(mark_of(file_, mark), path(), "a rule file holds at most " + std::to_string(MaxValues) + " values");
  }
  void start(const YAML::Mark& mark, YAML::anchor_t anchor, bool map) {
    value(mark);
    if (open_.size() >= std::size_t(MaxNesting))
      throw RuleError(mark_of(file_, mark), path(), "values nest more than " + std::to_string(MaxNesting) + " levels deep");
    open_.push_back({path(), anchor, map, true, {}, 0});
  }
  void done(const std::string* scalar) {
    if (open_.empty()) return;
    Open& in = open_.back();
    if (!in.map) {
      ++in.items;
    } else if (in.key_next) {
      in.key = scalar ? *scalar : "";
      in.key_next = false;
    } else {
      in.key_next = true;
    }
  }

  std::shared_ptr<const std::string> file_;
  std::vector<Open> open_;
  int documents_ = 0;
  std::size_t values_ = 0;
};

static ConfigNode parse_yaml(const std::string& text, const std::shared_ptr<const std::string>& file) {
  YAML::Node root;
  try {
    std::istringstream in(text);
    YAML::Parser parser(in);
    Survey survey(file);
    while (parser.HandleNextDocument(survey)) {
    }
    root = YAML::Load(text);
  } catch (const YAML::Exception& e) {
    throw RuleError(SourceMark{file, e.mark.line + 1, e.mark.column + 1}, "", "malformed YAML: " + e.msg);
  }
  ConfigNode tree = ConfigBuilder{file, {}, 0, 0}.convert(root, "");
  if (!tree.is_map()) tree.fail("a rule file must be a map of sections");
  return tree;
}

ConfigNode ConfigNode::parse_string(const std::string& text, const std::string& display_name) {
  return parse_yaml(text, std::make_shared<const std::string>(display_name));
}

// One load, in two passes. The first reads every file once, in the order of its imports, and
// counts the import lines that name each: a file imported by many others (a diamond) is read once.
// The second merges each file over its imports; a merged file is copied only for an importer
// that is not its last, so a long chain moves one tree along rather than copying it per level.
struct ConfigNode::ImportState {
  struct File {
    ConfigNode own;                    // as written, without its `import:`
    std::vector<std::size_t> imports;  // in the order listed
    std::size_t uses = 0;              // import lines naming it, and one for the file asked for
    bool merged = false;
    ConfigNode tree;  // once merged
  };
  std::vector<std::string> chain;  // the files being read: an import of one of them closes a cycle
  std::unordered_map<std::string, std::size_t> index;
  std::vector<File> files;
  std::uint32_t layers = 0;  // files whose imports are all read
};

ConfigNode ConfigNode::load_file(const std::string& path) {
  ImportState state;
  const std::size_t root = read_imports(std::filesystem::path(path).lexically_normal().string(), state, nullptr);
  ConfigNode tree = merge_imports(root, state);
  tree.set_path("");
  return tree;
}

// `importer` is the import line that named this file, to point at when the file cannot be read or
// closes a cycle; null for the file the user asked for. Answers the file's place in `state`.
std::size_t ConfigNode::read_imports(const std::string& path, ImportState& state, const ConfigNode* importer) {
  namespace fs = std::filesystem;
  std::error_code error;
  std::string canonical = fs::weakly_canonical(fs::path(path), error).string();
  if (error) canonical = path;
  if (std::find(state.chain.begin(), state.chain.end(), canonical) != state.chain.end())
    importer->fail("import cycle: " + palace::quote(path, 200) + " imports itself through " + palace::quote(*importer->mark().file, 200));
  if (const auto done = state.index.find(canonical); done != state.index.end()) {
    ++state.files[done->second].uses;
    return done->second;
  }
  if (importer && state.chain.size() >= std::size_t(MaxImportDepth))
    importer->fail("imports nest more than " + std::to_string(MaxImportDepth) + " files deep");
  if (importer && state.files.size() > MaxImportedFiles)  // the file asked for and those it imports
    importer->fail("more than " + std::to_string(MaxImportedFiles) + " files imported in all");

  std::string text;
  try {
    text = read_text_file(path);
  } catch (const FileError& e) {
    if (importer) importer->fail("cannot import " + palace::quote(path, 200) + ": " + e.reason());
    throw RuleError(SourceMark{std::make_shared<const std::string>(path), 0, 0}.str() + ": " + e.reason());
  }
  ConfigNode own = parse_yaml(text, std::make_shared<const std::string>(path));
  const std::size_t at = state.files.size();
  state.index.emplace(canonical, at);
  state.files.emplace_back().uses = 1;

  state.chain.push_back(canonical);
  std::vector<std::size_t> imports;
  if (const ConfigNode* listed = own.find("import")) {
    for (const ConfigNode* item : listed->items()) {
      const fs::path target = (fs::path(path).parent_path() / item->as_string()).lexically_normal();
      const std::size_t file = read_imports(target.string(), state, item);
      if (std::find(imports.begin(), imports.end(), file) != imports.end())
        item->fail(palace::quote(item->as_string(), 200) + " is imported twice");
      imports.push_back(file);
    }
  }
  state.chain.pop_back();
  own.set_layer(state.layers++);
  own.map_.erase(std::remove_if(own.map_.begin(), own.map_.end(), [](const auto& e) { return e.first == "import"; }),
                 own.map_.end());
  state.files[at].own = std::move(own);
  state.files[at].imports = std::move(imports);
  return at;
}

// The file merged over its imports, for one import line (or the load) that names it: the last of
// them takes the tree itself.
ConfigNode ConfigNode::merge_imports(std::size_t at, ImportState& state) {
  if (!state.files[at].merged) {
    ConfigNode merged;
    merged.type_ = Type::Map;
    for (const std::size_t file : state.files[at].imports) merged.merge_from(merge_imports(file, state));
    ImportState::File& self = state.files[at];
    const SourceMark own_mark = self.own.mark_;  // a missing section is reported against this file
    merged.merge_from(std::move(self.own));
    merged.mark_ = own_mark;
    self.tree = std::move(merged);
    self.merged = true;
  }
  ImportState::File& self = state.files[at];
  return --self.uses == 0 ? std::move(self.tree) : self.tree;
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
    else if (value.type_ == Type::Null) {
      removed.push_back(key);  // `key: ~` over an inherited entry takes the entry away
      removed_.emplace_back(key, value.key_mark_);
    } else
      map_[it->second].second.merge_from(std::move(value));
  }
  std::erase_if(map_, [&](const auto& entry) { return std::find(removed.begin(), removed.end(), entry.first) != removed.end(); });
}

void ConfigNode::set_layer(std::uint32_t layer) {
  layer_ = layer;
  for (ConfigNode& item : sequence_) item.set_layer(layer);
  for (auto& [key, value] : map_) value.set_layer(layer);
}

bool ConfigNode::written_after(const ConfigNode& other) const {
  if (layer_ != other.layer_) return layer_ > other.layer_;
  return std::pair(mark_.line, mark_.column) > std::pair(other.mark_.line, other.mark_.column);
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
