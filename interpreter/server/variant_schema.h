// The rule language as a JSON Schema: what `palace schema` prints (committed as rules/schema.json)
// and what the workshop completes keys from (GET /api/schema).
#pragma once

#include <nlohmann/json.hpp>

namespace palace::server {

// JSON Schema (draft 2020-12: type, properties, additionalProperties, items, anyOf,
// enum, default, description) generated from the loader's key tables (loader/key_table.h), so it
// names exactly the keys the loader accepts. No key is required: a file may be a fragment that
// another imports, or override only some keys of its imports.
nlohmann::json variant_schema();

}  // namespace palace::server
