// The variants.ini reader and converter (interpreter/ini/): each idea on a small file of the
// reference's format, the converted YAML loaded back as Palace reads it.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>

#include "core/error.h"
#include "ini/ini_file.h"
#include "ini/ini_import.h"
#include "loader/betza.h"
#include "loader/config_tree.h"
#include "test_support.h"

namespace palace {
namespace {

// No section has a shipped parent unless a test gives one.
std::optional<ShippedVariant> no_shipped(const std::string&) { return std::nullopt; }

ShippedLookup chess_only() {
  return shipped_files({{"chess", test::variant_path("chess")}}, [](const std::string& file) { return file; });
}

std::vector<ImportedSection> import_text(const std::string& text, const std::vector<std::string>& wanted = {},
                                         const ShippedLookup& shipped = no_shipped) {
  return import_ini(read_ini(text, "t.ini"), wanted, shipped);
}

// The section's file as Palace loads it, written out so that its imports resolve.
RuleSet rules_of(const ImportedSection& s) {
  EXPECT_EQ(s.refusal, "");
  const std::string path = ::testing::TempDir() + s.name + ".yaml";
  std::ofstream(path) << s.yaml;
  return load_rules(path);
}

std::string error_of(const std::string& text) {
  try {
    read_ini(text, "t.ini");
  } catch (const Error& e) {
    return e.what();
  }
  return "";
}

constexpr const char* Minimal =
    "[tiny]\n"
    "maxRank = 5\n"
    "maxFile = 5\n"
    "king = k\n"
    "rook = r\n"
    "startFen = 4k/5/5/5/R3K w - - 0 1\n";

TEST(IniFile, ReadsSectionsKeysAndLines) {
  const IniFile f = read_ini("# a comment\n[a]\nx = 1\n\n[b:a]\ny = two words\n", "t.ini");
  ASSERT_EQ(f.sections.size(), 2u);
  EXPECT_EQ(f.sections[1].name, "b");
  EXPECT_EQ(f.sections[1].parent, "a");
  EXPECT_EQ(f.sections[1].line, 5);
  ASSERT_NE(f.sections[1].find("y"), nullptr);
  EXPECT_EQ(f.sections[1].find("y")->value, "two words");
  EXPECT_EQ(f.sections[1].find("y")->line, 6);
}

TEST(IniFile, MalformedLinesAreRefusedWithFileAndLine) {
  EXPECT_EQ(error_of("[a]\nx = 1\noops\n"), "t.ini:3: \"oops\": a line is a section header or key = value");
  EXPECT_EQ(error_of("x = 1\n[a]\n"), "t.ini:1: \"x = 1\": a key before the first section belongs to no variant");
  EXPECT_EQ(error_of("[a:]\n"), "t.ini:1: \"[a:]\": a section header is [name] or [name:parent], names of letters, digits, - and _");
}

TEST(IniFile, TellsIniFromYaml) {
  EXPECT_TRUE(is_ini_text("# x\n[chess960:chess]\n"));
  EXPECT_FALSE(is_ini_text("language: 1\nimport: [chess.yaml]\n"));
}

TEST(IniImport, ASectionWithoutParentIsTheTemplateWithItsPieces) {
  const auto out = import_text(Minimal);
  ASSERT_EQ(out.size(), 1u);
  const RuleSet r = rules_of(out[0]);
  EXPECT_EQ(r.board.files, 5);
  EXPECT_EQ(r.board.ranks, 5);
  ASSERT_EQ(r.pieces.size(), 2u);
  EXPECT_TRUE(r.pieces[r.kind_by_letter('K')].royal);
  EXPECT_EQ(r.uci.variant, "tiny");
  EXPECT_EQ(r.setup[0].size(), 2u);
  EXPECT_EQ(r.ends.get<MoveLimit>().plies, 100);  // the template's 50-move rule
}

TEST(IniImport, AChildMergesItsParentKeyByKey) {
  const auto out = import_text(std::string(Minimal) + "[child:tiny]\nstalemateValue = loss\nbishop = b\n");
  ASSERT_EQ(out.size(), 2u);
  const RuleSet r = rules_of(out[1]);
  EXPECT_EQ(r.board.files, 5);  // the parent's
  EXPECT_EQ(r.pieces.size(), 3u);
  EXPECT_NE(r.kind_by_letter('R'), NoKind);
  EXPECT_EQ(r.ends.get<NoMoves>().stalemate, SideResult::Loss);
  EXPECT_EQ(rules_of(out[0]).ends.get<NoMoves>().stalemate, SideResult::Draw);
}

TEST(IniImport, ACustomPieceIsItsBetza) {
  const auto out = import_text(std::string(Minimal) + "customPiece1 = a:mWcF\n");
  const RuleSet r = rules_of(out[0]);
  const Kind a = r.kind_by_letter('A');
  ASSERT_NE(a, NoKind);
  EXPECT_EQ(r.pieces[a].name, "custom-piece-1");
  EXPECT_EQ(write_betza(r.pieces[a].parts, r.zone_names).betza, "mWcF");
}

TEST(IniImport, PawnsPromoteInTheRegionToTheKindsListed) {
  const auto out = import_text(
      "[promo]\nmaxRank = 6\nmaxFile = 6\nking = k\nqueen = q\nknight = n\npawn = p\npromotionRegionWhite = *6\n"
      "promotionRegionBlack = *1\npromotionPieceTypes = q\ndoubleStep = false\nstartFen = 5k/pppppp/6/6/PPPPPP/5K w - - 0 1\n");
  const RuleSet r = rules_of(out[0]);
  const PieceDef& pawn = r.pieces[r.kind_by_letter('P')];
  ASSERT_GE(pawn.promotion_zone, 0);
  ASSERT_EQ(pawn.promotion_kinds.size(), 1u);
  EXPECT_EQ(r.pieces[pawn.promotion_kinds[0]].name, "queen");
  EXPECT_EQ(r.sides[0].zones[pawn.promotion_zone].count(), 6);
  EXPECT_TRUE(r.sides[0].zones[pawn.promotion_zone].test(r.board.parse_point("c6")));
  EXPECT_EQ(pawn.promotion_choice, PromotionChoice::Forced);
}

TEST(IniImport, PromotedPieceTypeMakesAPromotedKindTheHandDemotes) {
  const auto out = import_text(std::string(Minimal) + "gold = g\npromotedPieceType = r:g\npromotionRegionWhite = *5\n"
                               "promotionRegionBlack = *1\npieceDrops = true\ncapturesToHand = true\n");
  const RuleSet r = rules_of(out[0]);
  const Kind promoted = r.kind_by_name("promoted-rook");
  ASSERT_NE(promoted, NoKind);
  EXPECT_EQ(r.pieces[promoted].written, "+R");
  const PieceDef& rook = r.pieces[r.kind_by_name("rook")];
  ASSERT_EQ(rook.promotion_kinds.size(), 1u);
  EXPECT_EQ(rook.promotion_kinds[0], promoted);
  EXPECT_TRUE(rook.promotion_leaving);
  EXPECT_EQ(rook.promotion_choice, PromotionChoice::Optional);
  EXPECT_TRUE(r.hands.enabled);
  EXPECT_EQ(r.hands.joins_as[promoted], r.kind_by_name("rook"));
}

TEST(IniImport, AKeyWithoutAConstructRefusesItsSectionInOneLine) {
  const auto out = import_text("[duck:tiny]\nwallingRule = duck\n[tiny]\nking = k\n");
  ASSERT_EQ(out.size(), 2u);
  EXPECT_EQ(out[0].yaml, "");
  EXPECT_EQ(out[0].refusal, "t.ini:1: [duck]: its parent tiny is no earlier section and no shipped variant's wire name");
  const auto direct = import_text(std::string(Minimal) + "wallingRule = duck\n");
  EXPECT_EQ(direct[0].refusal, "t.ini:7: [tiny] wallingRule = duck: walls are not a construct of Palace");
  // XBetza's `q` (circular riders) is no modifier Palace reads.
  const auto betza = import_text(std::string(Minimal) + "customPiece2 = x:qN\n");
  EXPECT_EQ(betza[0].refusal.rfind("t.ini:7: [tiny] customPiece2 = x:qN: Betza \"qN\": ", 0), 0u) << betza[0].refusal;
}

TEST(IniImport, TheOtherSectionsConvertPastARefusal) {
  const auto out = import_text(std::string("[walls]\nwallingRule = arrow\n") + Minimal);
  ASSERT_EQ(out.size(), 2u);
  EXPECT_NE(out[0].refusal, "");
  EXPECT_EQ(out[1].refusal, "");
}

TEST(IniImport, AShippedParentIsImportedAndOnlyTheChangesWritten) {
  const auto out = import_text("[corner:chess]\ncastling = false\nstartFen = r6r/1nbqkbn1/pppppppp/8/8/PPPPPPPP/1NBQKBN1/R6R w - - 0 1\n",
                               {}, chess_only());
  const RuleSet r = rules_of(out[0]);
  EXPECT_EQ(out[0].yaml.rfind("language: 1\nimport: [" + test::variant_path("chess") + "]\n", 0), 0u) << out[0].yaml;
  EXPECT_TRUE(r.compound_moves.empty());
  EXPECT_EQ(r.setup[0].size(), 16u);
  EXPECT_NE(r.kind_by_name("queen"), NoKind);
  EXPECT_EQ(r.uci.variant, "corner");
}

TEST(IniImport, CastlingIsBuiltFromTheStartAndItsRights) {
  const auto out = import_text("[castle]\nking = k\nrook = r\nstartFen = r3k2r/8/8/8/8/8/8/R3K2R w K - 0 1\n");
  const RuleSet r = rules_of(out[0]);
  ASSERT_EQ(r.compound_moves.size(), 1u);
  const CompoundMoveDef& m = r.compound_moves[0];
  EXPECT_EQ(m.right, 'K');
  EXPECT_EQ(r.board.point_name(m.from) + r.board.point_name(m.to), "e1g1");
  EXPECT_EQ(r.board.point_name(m.partner_from) + r.board.point_name(m.partner_to), "h1f1");
  EXPECT_EQ(m.must_be_empty.count(), 2u);  // f1 g1
  EXPECT_EQ(m.must_be_safe.count(), 3u);   // e1 f1 g1
}

// The reference's regions are points of a fixed grid: chess's last rank for White, rank 8, is off
// a six-rank board, while Black's, rank 1, stays.
TEST(IniImport, AResizedParentKeepsTheZonePointsTheBoardHas) {
  const auto out = import_text("[small:chess]\nmaxRank = 6\nmaxFile = 6\nstartFen = rnbqkr/pppppp/6/6/PPPPPP/RNBQKR w - - 0 1\n",
                               {}, chess_only());
  const RuleSet r = rules_of(out[0]);
  EXPECT_EQ(r.board.files, 6);
  const int last = r.pieces[r.kind_by_name("pawn")].promotion_zone;
  ASSERT_GE(last, 0);
  EXPECT_EQ(r.sides[0].zones[last].count(), 0u);
  EXPECT_EQ(r.sides[1].zones[last].count(), 6u);
  EXPECT_TRUE(r.compound_moves.empty());
}

TEST(IniImport, WantedSectionsAloneAndAnUnknownOneNamed) {
  const auto out = import_text(std::string(Minimal) + "[other:tiny]\n", {"other", "nowhere"});
  ASSERT_EQ(out.size(), 2u);
  EXPECT_EQ(out[0].refusal, "t.ini: no section [nowhere]");
  EXPECT_EQ(out[1].name, "other");
  EXPECT_EQ(out[1].refusal, "");
}

TEST(IniImportCommand, WritesEachSectionAndCountsThem) {
  const std::string dir = ::testing::TempDir() + "ini-import-command";
  std::filesystem::create_directories(dir);
  std::ofstream(dir + "/v.ini") << Minimal << "[duck:chess]\nwallingRule = duck\n";
  const auto run = test::run_palace("import-ini " + dir + "/v.ini --out " + dir + "/out 2>&1");
  EXPECT_EQ(run.status, 0);
  ASSERT_EQ(run.lines.size(), 3u) << run.out;
  EXPECT_EQ(run.lines[0], "wrote " + dir + "/out/tiny.yaml");
  EXPECT_EQ(run.lines[1], "v.ini:8: [duck] wallingRule = duck: walls are not a construct of Palace");
  EXPECT_EQ(run.lines[2], "2 sections, 1 converted, 1 refused");
  // The reference's count for the same section: 279.
  EXPECT_EQ(test::run_palace("perft " + dir + "/out/tiny.yaml --depth 3").lines.back(), "279");
  // Castling one point is the king's own move: the converted file does not load, and says why.
  std::ofstream(dir + "/step.ini") << "[step]\nking = k\nrook = r\ncastlingKingsideFile = f\nstartFen = 4k3/8/8/8/8/8/8/4K2R w K - 0 1\n";
  const auto step = test::run_palace("import-ini " + dir + "/step.ini --out " + dir + "/out 2>&1");
  EXPECT_EQ(step.status, 1);
  ASSERT_EQ(step.lines.size(), 2u) << step.out;
  EXPECT_EQ(step.lines[0].rfind("step.ini:1: [step]: the converted file does not load: " + dir + "/out/step.yaml:", 0), 0u) << step.lines[0];
  EXPECT_NE(step.lines[0].find("is also an ordinary move of the king"), std::string::npos) << step.lines[0];
  EXPECT_EQ(step.lines[1], "1 sections, 0 converted, 1 refused");
  EXPECT_FALSE(std::filesystem::exists(dir + "/out/step.yaml"));
  std::ofstream(dir + "/bad.ini") << "[a]\nnot a key\n";
  const auto bad = test::run_palace("import-ini " + dir + "/bad.ini --out " + dir + "/out 2>&1");
  EXPECT_EQ(bad.status, 2);
  EXPECT_EQ(bad.out, "error: bad.ini:2: \"not a key\": a line is a section header or key = value\n");
}

}  // namespace
}  // namespace palace
