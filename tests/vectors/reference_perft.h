// Checking reference files in place, for the five games and the zoo: perft (`FEN ;D1 n ;D2 n ...`)
// and legal move sets (`FEN | in_check | moves`).
#pragma once

#include <gtest/gtest.h>

#include <map>

#include "test_support.h"

namespace palace::test {

// Counts above this (the start positions' deepest lines) are the benchmark's job, not the tests'.
constexpr std::uint64_t MaxTestNodes = 20'000'000;

struct PerftLine {
  std::string fen;
  std::map<int, std::uint64_t> counts;
};

inline PerftLine parse_perft_line(const std::string& line) {
  const auto fields = split(line, ';');
  PerftLine out{fields.at(0), {}};
  for (std::size_t i = 1; i < fields.size(); ++i)
    if (fields[i].size() > 1 && fields[i][0] == 'D') {
      const auto space = fields[i].find(' ');
      out.counts[std::stoi(fields[i].substr(1, space - 1))] = std::stoull(fields[i].substr(space + 1));
    }
  return out;
}

inline void check_perft_file(const std::shared_ptr<const Variant>& variant, const std::string& file) {
  const auto lines = data_lines(vectors_path(file));
  ASSERT_FALSE(lines.empty()) << file;
  for (const auto& line : lines) {
    const PerftLine p = parse_perft_line(line);
    Position pos(variant);
    pos.set_fen(p.fen);
    for (const auto& [depth, expected] : p.counts) {
      if (expected > MaxTestNodes) continue;
      EXPECT_EQ(perft(pos, depth), expected) << file << ": " << p.fen << " depth " << depth;
    }
  }
}

// Checks every line of a move-set file and returns how many there were.
inline std::size_t check_move_sets_file(const std::shared_ptr<const Variant>& variant, const std::string& file) {
  const auto lines = data_lines(vectors_path(file));
  for (const auto& line : lines) {
    const auto fields = split(line, '|');
    Position pos(variant);
    pos.set_fen(fields.at(0));
    EXPECT_EQ(in_check(pos), fields.at(1) == "1") << fields[0];
    EXPECT_EQ(join(legal_move_texts(pos)), fields.at(2)) << fields[0];
  }
  return lines.size();
}

}  // namespace palace::test
