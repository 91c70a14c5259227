// What the workshop completes keys from (GET /api/schema): a JSON Schema of variant files.
//
// The one seam for the language's own schema: until the loader states its keys as a table
// (`palace schema`), the schema is learnt from the shipped variants, every key and value any of them
// writes, so it never names a key the loader does not read.
#pragma once

#include <filesystem>
#include <nlohmann/json.hpp>

namespace palace::server {

// JSON Schema (draft 2020-12 keywords: type, properties, additionalProperties, items, examples) of
// the variant files in `shipped_dir`, with what they import merged in. A file that does not load is
// left out.
nlohmann::json variant_schema(const std::filesystem::path& shipped_dir);

}  // namespace palace::server
