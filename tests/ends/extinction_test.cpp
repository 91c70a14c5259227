// Extinction chess (variants/extinction.yaml, made with ends.extinction) against the reference
// engine's perft: from the set-up, and from positions reached by random games (the reference's
// `go perft` on each; docs/engine-log.md says which build).
#include <gtest/gtest.h>

#include "movegen/movegen.h"
#include "test_support.h"

namespace palace::test {
namespace {

std::uint64_t perft_of(const std::string& fen, int depth) {
  Position pos(load_variant(variant_path("extinction")));
  if (!fen.empty()) pos.set_fen(fen);
  return checked_perft(pos, depth);
}

TEST(Extinction, PerftFromTheSetUp) {
  EXPECT_EQ(perft_of("", 1), 20u);
  EXPECT_EQ(perft_of("", 2), 400u);
  EXPECT_EQ(perft_of("", 3), 8902u);
  // Kings may now be taken, and castling passes attacked points.
  EXPECT_EQ(perft_of("", 4), 197742u);
}

TEST(Extinction, PerftFromPlayedPositions) {
  // A bishop on a6 attacks f1: the king castles through it all the same.
  EXPECT_EQ(perft_of("rn1qk3/2pp1pbr/b3pn2/pp4N1/PPPPP1Pp/R1Q1B3/5P1P/1N2K2R w K - 6 16", 3), 35673u);
  EXPECT_EQ(perft_of("rnb1kr2/1pppq1p1/p6n/1B3p2/P2p2pP/1P2P3/1BP2PN1/3QK2R w Kq - 1 16", 3), 53071u);
  EXPECT_EQ(perft_of("1n1q1bk1/prppp1p1/b1B5/1p3p1p/2PP1P2/PP2nNP1/2Q1P2P/RNB1K2R w KQ - 5 16", 3), 33772u);
}

}  // namespace
}  // namespace palace::test
