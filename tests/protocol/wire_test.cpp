// Wire notation: what other engines read and write. Janggi is mirrored top to bottom and passes as
// the general's square twice; Xiangqi and chess are Palace's own notation.
#include <gtest/gtest.h>

#include <fstream>

#include "notation/wire.h"
#include "test_support.h"

namespace palace::test {
namespace {

// The reference engine's `position startpos` then `d` for its janggi.
constexpr const char* ReferenceJanggiStart = "rnba1abnr/4k4/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/4K4/RNBA1ABNR w - - 0 1";

// A variant's `uci:` section, written wrong: one line naming the key.
TEST(Wire, BadUciSectionsNameTheLine) {
  const std::string path = temp_path("variant.yaml");
  auto load_error = [&](const std::string& section) {
    return rule_error_of([&] { load_variant(overlay_path("chess", section)); });
  };
  EXPECT_EQ(load_error("uci: {variant: chess, pass: sideways}\n"),
            path + ":2:29: uci.pass: unknown pass notation \"sideways\" (null_move, royal_point)");
  EXPECT_EQ(load_error("uci: {mirror: true}\n"),
            path + ":2:7: uci.mirror: unknown key \"mirror\" (expected one of: variant, mirror_ranks, pass, xboard, chess960)");
}

TEST(Wire, JanggiStartIsTheReferenceEnginesStartposMirrored) {
  for (const char* name : {"janggi", "janggi-casual", "janggi-modern"}) {
    const auto variant = load_variant(variant_path(name));
    const WireNotation wire(*variant);
    const Position pos(variant);
    EXPECT_EQ(wire.fen(pos.fen()), ReferenceJanggiStart) << name;
    EXPECT_EQ(wire.fen(ReferenceJanggiStart), pos.fen()) << name;
  }
}

TEST(Wire, VariantNamesAreTheReferenceEnginesOwn) {
  EXPECT_EQ(WireNotation(*load_variant(variant_path("janggi-modern"))).variant_name(), "janggi");
  EXPECT_EQ(WireNotation(*load_variant(variant_path("janggi-casual"))).variant_name(), "janggicasual");
  EXPECT_EQ(WireNotation(*load_variant(variant_path("janggi"))).variant_name(), "janggitraditional");
  EXPECT_EQ(WireNotation(*load_variant(variant_path("xiangqi"))).variant_name(), "xiangqi");
  EXPECT_EQ(WireNotation(*load_variant(variant_path("chess"))).variant_name(), "chess");
}

TEST(Wire, JanggiMovesAndPassesAreMirrored) {
  const auto variant = load_variant(variant_path("janggi-modern"));
  const WireNotation wire(*variant);
  Position pos(variant);
  std::string why;
  const Move horse = wire.parse_move(pos, "b1c3", why);
  ASSERT_TRUE(horse) << why;
  EXPECT_EQ(pos.move_text(horse), "b10c8");
  EXPECT_EQ(wire.move(pos, horse), "b1c3");
  const Move pass = wire.parse_move(pos, "e2e2", why);
  ASSERT_TRUE(pass) << why;
  EXPECT_TRUE(pass.is_pass());
  EXPECT_EQ(wire.move(pos, pass), "e2e2");
  pos.do_move(pass);
  EXPECT_EQ(wire.move(pos, Move::pass()), "e9e9");  // Han's general, on its own ranks
}

TEST(Wire, RefusalsQuoteTheTextAndSayWhy) {
  const auto variant = load_variant(variant_path("janggi-modern"));
  const WireNotation wire(*variant);
  Position pos(variant);
  std::string why;
  EXPECT_FALSE(wire.parse_move(pos, "b10c8", why));  // Palace's orientation is not the wire's
  EXPECT_EQ(why, "\"b10c8\" is not a legal move here");
  EXPECT_FALSE(wire.parse_move(pos, "z1c3", why));
  EXPECT_EQ(why, "\"z1c3\" is not a move");
  EXPECT_FALSE(wire.parse_move(pos, "", why));
  EXPECT_EQ(why, "\"\" is not a move");
  EXPECT_FALSE(wire.parse_move(pos, "b1c3xx", why));
  EXPECT_EQ(why, "\"b1c3xx\" is not a move");
  const auto xiangqi = load_variant(variant_path("xiangqi"));
  Position xpos(xiangqi);
  EXPECT_FALSE(WireNotation(*xiangqi).parse_move(xpos, "e1e1", why));  // no pass in Xiangqi
  EXPECT_EQ(why, "\"e1e1\" is not a legal move here");
}

// Every legal move of the vector positions goes out and comes back as itself, and the FEN too;
// where the variant does not mirror, the wire is Palace's notation letter for letter.
class WireRoundTrip : public ::testing::TestWithParam<std::string> {};

TEST_P(WireRoundTrip, EveryLegalMoveAndFenComesBackAsItself) {
  const auto variant = load_variant(variant_path(GetParam()));
  const WireNotation wire(*variant);
  const bool mirrored = variant->rules().uci.mirror_ranks;
  int moves = 0;
  for (const auto& line : data_lines(vectors_path(GetParam() + ".moves"))) {
    Position pos(variant);
    const std::string fen = split(line, '|').at(0);
    pos.set_fen(fen);
    EXPECT_EQ(wire.fen(wire.fen(fen)), fen);
    EXPECT_EQ(wire.fen(fen) == fen, !mirrored) << fen;
    MoveList legal;
    generate_legal(pos, legal);
    for (const Move m : legal) {
      const std::string text = wire.move(pos, m);
      std::string why;
      EXPECT_EQ(wire.parse_move(pos, text, why), m) << fen << " " << text << ": " << why;
      if (!mirrored) {
        EXPECT_EQ(text, pos.move_text(m));
      }
      ++moves;
    }
  }
  EXPECT_GT(moves, 1000);
}

INSTANTIATE_TEST_SUITE_P(Variants, WireRoundTrip, ::testing::Values("janggi-modern", "xiangqi", "chess"), VariantParamName());

}  // namespace
}  // namespace palace::test
