// Switching a Janggi formation is a one-word edit: a variant that imports janggi*.yaml and names
// other formations reproduces the reference start position of that formation pair exactly.
#include <gtest/gtest.h>

#include <fstream>
#include <map>

#include "test_support.h"

namespace palace::test {
namespace {

// The vectors write a formation as the pieces on files b, c, g, h: N horse, B elephant.
const std::map<std::string, std::string> FormationByLetters = {
    {"NBBN", "inner-elephant"}, {"BNNB", "outer-elephant"}, {"BNBN", "left-elephant"}, {"NBNB", "right-elephant"}};

std::string field_value(const std::string& line, const std::string& key) {
  const auto at = line.find(key + "=");
  return at == std::string::npos ? "" : line.substr(at + key.size() + 1, 4);
}

// A variant file that imports `base` and changes one word per side: the formation's name. Named
// after all three within the test's own temporary names.
std::string write_override(const std::string& base, const std::string& cho, const std::string& han) {
  const std::string path = temp_path(base + "-" + cho + "-" + han + ".yaml");
  std::ofstream out(path);
  out << "import: [" << variant_path(base) << "]\n"
      << "setup:\n  cho: {formation: {name: " << cho << "}}\n  han: {formation: {name: " << han << "}}\n";
  return path;
}

class Formations : public ::testing::TestWithParam<std::string> {};

TEST_P(Formations, EachNamedPairReproducesItsReferenceStartPosition) {
  const auto lines = data_lines(vectors_path(GetParam() + ".startpos.perft"));
  int pairs = 0;
  for (const auto& line : lines) {
    if (line.find(";cho=") == std::string::npos) continue;
    const std::string cho = FormationByLetters.at(field_value(line, "cho"));
    const std::string han = FormationByLetters.at(field_value(line, "han"));
    const std::string file = write_override(GetParam(), cho, han);
    Position pos(load_variant(file));
    const std::string fen = split(line, ';').at(0);
    EXPECT_EQ(pos.fen(), fen) << cho << " / " << han;
    EXPECT_EQ(perft(pos, 3), std::stoull(line.substr(line.find(";D3 ") + 4))) << cho << " / " << han;
    ++pairs;
  }
  EXPECT_EQ(pairs, 16);
}

INSTANTIATE_TEST_SUITE_P(Janggi, Formations, ::testing::Values("janggi", "janggi-casual", "janggi-modern"), VariantParamName());

}  // namespace
}  // namespace palace::test
