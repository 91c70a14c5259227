// The reference engine's results in ../shared/vectors/, read in place: perft counts, exact legal
// move sets with the in-check flag, and positions where the side to move has no move left.
#include <gtest/gtest.h>

#include <algorithm>
#include <map>

#include "test_support.h"

namespace palace::test {
namespace {

// Counts above this (the start positions' deepest lines) are the benchmark's job, not the tests'.
constexpr std::uint64_t MaxTestNodes = 20'000'000;

struct PerftLine {
  std::string fen;
  std::map<int, std::uint64_t> counts;
};

PerftLine parse_perft_line(const std::string& line) {
  const auto fields = split(line, ';');
  PerftLine out{fields.at(0), {}};
  for (std::size_t i = 1; i < fields.size(); ++i)
    if (fields[i].size() > 1 && fields[i][0] == 'D') {
      const auto space = fields[i].find(' ');
      out.counts[std::stoi(fields[i].substr(1, space - 1))] = std::stoull(fields[i].substr(space + 1));
    }
  return out;
}

class ReferenceVectors : public ::testing::TestWithParam<std::string> {
 protected:
  std::shared_ptr<const Variant> variant() const { return load_variant(variant_path(GetParam())); }

  void check_perft_file(const std::string& file) {
    const auto v = variant();
    const auto lines = data_lines(vectors_path(file));
    ASSERT_FALSE(lines.empty()) << file;
    for (const auto& line : lines) {
      const PerftLine p = parse_perft_line(line);
      Position pos(v);
      pos.set_fen(p.fen);
      for (const auto& [depth, expected] : p.counts) {
        if (expected > MaxTestNodes) continue;
        EXPECT_EQ(perft(pos, depth), expected) << file << ": " << p.fen << " depth " << depth;
      }
    }
  }
};

TEST_P(ReferenceVectors, StartPositionPerft) { check_perft_file(GetParam() + ".startpos.perft"); }

TEST_P(ReferenceVectors, RandomPositionPerft) { check_perft_file(GetParam() + ".perft"); }

TEST_P(ReferenceVectors, LegalMoveSets) {
  const auto v = variant();
  const auto lines = data_lines(vectors_path(GetParam() + ".moves"));
  ASSERT_EQ(lines.size(), 400u);
  for (const auto& line : lines) {
    const auto fields = split(line, '|');
    Position pos(v);
    pos.set_fen(fields.at(0));
    EXPECT_EQ(in_check(pos), fields.at(1) == "1") << fields[0];
    EXPECT_EQ(join(legal_move_texts(pos)), fields.at(2)) << fields[0];
  }
}

TEST_P(ReferenceVectors, NoMoveLeftInTerminalPositions) {
  const auto v = variant();
  const auto lines = data_lines(vectors_path(GetParam() + ".terminal"));
  ASSERT_FALSE(lines.empty());
  for (const auto& line : lines) {
    const auto fields = split(line, '|');
    Position pos(v);
    pos.set_fen(fields.at(0));
    EXPECT_EQ(in_check(pos), fields.at(1) == "1") << fields[0];
    EXPECT_EQ(join(legal_move_texts(pos)), "") << fields[0];
  }
}

INSTANTIATE_TEST_SUITE_P(AllVariants, ReferenceVectors, ::testing::Values("janggi", "janggi-casual", "janggi-modern", "xiangqi", "chess"), VariantParamName());

}  // namespace
}  // namespace palace::test
