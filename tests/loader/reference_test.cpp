// The generated reference: rules/REFERENCE.md and rules/schema.json are what the key tables print
// now, and every shipped variant, its imports merged, is valid under that schema.
#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <regex>
#include <sstream>
#include <string>
#include <vector>

#include "loader/config_tree.h"
#include "loader/key_table.h"
#include "server/variant_schema.h"
#include "test_support.h"

namespace palace {
namespace {

using nlohmann::json;

std::string read_source(const std::string& relative) {
  std::ifstream in(test::source_path(relative), std::ios::binary);
  std::ostringstream text;
  text << in.rdbuf();
  return text.str();
}

// A YAML scalar as a YAML language server types it: booleans, integers, numbers, else a string.
json typed(const std::string& scalar) {
  static const std::regex integer("-?[0-9]+");
  static const std::regex number("-?[0-9]*\\.[0-9]+");
  if (scalar == "true") return true;
  if (scalar == "false") return false;
  if (std::regex_match(scalar, integer)) return std::stoll(scalar);
  if (std::regex_match(scalar, number)) return std::stod(scalar);
  return scalar;
}

json to_json(const ConfigNode& node) {
  switch (node.type()) {
    case ConfigNode::Type::Map: {
      json out = json::object();
      for (const auto& [key, value] : node.entries()) out[key] = to_json(value);
      return out;
    }
    case ConfigNode::Type::Sequence: {
      json out = json::array();
      for (const ConfigNode* item : node.items()) out.push_back(to_json(*item));
      return out;
    }
    case ConfigNode::Type::Scalar:
      return typed(node.as_string());
    case ConfigNode::Type::Null:
      break;
  }
  return nullptr;
}

bool has_type(const json& value, const json& types) {
  if (types.is_array()) return std::any_of(types.begin(), types.end(), [&](const json& t) { return has_type(value, t); });
  const std::string type = types.get<std::string>();
  if (type == "null") return value.is_null();
  if (type == "object") return value.is_object();
  if (type == "array") return value.is_array();
  if (type == "string") return value.is_string();
  if (type == "integer") return value.is_number_integer();
  if (type == "number") return value.is_number();
  if (type == "boolean") return value.is_boolean();
  return false;
}

// The subset of JSON Schema that `palace schema` emits: type, enum, properties,
// additionalProperties, items, anyOf. Appends one line per violation, naming where.
void validate(const json& schema, const json& value, const std::string& where, std::vector<std::string>& errors) {
  if (schema.contains("anyOf")) {
    for (const json& branch : schema["anyOf"]) {
      std::vector<std::string> branch_errors;
      validate(branch, value, where, branch_errors);
      if (branch_errors.empty()) return;
    }
    errors.push_back(where + ": matches none of " + schema["anyOf"].dump());
    return;
  }
  if (schema.contains("type") && !has_type(value, schema["type"])) {
    errors.push_back(where + ": expected " + schema["type"].dump() + ", got " + value.dump());
    return;
  }
  if (schema.contains("enum") && std::find(schema["enum"].begin(), schema["enum"].end(), value) == schema["enum"].end())
    errors.push_back(where + ": " + value.dump() + " is not one of " + schema["enum"].dump());
  if (value.is_object()) {
    for (const auto& [key, item] : value.items()) {
      const std::string path = where.empty() ? key : where + "." + key;
      if (schema.contains("properties") && schema["properties"].contains(key))
        validate(schema["properties"][key], item, path, errors);
      else if (schema.contains("additionalProperties") && schema["additionalProperties"].is_object())
        validate(schema["additionalProperties"], item, path, errors);
      else if (schema.value("additionalProperties", true) == false)
        errors.push_back(path + ": a key the schema does not name");
    }
  }
  if (value.is_array() && schema.contains("items"))
    for (std::size_t i = 0; i < value.size(); ++i)
      validate(schema["items"], value[i], where + "[" + std::to_string(i) + "]", errors);
}

std::vector<std::string> errors_in(const ConfigNode& tree) {
  std::vector<std::string> errors;
  validate(server::variant_schema(), to_json(tree), "", errors);
  return errors;
}

TEST(GeneratedReference, ReferenceMarkdownIsCurrent) {
  EXPECT_TRUE(read_source("rules/REFERENCE.md") == key_reference_markdown())
      << "rules/REFERENCE.md is stale; regenerate it: ./build/palace schema --markdown > rules/REFERENCE.md";
}

TEST(GeneratedReference, SchemaIsCurrent) {
  const json committed = json::parse(read_source("rules/schema.json"), nullptr, false);
  EXPECT_TRUE(committed == server::variant_schema())
      << "rules/schema.json is stale; regenerate it: ./build/palace schema > rules/schema.json";
}

// The variant files shipped in `folder` (relative to the source), each as its path.
std::vector<std::filesystem::path> rule_files_in(const std::string& folder) {
  std::vector<std::filesystem::path> out;
  for (const auto& entry : std::filesystem::directory_iterator(test::source_path(folder)))
    if (entry.path().extension() == ".yaml") out.push_back(entry.path());
  return out;
}

// The shipped variants and rules/README.md's walk-through examples, with the schema line each starts with.
std::vector<std::pair<std::filesystem::path, std::string>> shipped_variants() {
  std::vector<std::pair<std::filesystem::path, std::string>> out;
  for (const auto& path : rule_files_in("variants")) out.push_back({path, "# yaml-language-server: $schema=../rules/schema.json"});
  for (const auto& path : rule_files_in("rules/examples")) out.push_back({path, "# yaml-language-server: $schema=../schema.json"});
  return out;
}

TEST(GeneratedReference, EveryShippedVariantIsValidUnderTheSchema) {
  const auto files = shipped_variants();
  for (const auto& [path, schema_line] : files) {
    const std::vector<std::string> errors = errors_in(ConfigNode::load_file(path.string()));
    EXPECT_TRUE(errors.empty()) << path.filename() << ": " << (errors.empty() ? "" : errors.front());
  }
  EXPECT_GE(files.size(), 28u);
}

TEST(GeneratedReference, EveryShippedVariantNamesTheSchema) {
  for (const auto& [path, schema_line] : shipped_variants()) {
    std::ifstream in(path);
    std::string first;
    std::getline(in, first);
    EXPECT_EQ(first, schema_line) << path.filename();
  }
}

TEST(GeneratedReference, TheSchemaRefusesWhatTheLoaderRefuses) {
  const ConfigNode tree = ConfigNode::parse_string(
      "name: x\npieces:\n  horse:\n    lettr: N\n    moves: [{leap: [1, 2], symmetry: sideways}]\nrules: {pass: always}\n",
      "bad.yaml");
  EXPECT_EQ(errors_in(tree), (std::vector<std::string>{
                                 "pieces.horse.lettr: a key the schema does not name",
                                 "pieces.horse.moves[0].symmetry: \"sideways\" is not one of [\"all\",\"left_right\",\"none\",null]",
                                 "rules.pass: \"always\" is not one of [\"never\",\"unless_in_check\",null]",
                             }));
}

// The loader's "unknown key" check lists the same table the reference prints.
TEST(GeneratedReference, UnknownKeysListTheTable) {
  const ConfigNode tree = ConfigNode::parse_string("uci: {variant: x, mirror: true}\n", "t.yaml");
  try {
    tree.at("uci").expect_keys(keys::uci);
    FAIL() << "no error";
  } catch (const RuleError& e) {
    EXPECT_NE(std::string(e.what()).find("unknown key \"mirror\" (expected one of: variant, mirror_ranks, pass, xboard, chess960)"),
              std::string::npos)
        << e.what();
  }
  EXPECT_NE(key_reference_markdown().find("| `mirror_ranks` | boolean | false |  | the wire numbers ranks from the other edge |"),
            std::string::npos);
}

}  // namespace
}  // namespace palace
