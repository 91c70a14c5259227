// Language 1: a key or word of the older language is refused with one line naming its new
// spelling, and `palace migrate` rewrites an older file to one that loads as the old one did.
#include <gtest/gtest.h>

#include <fstream>

#include "core/text_file.h"
#include "loader/language.h"
#include "movegen/movegen.h"
#include "test_support.h"

namespace palace::test {
namespace {

const std::string Hint = " (palace migrate FILE rewrites a file to language 1)";

TEST(Language, OldKeysNameTheirNewHome) {
  const std::string file = temp_path("variant.yaml");
  EXPECT_EQ(rule_error_of([&] { load_variant(overlay_path("three-check", "rules:\n  check_limit: 2\n")); }),
            file + ":3:3: rules.check_limit: language 1 writes this as `ends.checks_given`" + Hint);
  EXPECT_EQ(rule_error_of([&] { load_variant(overlay_path("king-of-the-hill", "reaching_wins: {piece: king, zone: hill}\n")); }),
            file + ":2:1: reaching_wins: language 1 writes this as `ends.zone_reached`" + Hint);
  EXPECT_EQ(rule_error_of([&] { load_variant(overlay_path("horde", "sides:\n  white:\n    has_royal: false\n")); }),
            file + ":4:5: sides.white.has_royal: language 1 writes this as `sides.white.royal`" + Hint);
  EXPECT_EQ(rule_error_of([&] { load_variant(overlay_path("chess", "eval: {tempo: 3}\n")); }),
            file + ":2:1: eval: language 1 writes this as `engine.eval`" + Hint);
}

// A key that names a piece kind is `kind`, as in `ends.zone_reached`, `castling` and `compound_moves`.
TEST(Language, OldPieceKeysAreKind) {
  const std::string file = temp_path("variant.yaml");
  EXPECT_EQ(rule_error_of([&] { load_variant(overlay_path("king-of-the-hill", "ends:\n  zone_reached: {piece: king, zone: hill}\n")); }),
            file + ":3:18: ends.zone_reached.piece: language 1 writes this as `ends.zone_reached.kind`" + Hint);
  EXPECT_EQ(rule_error_of([&] { load_variant(overlay_path("chess960", "castling:\n  piece: king\n")); }),
            file + ":3:3: castling.piece: language 1 writes this as `castling.kind`" + Hint);
  EXPECT_EQ(rule_error_of([&] {
              load_variant(overlay_path("chess", "compound_moves:\n  x: {side: white, right: X, piece: king, from: e1, to: f1, "
                                                 "partner: rook, partner_from: h1, partner_to: g1}\n"));
            }),
            file + ":3:30: compound_moves.x.piece: language 1 writes this as `compound_moves.x.kind`" + Hint);
}

TEST(Language, MigrateRenamesPieceToKind) {
  EXPECT_EQ(migrate_rule_text("castling:\n  piece: king\n  partner: rook\n"
                              "compound_moves: {x: {side: white, piece: king}}\n"
                              "reaching_wins: {piece: king, zone: hill}\n",
                              "x.yaml"),
            "language: 1\ncastling:\n  kind: king\n  partner: rook\n"
            "compound_moves: {x: {side: white, kind: king}}\n"
            "ends:\n  zone_reached: {kind: king, zone: hill}\n");
}

TEST(Language, OldWordsNameTheirNewSpelling) {
  const std::string file = temp_path("variant.yaml");
  EXPECT_EQ(rule_error_of([&] { load_variant(overlay_path("janggi", "uci: {pass: royal-square}\n")); }),
            file + ":2:13: uci.pass: language 1 writes \"royal-square\" as `royal_point`" + Hint);
  EXPECT_EQ(rule_error_of([&] { load_variant(overlay_path("chess", "pieces:\n  king: {moves: [{step: forward-left}]}\n")); }),
            file + ":3:25: pieces.king.moves[0].step: language 1 writes \"forward-left\" as `forward_left`" + Hint);
}

TEST(Language, AnotherVersionIsRefused) {
  EXPECT_EQ(rule_error_of([&] { load_variant(overlay_path("chess", "language: 2\n")); }),
            temp_path("variant.yaml") + ":2:11: language: this program reads language 1 (`language: 1`)");
}

const char* OldShatranjLike =
    "# a house rule\n"
    "import: [chess.yaml]\n"
    "name: old-style\n"
    "sides:\n"
    "  white:\n"
    "    has_royal: true\n"
    "rules:\n"
    "  pass: never\n"
    "  # bared, you lose\n"
    "  bare_royal: loss\n"
    "  check_limit: 3\n"
    "reaching_wins: {piece: king, zone: last-rank, safely: false}\n"
    "eval:\n"
    "  tempo: 7\n";

TEST(Language, MigrateMovesKeysAndKeepsComments) {
  EXPECT_EQ(migrate_rule_text(OldShatranjLike, "old.yaml"),
            "# a house rule\n"
            "language: 1\n"
            "import: [chess.yaml]\n"
            "name: old-style\n"
            "sides:\n"
            "  white:\n"
            "    royal: true\n"
            "rules:\n"
            "  pass: never\n"
            "ends:\n"
            "  # bared, you lose\n"
            "  bare_royal: loss\n"
            "  checks_given: 3\n"
            "  zone_reached: {kind: king, zone: last-rank, safely: false}\n"
            "engine:\n"
            "  eval:\n"
            "    tempo: 7\n");
}

TEST(Language, MigrateRewritesInlineMaps) {
  EXPECT_EQ(migrate_rule_text("name: x\nrules: {pass: never, stalemate: draw, double_pass_ends: true}\nuci: {pass: null-move}\n", "x.yaml"),
            "language: 1\nname: x\nrules: {pass: never}\nends:\n  stalemate: draw\n  both_passed: true\nuci: {pass: null_move}\n");
}

// A shipped variant written back in the older language migrates to a file that loads as it does.
TEST(Language, MigratedFileLoadsAsTheOriginal) {
  const std::string old_path = temp_path("old-kingofthehill.yaml");
  {
    std::ofstream out(old_path);
    out << "import: [" << variant_path("king-of-the-hill") << "]\nname: koth-old\nrules:\n  stalemate: loss\n"
        << "reaching_wins: {piece: king, zone: hill, safely: true}\n";
  }
  EXPECT_EQ(rule_error_of([&] { load_variant(old_path); }),
            old_path + ":5:1: reaching_wins: language 1 writes this as `ends.zone_reached`" + Hint);
  const std::string new_path = temp_path("new-kingofthehill.yaml");
  {
    std::ofstream out(new_path);
    out << migrate_rule_text(read_text_file(old_path), old_path);
  }
  const auto variant = load_variant(new_path);
  EXPECT_EQ(variant->ends().get<NoMoves>().stalemate, SideResult::Loss);
  EXPECT_TRUE(variant->ends().get<ZoneReached>().safely);
  EXPECT_EQ(variant->ends().get<ZoneReached>().kind, variant->rules().kind_by_name("king"));
}

}  // namespace
}  // namespace palace::test
