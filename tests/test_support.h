// Helpers shared by the test suites: where things are, and reading the reference vector files.
#pragma once

#include <algorithm>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "compiler/variant.h"
#include "movegen/movegen.h"
#include "position/position.h"

namespace palace::test {

inline std::string source_path(const std::string& relative) { return std::string(PALACE_SOURCE_DIR) + "/" + relative; }
inline std::string variant_path(const std::string& name) { return source_path("variants/" + name + ".yaml"); }
inline std::string vectors_path(const std::string& file) { return std::string(PALACE_VECTORS_DIR) + "/" + file; }

// Lines of a file, comments (#) and blank lines left out.
inline std::vector<std::string> data_lines(const std::string& path) {
  std::ifstream in(path);
  std::vector<std::string> lines;
  for (std::string line; std::getline(in, line);)
    if (!line.empty() && line[0] != '#') lines.push_back(line);
  return lines;
}

inline std::string trim(const std::string& s) {
  const auto b = s.find_first_not_of(" \t\r");
  const auto e = s.find_last_not_of(" \t\r");
  return b == std::string::npos ? "" : s.substr(b, e - b + 1);
}

inline std::vector<std::string> split(const std::string& s, char sep) {
  std::vector<std::string> parts;
  std::stringstream in(s);
  for (std::string part; std::getline(in, part, sep);) parts.push_back(trim(part));
  return parts;
}

inline std::vector<std::string> legal_move_texts(Position& pos) {
  MoveList list;
  generate_legal(pos, list);
  std::vector<std::string> out;
  for (const Move m : list) out.push_back(pos.move_text(m));
  std::sort(out.begin(), out.end());
  return out;
}

// Test names from variant names: gtest allows no '-' in them.
struct VariantParamName {
  template <typename Info>
  std::string operator()(const Info& info) const {
    std::string name = info.param;
    std::replace(name.begin(), name.end(), '-', '_');
    return name;
  }
};

inline std::string join(const std::vector<std::string>& parts) {
  std::string out;
  for (const auto& p : parts) out += (out.empty() ? "" : " ") + p;
  return out;
}

}  // namespace palace::test
