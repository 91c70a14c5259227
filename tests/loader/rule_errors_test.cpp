// Bad rule files give one exact line, "FILE:LINE:COL: key.path: message", and nothing else.
// Each fixture in tests/loader/bad/ imports the real Janggi rules and breaks one thing.
#include <gtest/gtest.h>

#include "test_support.h"

namespace palace::test {
namespace {

std::string bad(const std::string& name) { return source_path("tests/loader/bad/" + name); }

// The RuleError text of loading and compiling `path`.
std::string load_error(const std::string& path) {
  return rule_error_of([&] { load_variant(path); });
}

const std::string RoyalHint = " (mark one piece `royal: true` and place exactly one)";

TEST(RuleErrors, UnknownKeyInMove) {
  EXPECT_EQ(load_error(bad("unknown_key.yaml")),
            bad("unknown_key.yaml") +
                ":7:9: pieces.horse.moves[0].lep: unknown key 'lep' (expected one of: step, slide, hop, leap, block, "
                "symmetry, range, only, from_zone, to_zone, leaves_ghost, takes_ghost)");
}

TEST(RuleErrors, WordWhereNumberExpected) {
  EXPECT_EQ(load_error(bad("files_not_number.yaml")),
            bad("files_not_number.yaml") + ":5:10: board.files: expected a whole number, got 'nine'");
}

TEST(RuleErrors, ListWhereNumberExpected) {
  EXPECT_EQ(load_error(bad("value_is_list.yaml")),
            bad("value_is_list.yaml") + ":6:12: pieces.horse.value: expected a number, got a list");
}

TEST(RuleErrors, SetupFileOffBoard) {
  EXPECT_EQ(load_error(bad("off_board_file.yaml")),
            bad("off_board_file.yaml") + ":7:21: setup.han.pieces.chariot[1]: 'j1' is not a point of the 9x10 board");
}

TEST(RuleErrors, SetupRankOffBoard) {
  EXPECT_EQ(load_error(bad("off_board_rank.yaml")),
            bad("off_board_rank.yaml") + ":7:16: setup.cho.pieces.general: 'e11' is not a point of the 9x10 board");
}

TEST(RuleErrors, MayNotJumpNamesNoPiece) {
  EXPECT_EQ(load_error(bad("jump_unknown_piece.yaml")),
            bad("jump_unknown_piece.yaml") + ":6:20: pieces.cannon.may_not_jump[0]: no piece named 'canon'");
}

TEST(RuleErrors, FormationNamesNoPiece) {
  EXPECT_EQ(load_error(bad("formation_unknown_piece.yaml")),
            bad("formation_unknown_piece.yaml") + ":5:20: formations.inner-elephant[0]: no piece named 'hrose'");
}

TEST(RuleErrors, PromotionToNoPiece) {
  EXPECT_EQ(load_error(bad("promotion_unknown_piece.yaml")),
            bad("promotion_unknown_piece.yaml") + ":8:21: pieces.soldier.promotion.to[1]: no piece named 'queen'");
}

TEST(RuleErrors, TwoPiecesOnOnePoint) {
  EXPECT_EQ(load_error(bad("two_on_one_point.yaml")),
            bad("two_on_one_point.yaml") + ":7:16: setup.han.pieces.cannon[0]: two pieces on a1");
}

// No piece is royal at all: nothing in the fixture to point at, so the side's set-up is named.
TEST(RuleErrors, NoRoyalPiece) {
  EXPECT_EQ(load_error(bad("no_royal_piece.yaml")),
            source_path("rules/janggi/setup.yaml") + ":11:5: setup.cho: cho has no royal piece" + RoyalHint);
}

// Han's general is placed nowhere (`general: []`): point at the line that did it.
TEST(RuleErrors, SideWithoutRoyal) {
  EXPECT_EQ(load_error(bad("side_without_royal.yaml")),
            bad("side_without_royal.yaml") + ":7:16: setup.han.pieces.general: han has no royal piece" + RoyalHint);
}

// The second general placed is the one to point at.
TEST(RuleErrors, TwoRoyals) {
  EXPECT_EQ(load_error(bad("two_royals.yaml")),
            bad("two_royals.yaml") + ":7:21: setup.cho.pieces.general[1]: cho has more than one royal piece" + RoyalHint);
}

TEST(RuleErrors, GuardOutsidePalace) {
  EXPECT_EQ(load_error(bad("guard_outside_palace.yaml")),
            bad("guard_outside_palace.yaml") + ":7:15: setup.han.pieces.guard[0]: guard on c2 is outside its zone 'palace'");
}

TEST(RuleErrors, UnknownZone) {
  EXPECT_EQ(load_error(bad("unknown_zone.yaml")),
            bad("unknown_zone.yaml") + ":6:14: pieces.general.stay_in: no zone named 'castle' (zones are declared under sides)");
}

TEST(RuleErrors, UnknownDirection) {
  EXPECT_EQ(load_error(bad("unknown_direction.yaml")),
            bad("unknown_direction.yaml") +
                ":7:25: pieces.soldier.moves[0].step[1]: unknown direction 'sideways' (forward, backward, left, right, "
                "forward-left, forward-right, backward-left, backward-right, orthogonal, diagonal, all)");
}

TEST(RuleErrors, MalformedYaml) {
  EXPECT_EQ(load_error(bad("unclosed_bracket.yaml")),
            bad("unclosed_bracket.yaml") + ":7:20: malformed YAML: end of sequence flow not found");
}

TEST(RuleErrors, DuplicatedKey) {
  EXPECT_EQ(load_error(bad("duplicate_key.yaml")), bad("duplicate_key.yaml") + ":7:5: pieces.horse.letter: key appears twice");
}

TEST(RuleErrors, MissingImport) {
  EXPECT_EQ(load_error(bad("missing_import.yaml")),
            bad("missing_import.yaml") + ":2:44: import[1]: no such file '" + source_path("rules/janggi/peices.yaml") + "'");
}

TEST(RuleErrors, ImportCycle) {
  EXPECT_EQ(load_error(bad("cycle_a.yaml")), bad("cycle_b.yaml") + ":2:10: import[0]: import cycle: " + bad("cycle_a.yaml") +
                                                 " imports itself through " + bad("cycle_b.yaml"));
}

TEST(RuleErrors, UnknownFormation) {
  EXPECT_EQ(load_error(bad("unknown_formation.yaml")),
            bad("unknown_formation.yaml") +
                ":7:13: setup.cho.formation.name: no formation named 'centre-elephant' (known: inner-elephant, "
                "left-elephant, outer-elephant, right-elephant)");
}

TEST(RuleErrors, FormationWrongSquareCount) {
  EXPECT_EQ(load_error(bad("formation_wrong_count.yaml")),
            bad("formation_wrong_count.yaml") +
                ":7:16: setup.han.formation.squares: formation 'inner-elephant' places 4 pieces but 3 squares are given");
}

// A compiled leap has room for three blocking points; a fourth must be refused, not written past the end.
TEST(RuleErrors, LeapWithTooManyBlocks) {
  EXPECT_EQ(load_error(bad("too_many_blocks.yaml")),
            bad("too_many_blocks.yaml") + ":8:16: pieces.horse.moves[0].block: a leap has at most 3 blocking points, got 4");
}

TEST(RuleErrors, MissingFile) {
  EXPECT_EQ(load_error(bad("no_such_variant.yaml")), bad("no_such_variant.yaml") + ": cannot open file");
}

TEST(RuleErrors, DirectoryIsNotARuleFile) {
  EXPECT_EQ(load_error(source_path("rules/janggi")), source_path("rules/janggi") + ": cannot open file: it is a directory");
}

// A name longer than the file system allows is a file that cannot be opened, not a crash.
TEST(RuleErrors, FileNameTooLong) {
  const std::string path = bad(std::string(300, 'a') + ".yaml");
  EXPECT_EQ(load_error(path), path + ": cannot open file");
}

}  // namespace
}  // namespace palace::test
