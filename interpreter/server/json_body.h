// A request's JSON body, read with limits checked before any of it is built: a body under the size
// cap could still cost a thousand times its bytes as a tree (issue 53: 2 MiB of nested objects
// took 50 MB each), and a key given twice would be read as its last value without a word.
#pragma once

#include <cstddef>
#include <nlohmann/json.hpp>
#include <string_view>

namespace palace::server {

// What the API's bodies need, with room to spare: an upload is an object of a YAML text and a few
// dozen scripts.
constexpr std::size_t MaxJsonDepth = 32;
constexpr std::size_t MaxJsonValues = 10'000;

// The body as a JSON object ({} when empty). Throws RequestError 400 with one line for malformed
// JSON, a value other than an object, nesting deeper than MaxJsonDepth, more than MaxJsonValues
// values, or a key given twice in one object.
nlohmann::json parse_json_body(std::string_view text);

}  // namespace palace::server
