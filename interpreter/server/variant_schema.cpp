#include "server/variant_schema.h"

#include <algorithm>
#include <string>

#include "loader/config_tree.h"

namespace palace::server {

namespace fs = std::filesystem;
using nlohmann::json;

namespace {

constexpr std::size_t MaxExamples = 12;

void add_unique(json& list, const json& value) {
  if (!list.is_array()) list = json::array();
  if (std::find(list.begin(), list.end(), value) == list.end()) list.push_back(value);
}

// A map whose every value is itself a map names things (pieces, zones, formations): its keys are the
// writer's own, so its schema is one for any key, learnt from them all.
bool names_things(const ConfigNode& node) {
  const auto& entries = node.entries();
  return entries.size() >= 2 && std::all_of(entries.begin(), entries.end(), [](const auto& e) { return e.second.is_map(); });
}

void learn(json& schema, const ConfigNode& node) {
  switch (node.type()) {
    case ConfigNode::Type::Map:
      add_unique(schema["type"], "object");
      for (const auto& [key, value] : node.entries())
        learn(names_things(node) ? schema["additionalProperties"] : schema["properties"][key], value);
      break;
    case ConfigNode::Type::Sequence:
      add_unique(schema["type"], "array");
      for (const ConfigNode* item : node.items()) learn(schema["items"], *item);
      break;
    case ConfigNode::Type::Scalar:
      add_unique(schema["type"], "string");
      if (!schema.contains("examples") || schema["examples"].size() < MaxExamples) add_unique(schema["examples"], node.as_string());
      break;
    case ConfigNode::Type::Null:
      break;
  }
}

}  // namespace

json variant_schema(const fs::path& shipped_dir) {
  json schema = {{"$schema", "https://json-schema.org/draft/2020-12/schema"},
                 {"title", "Palace variant file"},
                 {"description", "Learnt from the shipped variants; rules/README.md is the reference"}};
  std::vector<fs::path> files;
  std::error_code error;
  for (const auto& entry : fs::directory_iterator(shipped_dir, error))
    if (entry.path().extension() == ".yaml") files.push_back(entry.path());
  std::sort(files.begin(), files.end());
  for (const fs::path& file : files) {
    try {
      learn(schema, ConfigNode::load_file(file.string()));
    } catch (const Error&) {
      // a file that does not load teaches nothing
    }
  }
  return schema;
}

}  // namespace palace::server
