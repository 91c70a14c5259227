// A YAML document as a tree whose every node remembers the file, line and column it came from,
// so that imported and overridden rule files still point users at the line they wrote.
#pragma once

#include <cstddef>
#include <cstdint>
#include <initializer_list>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "core/error.h"

namespace palace {

// Anchors and aliases (`&name`, `*name`) may repeat at most this many bytes of values in one file,
// each repeated value weighing its text plus AliasValueCost: room for any real reuse, none for an
// alias bomb ("billion laughs") that asks for gigabytes from a few lines.
constexpr std::size_t MaxAliasBytes = std::size_t(1) << 20;
constexpr std::size_t AliasValueCost = 8;
// A rule file's values nest at most this deep (the shipped files reach 8): deeper is no rule, and
// each level costs the loader a frame of stack.
constexpr int MaxNesting = 64;
// A rule file holds at most this many values, keys and aliases counted (the largest shipped file
// holds 1,400): a megabyte of tiny values would cost the loader hundreds of megabytes.
constexpr std::size_t MaxValues = 50000;
// One load reads at most this many files, in chains of imports at most MaxImportDepth long.
constexpr std::size_t MaxImportedFiles = 256;
constexpr int MaxImportDepth = 64;

struct SourceMark {
  std::shared_ptr<const std::string> file;
  int line = 0;    // 1-based
  int column = 0;  // 1-based
  std::string str() const;
};

// The one error type of loading: a single line "file:line:col: key: message".
class RuleError : public Error {
 public:
  RuleError(const SourceMark& mark, const std::string& key, const std::string& message);
  explicit RuleError(const std::string& line) : Error(line) {}
};

struct MapSpec;  // loader/key_table.h

class ConfigNode {
 public:
  enum class Type { Null, Scalar, Sequence, Map };

  // Reads a file and resolves its `import:` list (paths relative to the file), merging maps key by
  // key: imports in order, then the file itself on top. Sequences and scalars are replaced whole,
  // and an empty value (`key: ~`) over an inherited key removes that key.
  // Each file is read once per load however often it is imported, and read with read_text_file's
  // limits (core/text_file.h); one import list names a file once, and imports stop at
  // MaxImportedFiles files and MaxImportDepth levels.
  static ConfigNode load_file(const std::string& path);
  static ConfigNode parse_string(const std::string& text, const std::string& display_name);

  Type type() const { return type_; }
  bool is_map() const { return type_ == Type::Map; }
  bool is_sequence() const { return type_ == Type::Sequence; }
  bool is_scalar() const { return type_ == Type::Scalar; }
  const SourceMark& mark() const { return mark_; }
  const std::string& path() const { return path_; }  // "pieces.horse.moves[0]", for messages
  const SourceMark& key_mark() const { return key_mark_; }  // where the key naming it was written
  bool flow() const { return flow_; }  // written inline, `{a: 1}` or `[a, b]`
  // Whether this value was written after `other`: in a file merged over other's (its importer), or
  // further down one file. Of two values that only together break a rule, the later is to blame.
  bool written_after(const ConfigNode& other) const;

  // Typed reads; each throws RuleError naming this node when the value has the wrong shape.
  const std::string& as_string() const;
  int as_int(int min, int max) const;
  double as_number() const;
  bool as_bool() const;

  // Map access.
  const ConfigNode* find(const std::string& key) const;
  const ConfigNode& at(const std::string& key) const;  // throws "missing key"
  const std::vector<std::pair<std::string, ConfigNode>>& entries() const;
  // The inherited entries an importing file took away (`key: ~`), with where it did.
  const std::vector<std::pair<std::string, SourceMark>>& removed() const { return removed_; }
  // Throws on the first key that is not in `allowed`'s table (loader/key_table.h).
  void expect_keys(const MapSpec& allowed) const;
  // The same for maps outside the rule language (rule test scripts), which have no reference.
  void expect_keys(std::initializer_list<const char*> allowed) const;

  // Sequence access; a scalar reads as a sequence of one, so `step: forward` and
  // `step: [forward, left]` both work.
  std::vector<const ConfigNode*> items() const;

  [[noreturn]] void fail(const std::string& message) const;

 private:
  struct ImportState;
  static std::size_t read_imports(const std::string& path, ImportState& state, const ConfigNode* importer);
  static ConfigNode merge_imports(std::size_t file, ImportState& state);
  const std::string& scalar(const char* expected) const;
  [[noreturn]] void reject_unknown_key(const std::string& key, const ConfigNode& value, const std::string& expected) const;
  void merge_from(ConfigNode overlay);
  void set_path(const std::string& path);
  void set_layer(std::uint32_t layer);

  Type type_ = Type::Null;
  std::string scalar_;
  std::vector<ConfigNode> sequence_;
  std::vector<std::pair<std::string, ConfigNode>> map_;
  std::vector<std::pair<std::string, SourceMark>> removed_;  // keys an override took away, and where
  SourceMark mark_;
  SourceMark key_mark_;  // where the key naming this node was written, for "unknown key"
  std::string path_;
  bool flow_ = false;
  std::uint32_t layer_ = 0;  // its file's place in the merge: every import's layer is below its importer's

  friend struct ConfigBuilder;
};

// Fails naming the language 1 word where `node` holds a word of the older language (loader/language.h).
void reject_old_word(const ConfigNode& node);

// The value that `node`'s word stands for among `choices`; any other word is an error listing them.
template <typename Enum>
Enum word(const ConfigNode& node, std::initializer_list<std::pair<const char*, Enum>> choices) {
  std::string list;
  for (const auto& [text, value] : choices) {
    if (node.as_string() == text) return value;
    list += std::string(list.empty() ? "" : ", ") + text;
  }
  reject_old_word(node);
  node.fail("expected one of: " + list);
}

}  // namespace palace
