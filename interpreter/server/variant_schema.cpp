#include "server/variant_schema.h"

#include <algorithm>
#include <cstdlib>
#include <string>

#include "loader/key_table.h"

namespace palace::server {

using nlohmann::json;

namespace {

json map_schema(const MapSpec& map);

// A word as a YAML reader types it, so that `optional: true` and `language: 1` match.
json typed_word(const std::string& word) {
  if (word == "true") return true;
  if (word == "false") return false;
  char* end = nullptr;
  const long number = std::strtol(word.c_str(), &end, 10);
  if (!word.empty() && *end == '\0') return number;
  return word;
}

json value_schema(KeyType type, KeyType of, const MapSpec* map, const char* values) {
  switch (type) {
    case KeyType::Map:
      return map_schema(*map);
    case KeyType::MapOf:
      return {{"type", "object"}, {"additionalProperties", value_schema(of, KeyType::String, map, "")}};
    case KeyType::List:
      return {{"type", "array"}, {"items", value_schema(of, KeyType::String, map, "")}};
    case KeyType::OneOrList: {
      const json one = value_schema(of, KeyType::String, map, "");
      return {{"anyOf", {one, {{"type", "array"}, {"items", one}}}}};
    }
    case KeyType::String:
      return {{"type", "string"}};
    case KeyType::Int:
      return {{"type", "integer"}};
    case KeyType::Number:
      return {{"type", "number"}};
    case KeyType::Bool:
      return {{"type", "boolean"}};
    case KeyType::Enum: {
      json words = json::array();
      for (const char* w = values; *w;) {
        const char* end = w;
        while (*end && *end != '|') ++end;
        words.push_back(typed_word(std::string(w, end)));
        w = *end ? end + 1 : end;
      }
      return {{"enum", words}};
    }
    case KeyType::Any:
      return json::object();
  }
  return json::object();
}

// A default the schema can state: a value of the key's own type. Others ("the variant's name",
// "unlimited") are told in REFERENCE.md only, since an editor may insert a schema's default.
bool is_literal(const KeySpec& key, const json& fallback) {
  switch (key.type) {
    case KeyType::Bool:
      return fallback.is_boolean();
    case KeyType::Int:
      return fallback.is_number_integer();
    case KeyType::Number:
      return fallback.is_number();
    case KeyType::Enum: {
      const json words = value_schema(key.type, key.of, key.map, key.values)["enum"];
      return std::find(words.begin(), words.end(), fallback) != words.end();
    }
    default:
      return false;
  }
}

// `key: ~` removes a key a file inherits from its imports, so a file as written may say null.
json nullable(json schema) {
  if (schema.contains("type")) schema["type"] = {schema["type"], "null"};
  if (schema.contains("enum")) schema["enum"].push_back(nullptr);
  if (schema.contains("anyOf")) schema["anyOf"].push_back({{"type", "null"}});
  return schema;
}

json map_schema(const MapSpec& map) {
  json properties = json::object();
  for (const KeySpec& key : map.keys) {
    json property = nullable(value_schema(key.type, key.of, key.map, key.values));
    property["description"] = key.meaning;
    if (const json fallback = typed_word(key.fallback); is_literal(key, fallback)) property["default"] = fallback;
    properties[key.name] = property;
  }
  return {{"type", "object"},
          {"description", map.meaning},
          {"properties", properties},
          {"additionalProperties", false}};
}

}  // namespace

json variant_schema() {
  json schema = map_schema(root_keys());
  schema["$schema"] = "https://json-schema.org/draft/2020-12/schema";
  schema["title"] = "Palace rule file, language 1";
  return schema;
}

}  // namespace palace::server
