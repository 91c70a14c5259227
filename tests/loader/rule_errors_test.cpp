// Bad rule files give one exact line, "FILE:LINE:COL: key.path: message", and nothing else: through
// the library, and through `palace validate` as exit status 2 and that one line on the terminal.
// Fixtures in tests/loader/bad/ import the real rules and break one thing; tests/repro/ holds the
// inputs of the reliability issue, as they were reported.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>

#include "core/text_file.h"
#include "test_support.h"

namespace palace::test {
namespace {

const std::string RoyalHint = " (mark one piece `royal: true` and place exactly one)";
const std::string TopKeys = "(expected one of: language, name, description, board, sides, pieces, setup, formations, "
                            "compound_moves, rules, ends, scripts, uci, engine, castling, notation, hands)";

// The RuleError text of loading and compiling `path`.
std::string load_error(const std::string& path) {
  return rule_error_of([&] { load_variant(path); });
}

struct BadFile {
  const char* name;
  std::string file;      // relative to the source directory, or absolute
  std::string expected;  // "$F" stands for `file` as given, "$S/" for the source directory as given
};

void PrintTo(const BadFile& row, std::ostream* out) { *out << row.file; }

// `expected` for `file` given as `as_given`, from a directory that `source` names (a path ending in
// '/', or nothing for the source directory itself).
std::string expand(const BadFile& row, const std::string& as_given, const std::string& source) {
  std::string out = row.expected;
  for (const auto& [from, to] : {std::pair<std::string, std::string>{"$F", as_given}, {"$S/", source}})
    for (std::size_t at; (at = out.find(from)) != std::string::npos;) out.replace(at, from.size(), to);
  return out;
}

const std::string LongName = "tests/loader/bad/" + std::string(300, 'a') + ".yaml";

const BadFile BadFiles[] = {
    {"UnknownKeyInMove", "tests/loader/bad/unknown_key.yaml",
     "$F:7:9: pieces.horse.moves[0].lep: unknown key \"lep\" (expected one of: step, slide, hop, leap, block, "
     "symmetry, rides, range, only, from_zone, to_zone, leaves_ghost, takes_ghost, after_screen)"},
    {"WordWhereNumberExpected", "tests/loader/bad/files_not_number.yaml",
     "$F:5:10: board.files: expected a whole number, got \"nine\""},
    {"ListWhereNumberExpected", "tests/loader/bad/value_is_list.yaml",
     "$F:6:12: pieces.horse.value: expected a number, got a list"},
    {"SetupFileOffBoard", "tests/loader/bad/off_board_file.yaml",
     "$F:7:21: setup.han.pieces.chariot[1]: \"j1\" is not a point of the 9x10 board"},
    {"SetupRankOffBoard", "tests/loader/bad/off_board_rank.yaml",
     "$F:7:16: setup.cho.pieces.general: \"e11\" is not a point of the 9x10 board"},
    {"MayNotJumpNamesNoPiece", "tests/loader/bad/jump_unknown_piece.yaml",
     "$F:6:20: pieces.cannon.may_not_jump[0]: no piece named \"canon\""},
    {"FormationNamesNoPiece", "tests/loader/bad/formation_unknown_piece.yaml",
     "$F:5:20: formations.inner-elephant[0]: no piece named \"hrose\""},
    {"PieceMovesLikeItself", "tests/loader/bad/like_cycle.yaml",
     "$F:8:20: pieces.rook.moves[0].like: rook moves like queen, which moves like rook again: a piece cannot be "
     "made of itself"},
    {"RoyalOnSideWithoutRoyal", "tests/loader/bad/royal_without_royal.yaml",
     "$S/rules/chess/setup.yaml:9:13: setup.white.pieces.king: white plays without a royal piece (royal: false) "
     "but a king is placed"},
    {"CastlingWingLetteredLikeAFile", "tests/loader/bad/castling_file_letter.yaml",
     "$F:6:25: castling.wings.queen-side.right: expected one letter that names no file (file letters name the "
     "partners' files), got \"B\""},
    {"PromotionToNoPiece", "tests/loader/bad/promotion_unknown_piece.yaml",
     "$F:8:21: pieces.soldier.promotion.to[1]: no piece named \"queen\""},
    {"TwoPiecesOnOnePoint", "tests/loader/bad/two_on_one_point.yaml",
     "$F:7:16: setup.han.pieces.cannon[0]: two pieces on a1: the han chariot placed at $S/rules/janggi/setup.yaml:23:17 "
     "is already there"},
    {"GhostLeapWithAGap", "tests/loader/bad/ghost_gap.yaml",
     "$F:12:83: pieces.pawn.moves[0].leaves_ghost: leaves_ghost needs a leap with one direction (symmetry: none) whose "
     "blocking points run in a line up to the point next to where it lands"},
    {"ReachingZoneUnknown", "tests/loader/bad/reaching_zone_unknown.yaml",
     "$F:5:36: ends.zone_reached.zone: no zone named \"hill\" (zones are declared under sides)"},
    {"BetzaUnknownAtom", "tests/loader/bad/betza_unknown_atom.yaml",
     "$F:7:16: pieces.queen.moves[0].betza: \"QY\": character 2 (\"Y\"): no such atom (W F D N A H C Z G K R B Q, L J)"},
    {"BetzaModifiersWithoutAtom", "tests/loader/bad/betza_no_atom.yaml",
     "$F:7:16: pieces.queen.moves[0].betza: \"Qfm\": character 2 (\"f\"): modifiers at the end name no atom"},
    {"BetzaLameRider", "tests/loader/bad/betza_lame_rider.yaml",
     "$F:7:16: pieces.queen.moves[0].betza: \"nNN\": character 1 (\"n\"): n (lame) belongs to a leap, and NN rides"},
    {"BetzaFirstMoveWithoutZone", "tests/loader/bad/betza_first_move.yaml",
     "$F:7:17: pieces.pawn.moves[0].betza: \"fmWfcFifmnD\": character 7 (\"i\"): i (a first move) needs "
     "`initial_zone: ZONE` beside `betza`, the zone where a piece's first moves start"},
    {"CheckLimitZero", "tests/loader/bad/check_limit_zero.yaml",
     "$F:5:17: ends.checks_given: expected a number from 1 to 99, got 0"},
    {"ExtinctionWithoutKinds", "tests/loader/bad/extinction_no_kinds.yaml",
     "$F:5:23: ends.extinction.kinds: name at least one kind, e.g. [queen, rook]"},
    {"CapturesWord", "tests/loader/bad/captures_word.yaml", "$F:5:13: rules.captures: expected one of: optional, compulsory"},
    {"ExplosionSparesUnknown", "tests/loader/bad/explosion_spares_unknown.yaml",
     "$F:5:30: rules.explosion.spares[1]: no piece named \"soldier\""},
    // Han's general is placed nowhere (`general: []`): point at the line that did it.
    {"SideWithoutRoyal", "tests/loader/bad/side_without_royal.yaml",
     "$F:7:16: setup.han.pieces.general: han has no royal piece" + RoyalHint},
    // The second general placed is the one to point at.
    {"TwoRoyals", "tests/loader/bad/two_royals.yaml",
     "$F:7:21: setup.cho.pieces.general[1]: cho has more than one royal piece" + RoyalHint},
    {"GuardOutsidePalace", "tests/loader/bad/guard_outside_palace.yaml",
     "$F:7:15: setup.han.pieces.guard[0]: guard on c2 is outside its zone palace"},
    {"RanksFromWord", "tests/loader/bad/ranks_from_word.yaml",
     "$F:5:15: board.ranks_from: expected bottom (rank 1 is the first side's own edge) or top"},
    {"UnknownZone", "tests/loader/bad/unknown_zone.yaml",
     "$F:6:14: pieces.general.stay_in: no zone named \"castle\" (zones are declared under sides)"},
    {"UnknownDirection", "tests/loader/bad/unknown_direction.yaml",
     "$F:7:25: pieces.soldier.moves[0].step[1]: unknown direction \"sideways\" (forward, backward, left, right, "
     "forward_left, forward_right, backward_left, backward_right, orthogonal, diagonal, all)"},
    {"MalformedYaml", "tests/loader/bad/unclosed_bracket.yaml", "$F:7:20: malformed YAML: end of sequence flow not found"},
    {"DuplicatedKey", "tests/loader/bad/duplicate_key.yaml", "$F:7:5: pieces.horse.letter: key appears twice"},
    {"MissingImport", "tests/loader/bad/missing_import.yaml",
     "$F:2:44: import[1]: cannot import \"$S/rules/janggi/peices.yaml\": cannot open file"},
    {"ImportCycle", "tests/loader/bad/cycle_a.yaml",
     "$S/tests/loader/bad/cycle_b.yaml:2:10: import[0]: import cycle: \"$S/tests/loader/bad/cycle_a.yaml\" imports "
     "itself through \"$S/tests/loader/bad/cycle_b.yaml\""},
    {"UnknownFormation", "tests/loader/bad/unknown_formation.yaml",
     "$F:7:13: setup.cho.formation.name: no formation named \"centre-elephant\" (known: inner-elephant, "
     "outer-elephant, left-elephant, right-elephant)"},
    {"FormationWrongSquareCount", "tests/loader/bad/formation_wrong_count.yaml",
     "$F:7:15: setup.han.formation.points: formation inner-elephant places 4 pieces but 3 points are given"},
    // Formations are switched on the compiled variant, so each must fit every side's formation points.
    {"FormationDoesNotFit", "tests/loader/bad/formation_does_not_fit.yaml",
     "$F:5:16: formations.three-horse: formation three-horse places 3 pieces but cho's formation has 4 points"},
    {"FormationOutsideZone", "tests/loader/bad/formation_outside_zone.yaml",
     "$F:5:16: formations.guard-wings: guard on b10 (cho's formation) is outside its zone palace"},
    {"FormationAddsRoyal", "tests/loader/bad/formation_adds_royal.yaml",
     "$F:6:10: formations.crown: formation crown changes how many royal pieces white has (mark one piece `royal: true` "
     "and place exactly one)"},
    // A compiled leap has room for three blocking points; a fourth must be refused, not written past the end.
    {"LeapWithTooManyBlocks", "tests/loader/bad/too_many_blocks.yaml",
     "$F:8:16: pieces.horse.moves[0].block: a leap has at most 3 blocking points, got 4"},
    // The chase tables removed (`chase: ~` and the rest): perpetual_chase, written in the imported file, is named.
    {"PerpetualChaseWithoutTable", "tests/loader/bad/chase_without_table.yaml",
     "$S/variants/xiangqi.yaml:23:22: ends.repetition.perpetual_chase: say under `chase:` which pieces chase which, "
     "e.g. chase: {chariot: [horse]}"},
    {"RepetitionWonByAnUnknownSide", "tests/loader/bad/repetition_winner_unknown.yaml",
     "$F:6:22: ends.repetition.result.winner: no side named \"black\""},
    {"PerpetualSanctionUnknown", "tests/loader/bad/repetition_vary_unknown.yaml",
     "$F:6:22: ends.repetition.perpetual_check: expected one of: loss, illegal, vary, draw"},
    {"ChasingTheRoyal", "tests/loader/bad/chase_royal.yaml",
     "$F:6:30: ends.repetition.chase.chariot[1]: general is royal: attacking it is a check, not a chase"},
    {"ChaseZoneUnknown", "tests/loader/bad/chase_zone_unknown.yaml",
     "$F:6:28: ends.repetition.chase_zones.soldier: no zone named \"river\" (zones are declared under sides)"},
    {"AfterScreenOnASlide", "tests/loader/bad/after_screen_on_slide.yaml",
     "$F:7:43: pieces.chariot.moves[0].after_screen: after_screen belongs to a hop"},
    {"FaceForThreeSides", "tests/loader/bad/face_three_sides.yaml", "$F:6:11: pieces.horse.face: give one face, or one per side"},
    {"FaceTooLong", "tests/loader/bad/face_too_long.yaml",
     "$F:6:17: pieces.horse.face[1]: expected a face of 1 to 12 bytes, got \"a horse of many words\""},
    {"HopLimitsDisagree", "tests/loader/bad/hop_limits_disagree.yaml",
     "$F:8:9: pieces.cannon.moves: two hops along one direction need the same after_screen"},
    {"MissingFile", "tests/loader/bad/no_such_variant.yaml", "$F: cannot open file"},
    {"DirectoryIsNotARuleFile", "rules/janggi", "$F: cannot open file: it is a directory"},
    // A name longer than the file system allows is a file that cannot be opened, not a crash.
    {"FileNameTooLong", LongName, "$F: cannot open file"},
    // A device never ends: refused before reading, by the file and by an import.
    {"DeviceFile", "/dev/zero", "$F: cannot open file: not a regular file"},
    {"ImportOfDevice", "tests/loader/bad/import_device.yaml",
     "$F:1:10: import[0]: cannot import \"/dev/urandom\": cannot open file: not a regular file"},
    // Nine ranks for Janggi's ten: the palace is where it shows, and the message says why.
    {"WrongRankCount", "tests/loader/bad/wrong_rank_count.yaml",
     "$S/rules/janggi/board.yaml:23:15: sides.cho.zones.palace: rectangle \"d8-f10\": \"f10\" is not a point of the "
     "9x9 board"},
    // Nested aliases ask for 9^7 and 9^8 values from a few hundred bytes; the copying stops at the limit.
    {"AliasBomb7", "tests/repro/billion7.yaml",
     "$F:2:19: d5[0][5][7][6][5][0]: aliases repeat more than 1048576 bytes of values (see Anchors and aliases in "
     "rules/README.md)"},
    {"AliasBomb8", "tests/repro/billion8.yaml",
     "$F:2:19: d5[0][5][7][6][5][0]: aliases repeat more than 1048576 bytes of values (see Anchors and aliases in "
     "rules/README.md)"},
    // A key that is no word is not echoed: the file is likely no rule file (an import of /etc/shadow).
    {"KeyWithNewlines", "tests/repro/nlkey.yaml", "$F:2:1: a key that is not a word, so no rule key " + TopKeys},
    {"ImportOfAFileThatIsNoRuleFile", "tests/repro/imports_secret.yaml",
     "$S/tests/repro/secret_like.txt:1:1: a key that is not a word, so no rule key " + TopKeys},
    // Both sides on one point: the second placement would silently remove the first piece.
    {"TwoSidesOnOnePoint", "tests/repro/clash.yaml",
     "$F:5:20: setup.han.pieces.cannon[1]: two pieces on e7: the cho soldier placed at $S/rules/janggi/setup.yaml:17:25 "
     "is already there"},
    {"TwoKingsOnOnePoint", "tests/repro/samesq.yaml",
     "$F:8:61: setup.black.pieces.king: two pieces on a1: the white king placed at $F:8:32 is already there"},
    {"PromotionToRoyal", "tests/repro/p_promo_royal.yaml", "$F:8:69: pieces.x.promotion.to[0]: may not promote to king: it is royal"},
    {"CastlingOntoOwnPiece", "tests/repro/castle-noempty.yaml",
     "$F:3:60: compound_moves.extra.to: g1 must be listed under empty: a compound move lands only on an empty point or on "
     "the point the other piece leaves"},
    {"CastlingLandingNotEmpty", "tests/repro/partial.yaml",
     "$F:2:71: compound_moves.x.to: g1 must be listed under empty: a compound move lands only on an empty point or on "
     "the point the other piece leaves"},
    {"CastlingIsAnOrdinaryMove", "tests/repro/ambig.yaml",
     "$F:2:71: compound_moves.x.to: e1f1 is also an ordinary move of the king; a compound move needs a from and to of "
     "its own"},
    {"CastlingGoesNowhere", "tests/repro/r_cm_same.yaml",
     "$F:2:71: compound_moves.x.to: the piece must move, but from and to are both e1"},
    // One past the largest board, 16x16 (rules/README.md).
    {"SeventeenRanks", "tests/loader/bad/seventeen_ranks.yaml", "$F:3:16: board.ranks: expected a number from 2 to 16, got 17"},
    {"SeventeenFiles", "tests/loader/bad/seventeen_files.yaml", "$F:3:16: board.files: expected a number from 2 to 16, got 17"},
    {"SearchCheckExtensionWord", "tests/loader/bad/search_check_extension.yaml",
     "$F:5:20: engine.search.extend_checks: expected one of: all, safe"},
    {"SearchContinuationPliesOutOfRange", "tests/loader/bad/search_continuation_plies.yaml",
     "$F:4:55: engine.search.continuation_plies: expected a number from 1 to 2, got 3"},
    {"SearchUnknownKey", "tests/loader/bad/search_unknown_key.yaml",
     "$F:5:5: engine.search.null_move: unknown key \"null_move\" (expected one of: reduce_evasions, extend_checks, "
     "continuation_plies)"},
    {"EndgameCountWithoutLimit", "tests/loader/bad/count_without_limit.yaml",
     "$F:5:18: ends.endgame_count: say how far a side counts: `board:`, `bare:` or both"},
    {"EndgameCountBareListsTheRoyal", "tests/loader/bad/count_bare_royal.yaml",
     "$F:7:18: ends.endgame_count.bare[0].pieces: king is royal: list the pieces besides it"},
    {"MoveLimitWithNothing", "tests/loader/bad/move_limit_empty.yaml",
     "$F:5:15: ends.move_limit: expected `plies:`, `claim:` or `reset_by:`"},
    {"DeadMaterialOnlyUnknownPiece", "tests/loader/bad/dead_only_unknown.yaml",
     "$F:5:36: ends.dead_material[0].only[1]: no piece named \"minister\""},
    {"RemovedKindStillInTheEvaluation", "tests/loader/bad/removed_kind_in_eval.yaml",
     "$S/rules/chess/eval.yaml:12:21: engine.eval.phase.knight: no piece named \"knight\": $F:4:3 takes it away, so "
     "take this entry away too (`~`)"},
    {"HandAtTheStartWithoutDrops", "tests/loader/bad/hand_without_hands.yaml",
     "$F:5:11: setup.white.hand: a hand at the start needs drops: add a hands: section"},
    {"RoyalInHandAtTheStart", "tests/loader/bad/royal_in_hand.yaml",
     "$F:5:18: setup.black.hand.king: a royal piece (king) cannot start in a hand"},
    {"DemotedKindInHandAtTheStart", "tests/loader/bad/demoted_kind_in_hand.yaml",
     "$F:5:28: setup.white.hand.promoted-queen: promoted-queen is held as pawn (hands.demote): put that in the hand"},
    {"RepetitionCountOverriddenBelowTheClaim", "tests/loader/bad/repetition_count_below_claim.yaml",
     "$F:5:23: ends.repetition.count: expected a number above the claim, 3 ($S/variants/chess.yaml:18:12)"},
};

class RuleErrors : public testing::TestWithParam<BadFile> {};

TEST_P(RuleErrors, LoadingGivesTheExactMessage) {
  const BadFile& row = GetParam();
  const bool absolute = row.file[0] == '/';
  const std::string path = absolute ? row.file : source_path(row.file);
  EXPECT_EQ(load_error(path), expand(row, path, source_path("")));
}

TEST_P(RuleErrors, ValidateSaysItInOneLineAndFails) {
  const BadFile& row = GetParam();
  const PalaceRun run = run_palace("validate " + shell_quoted(row.file) + " 2>&1");
  EXPECT_EQ(run.status, 2);
  EXPECT_EQ(run.lines, std::vector<std::string>{"error: " + expand(row, row.file, "")});
}

INSTANTIATE_TEST_SUITE_P(BadFiles, RuleErrors, testing::ValuesIn(BadFiles),
                         [](const testing::TestParamInfo<BadFile>& info) { return std::string(info.param.name); });

// Chess960 castling lands the king on its rook's start: no `empty` entry is needed for that point.
TEST(RuleChecks, CastlingOntoThePartnersStartIsAccepted) {
  EXPECT_EQ(load_error(source_path("tests/repro/c960.yaml")), "no error");
}

TEST(RuleChecks, EveryVariantLoads) {
  for (const auto& entry : std::filesystem::directory_iterator(source_path("variants"))) {
    if (entry.path().extension() != ".yaml") continue;
    EXPECT_EQ(load_error(entry.path().string()), "no error") << entry.path();
  }
}

TEST(RuleChecks, OneKindIsNotPlural) {
  const PalaceRun run = run_palace("validate tests/loader/one_kind.yaml");
  EXPECT_EQ(run.status, 0);
  ASSERT_EQ(run.lines.size(), 1u);
  EXPECT_EQ(run.lines[0].rfind("tests/loader/one_kind.yaml: ok: one kind, 5x5 board, 1 kind of piece, ", 0), 0u)
      << run.lines[0];
}

void write_file(const std::string& path, const std::string& text) { std::ofstream(path, std::ios::binary) << text; }

// 20000 unknown keys: the first is reported, without a pass over the others per key (the input of
// the reliability issue had 100,000, which are now more values than a rule file holds; written here
// rather than committed: it is 20,000 lines).
TEST(RuleChecks, ManyUnknownKeysReportTheFirst) {
  const std::string path = temp_path("mk20000.yaml");
  std::string text = "name: x\n";
  for (int i = 0; i < 20000; ++i) text.append("k").append(std::to_string(i)).append(": 1\n");
  write_file(path, text);
  const std::string expected = path + ":2:1: k0: unknown key \"k0\" " + TopKeys;
  EXPECT_EQ(load_error(path), expected);
  const PalaceRun run = run_palace("validate " + shell_quoted(path) + " 2>&1");
  EXPECT_EQ(run.status, 2);
  EXPECT_EQ(run.lines, std::vector<std::string>{"error: " + expected});
}

TEST(RuleChecks, FileOverTheSizeLimitIsRefused) {
  const std::string path = temp_path("big.yaml");
  write_file(path, "# " + std::string(MaxTextFileBytes, 'x') + "\n");
  EXPECT_EQ(load_error(path), path + ": file is larger than the limit of 1048576 bytes");
}

// Each file of a level imports both files of the next: read once each, 2 x 24 files load at
// once; read per import, they would be read 2^24 times (ctest's timeout would stop it).
std::string write_diamond(const std::string& folder, int levels, const std::string& bottom_import) {
  std::filesystem::create_directories(folder);
  for (int level = 0; level < levels; ++level) {
    const std::string next = level + 1 < levels ? "[a" + std::to_string(level + 1) + ".yaml, b" +
                                                      std::to_string(level + 1) + ".yaml]"
                                                : "[" + bottom_import + "]";
    for (const char* file : {"a", "b"})
      write_file(folder + "/" + file + std::to_string(level) + ".yaml",
                 "import: " + next + "\ndescription: level " + std::to_string(level) + "\n");
  }
  return folder + "/a0.yaml";
}

TEST(RuleChecks, DiamondImportsLoadEachFileOnce) {
  const std::string top = write_diamond(temp_path("diamond"), 24, variant_path("janggi"));
  const auto variant = load_variant(top);
  EXPECT_EQ(variant->rules().name, "janggi");
  EXPECT_EQ(variant->rules().pieces.size(), 7u);
}

TEST(RuleChecks, DiamondImportsStopAtTheFirstError) {
  const std::string folder = temp_path("diamond_bad");
  const std::string top = write_diamond(folder, 24, source_path("tests/loader/bad/unclosed_bracket.yaml"));
  EXPECT_EQ(load_error(top), source_path("tests/loader/bad/unclosed_bracket.yaml") +
                                 ":7:20: malformed YAML: end of sequence flow not found");
}

TEST(TextFile, ReadsARegularFileWhole) {
  const std::string path = temp_path("small.txt");
  write_file(path, std::string("two\nlines\0nul", 13));
  EXPECT_EQ(read_text_file(path), std::string("two\nlines\0nul", 13));
}

TEST(TextFile, RefusesPastItsLimit) {
  const std::string path = temp_path("eleven.txt");
  write_file(path, "eleven byte");
  EXPECT_EQ(read_text_file(path, 11), "eleven byte");
  try {
    read_text_file(path, 10);
    FAIL() << "read past the limit";
  } catch (const FileError& e) {
    EXPECT_STREQ(e.what(), (path + ": file is larger than the limit of 10 bytes").c_str());
    EXPECT_EQ(e.reason(), "file is larger than the limit of 10 bytes");
  }
}

TEST(TextFile, RefusesWhatIsNotARegularFile) {
  for (const std::string path : {"/dev/zero", "/dev/urandom", "/dev/null"}) {
    try {
      read_text_file(path);
      ADD_FAILURE() << "read " << path;
    } catch (const FileError& e) {
      EXPECT_EQ(e.reason(), "cannot open file: not a regular file") << path;
    }
  }
}

}  // namespace
}  // namespace palace::test
