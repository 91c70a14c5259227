#include "loader/config_tree.h"

#include <yaml-cpp/yaml.h>

#include <algorithm>
#include <cerrno>
#include <cmath>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>

namespace palace {

std::string SourceMark::str() const {
  std::string name = file ? *file : std::string("<input>");
  if (line <= 0) return name;
  return name + ":" + std::to_string(line) + ":" + std::to_string(column);
}

RuleError::RuleError(const SourceMark& mark, const std::string& key, const std::string& message)
    : Error(mark.str() + ": " + (key.empty() ? "" : key + ": ") + message) {}

struct ConfigBuilder {
  std::shared_ptr<const std::string> file;

  ConfigNode convert(const YAML::Node& node, const std::string& path) const {
    ConfigNode out;
    out.path_ = path;
    out.mark_ = SourceMark{file, node.Mark().line + 1, node.Mark().column + 1};
    switch (node.Type()) {
      case YAML::NodeType::Scalar:
        out.type_ = ConfigNode::Type::Scalar;
        out.scalar_ = node.Scalar();
        break;
      case YAML::NodeType::Sequence:
        out.type_ = ConfigNode::Type::Sequence;
        for (const auto& item : node)
          out.sequence_.push_back(convert(item, path + "[" + std::to_string(out.sequence_.size()) + "]"));
        break;
      case YAML::NodeType::Map:
        out.type_ = ConfigNode::Type::Map;
        for (const auto& kv : node) {
          if (!kv.first.IsScalar()) {
            throw RuleError(SourceMark{file, kv.first.Mark().line + 1, kv.first.Mark().column + 1}, "",
                            "a key must be a plain word");
          }
          const std::string key = kv.first.Scalar();
          const std::string key_path = path.empty() ? key : path + "." + key;
          const bool duplicate = std::any_of(out.map_.begin(), out.map_.end(),
                                             [&](const auto& e) { return e.first == key; });
          if (duplicate) {
            throw RuleError(SourceMark{file, kv.first.Mark().line + 1, kv.first.Mark().column + 1}, key_path,
                            "key appears twice");
          }
          ConfigNode value = convert(kv.second, key_path);
          value.key_mark_ = SourceMark{file, kv.first.Mark().line + 1, kv.first.Mark().column + 1};
          // An empty value (`key:`) has no mark of its own; point at its key instead.
          if (value.type_ == ConfigNode::Type::Null) value.mark_ = value.key_mark_;
          out.map_.emplace_back(key, std::move(value));
        }
        break;
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
  ConfigNode tree = ConfigBuilder{file}.convert(root, "");
  if (!tree.is_map()) tree.fail("a rule file must be a map of sections");
  return tree;
}

ConfigNode ConfigNode::parse_string(const std::string& text, const std::string& display_name) {
  ConfigNode tree = parse_yaml(text, std::make_shared<const std::string>(display_name));
  tree.set_path("");
  return tree;
}

ConfigNode ConfigNode::load_file(const std::string& path) {
  std::vector<std::string> chain;
  ConfigNode tree = load_file_chain(std::filesystem::path(path).lexically_normal().string(), chain, nullptr);
  tree.set_path("");
  return tree;
}

// `importer` is the import line that named this file, to point at when the file is missing or
// closes a cycle; null for the file the user asked for.
ConfigNode ConfigNode::load_file_chain(const std::string& path, std::vector<std::string>& chain, const ConfigNode* importer) {
  namespace fs = std::filesystem;
  auto refuse = [&](const std::string& message) {
    if (importer) importer->fail(message);
    throw RuleError(path + ": " + message);
  };
  std::error_code error;
  const std::string canonical = fs::weakly_canonical(fs::path(path), error).string();
  if (error || !fs::exists(path, error)) refuse(importer ? "no such file '" + path + "'" : "cannot open file");
  if (fs::is_directory(path, error)) refuse("cannot open file: it is a directory");
  if (std::find(chain.begin(), chain.end(), canonical) != chain.end())
    refuse("import cycle: " + path + " imports itself through " + *importer->mark().file);
  std::ifstream in(path, std::ios::binary);
  if (!in) refuse("cannot open file");
  std::stringstream buffer;
  buffer << in.rdbuf();
  ConfigNode own = parse_yaml(buffer.str(), std::make_shared<const std::string>(path));
  own.set_path("");

  chain.push_back(canonical);
  ConfigNode merged;
  merged.type_ = Type::Map;
  merged.mark_ = own.mark_;
  if (const ConfigNode* imports = own.find("import")) {
    for (const ConfigNode* item : imports->items()) {
      const fs::path target = (fs::path(path).parent_path() / item->as_string()).lexically_normal();
      merged.merge_from(load_file_chain(target.string(), chain, item));
    }
  }
  chain.pop_back();
  own.map_.erase(std::remove_if(own.map_.begin(), own.map_.end(), [](const auto& e) { return e.first == "import"; }),
                 own.map_.end());
  merged.merge_from(own);
  return merged;
}

void ConfigNode::merge_from(const ConfigNode& overlay) {
  if (!is_map() || !overlay.is_map()) {
    *this = overlay;
    return;
  }
  for (const auto& [key, value] : overlay.map_) {
    auto it = std::find_if(map_.begin(), map_.end(), [&key = key](const auto& e) { return e.first == key; });
    if (it == map_.end())
      map_.emplace_back(key, value);
    else
      it->second.merge_from(value);
  }
}

void ConfigNode::set_path(const std::string& path) {
  path_ = path;
  for (std::size_t i = 0; i < sequence_.size(); ++i) sequence_[i].set_path(path + "[" + std::to_string(i) + "]");
  for (auto& [key, value] : map_) value.set_path(path.empty() ? key : path + "." + key);
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
  if (s.empty() || *end != '\0' || errno != 0) fail("expected a whole number, got '" + s + "'");
  if (value < min || value > max)
    fail("expected a number from " + std::to_string(min) + " to " + std::to_string(max) + ", got " + s);
  return int(value);
}

double ConfigNode::as_number() const {
  const std::string& s = scalar("a number");
  char* end = nullptr;
  const double value = std::strtod(s.c_str(), &end);
  if (s.empty() || *end != '\0' || !std::isfinite(value)) fail("expected a number, got '" + s + "'");
  return value;
}

bool ConfigNode::as_bool() const {
  const std::string& s = scalar("true or false");
  if (s == "true" || s == "yes") return true;
  if (s == "false" || s == "no") return false;
  fail("expected true or false, got '" + s + "'");
}

const ConfigNode* ConfigNode::find(const std::string& key) const {
  if (!is_map()) return nullptr;
  for (const auto& [k, v] : map_)
    if (k == key) return &v;
  return nullptr;
}

const ConfigNode& ConfigNode::at(const std::string& key) const {
  if (!is_map()) fail("expected a map with key '" + key + "'");
  if (const ConfigNode* node = find(key)) return *node;
  fail("missing key '" + key + "'");
}

const std::vector<std::pair<std::string, ConfigNode>>& ConfigNode::entries() const {
  if (!is_map()) fail("expected a map");
  return map_;
}

void ConfigNode::expect_keys(std::initializer_list<const char*> allowed) const {
  if (!is_map()) fail("expected a map");
  for (const auto& [key, value] : map_) {
    const bool known = std::any_of(allowed.begin(), allowed.end(), [&key = key](const char* a) { return key == a; });
    if (known) continue;
    std::string list;
    for (const char* a : allowed) list += std::string(list.empty() ? "" : ", ") + a;
    throw RuleError(value.key_mark_, value.path_, "unknown key '" + key + "' (expected one of: " + list + ")");
  }
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
