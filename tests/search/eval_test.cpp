// The evaluation compiled from pieces' values and `engine.eval:` sections, and the loader's errors for a
// bad `engine.eval:` section.
#include <gtest/gtest.h>

#include <fstream>
#include <memory>

#include "search/eval.h"
#include "test_support.h"

namespace palace::test {
namespace {

// Chess with `eval_text` laid over its `engine.eval:` section, loaded from a temporary file.
std::shared_ptr<const Variant> chess_with(const std::string& eval_text) {
  return load_variant(overlay_path("chess", eval_text));
}

// Chess's tables, material and mobility, and a king's shelter, alone.
const std::string untapered_sheltered =
    "engine:\n eval:\n  phase: ~\n  passed: ~\n  royal_attack: ~\n  threat: ~\n  hanging: ~\n  pair: ~\n  structure: ~\n  open_file: ~\n  tempo: ~\n"
    "  pieces:\n    pawn: {endgame: ~}\n    knight: {endgame: ~}\n    bishop: {endgame: ~}\n    rook: {endgame: ~}\n"
    "    queen: {endgame: ~}\n    king: {endgame: ~}\n";
// Without the shelter.
const std::string untapered = untapered_sheltered + "  shelter: ~\n";

// How much more the evaluation of `with` scores the position `fen` than that of `without`.
int gain(const std::shared_ptr<const Variant>& with, const std::shared_ptr<const Variant>& without,
         const std::string& fen) {
  const search::Evaluation with_eval(*with), without_eval(*without);
  Position a(with), b(without);
  a.set_fen(fen);
  b.set_fen(fen);
  return with_eval(a) - without_eval(b);
}

TEST(Evaluation, TablesReadFromEachSidesView) {
  const auto chess = load_variant(variant_path("chess"));
  const search::Evaluation eval(*chess);
  // Level but for the tempo, 30 for the side to move.
  EXPECT_EQ(eval(Position(chess)), 30);
  // e2 -15 to e4 +17 in the pawn's opening table, and e2 opened to the f1 bishop (5 points x 4),
  // the queen (4 x 2) and the g1 knight (1 x 4), seen by Black to move.
  EXPECT_EQ(eval(after_moves(chess, "e2e4")), 30 - 32 - 5 * 4 - 4 * 2 - 1 * 4);
  // Black's e7e5 mirrors it: level again.
  EXPECT_EQ(eval(after_moves(chess, "e2e4 e7e5")), 30);
  EXPECT_EQ(eval.value(chess->rules().kind_by_name("knight")), 337);
  EXPECT_EQ(eval.value(chess->rules().kind_by_name("rook")), 477);
}

TEST(Evaluation, MobilityCountsEachPointAPieceCouldMoveTo) {
  const auto chess = chess_with(untapered);
  const search::Evaluation eval(*chess);
  Position open(chess), hemmed(chess);
  // The same bishop on d4, White to move: with the board to itself it reaches 13 points; boxed in
  // by its own pawns on c3, e3 and e5 and Black's pawn on c5 it reaches c5 alone.
  open.set_fen("4k3/8/8/8/3B4/8/8/4K3 w - - 0 1");
  hemmed.set_fen("4k3/8/8/2p1P3/3B4/2P1P3/8/4K3 w - - 0 1");
  const int pawns = eval(hemmed) - eval(open);
  Position pawns_alone(chess), none(chess);
  pawns_alone.set_fen("4k3/8/8/2p1P3/8/2P1P3/8/4K3 w - - 0 1");
  none.set_fen("4k3/8/8/8/8/8/8/4K3 w - - 0 1");
  // What the pawns add by themselves, and the bishop's 12 lost points at 4 centipawns each.
  EXPECT_EQ(pawns, eval(pawns_alone) - eval(none) - 12 * 4);
}

TEST(Evaluation, EndgameTablesTakeOverAsMaterialComesOff) {
  const auto chess = chess_with(
      "engine:\n eval:\n  passed: ~\n  royal_attack: ~\n  pair: ~\n  mobility: ~\n  structure: ~\n  open_file: ~\n  tempo: ~\n");
  const search::Evaluation eval(*chess);
  Position pos(chess);
  // Kings alone: the endgame table, White's a1 -53 against Black's e5 +27.
  pos.set_fen("8/8/8/4k3/8/8/8/K7 w - - 0 1");
  EXPECT_EQ(eval(pos), -53 - 27);
  // A rook each leaves 4 of the set-up's 24. In the opening White's a1 -15 and h1 -26 against
  // Black's e5 -46 and a8 -19 weigh 4; in the endgame -53 and -20 against 27 and -9 weigh 20.
  pos.set_fen("r7/8/8/4k3/8/8/8/K6R w - - 0 1");
  EXPECT_EQ(eval(pos), ((-15 - 26 + 46 + 19) * 4 + (-53 - 20 - 27 + 9) * 20) / 24);
}

// Chess's tables and passed pawns, alone.
const std::string tables_and_passed =
    "engine:\n eval:\n  royal_attack: ~\n  pair: ~\n  mobility: ~\n  structure: ~\n  open_file: ~\n  tempo: ~\n";
// Without the royals' distance to a passed pawn.
const std::string passed_by_rank = tables_and_passed + "  passed:\n    pawn:\n      royal_distance: ~\n";

TEST(Evaluation, PassedPawnsScoreByRank) {
  const auto chess = chess_with(passed_by_rank);
  const search::Evaluation eval(*chess);
  Position pos(chess);
  // With no piece left the endgame figures count alone. White's d5 pawn: 94, 5 for its point,
  // 66 passed on its fourth rank from the far one; the kings' -28 cancel.
  pos.set_fen("4k3/8/8/3P4/8/8/8/4K3 w - - 0 1");
  EXPECT_EQ(eval(pos), 165);
  // Black's e7 pawn stands ahead of it on the next file, and d5 ahead of e7 as Black sees it:
  // neither is passed. e7 scores 94 + 13.
  pos.set_fen("4k3/4p3/8/3P4/8/8/8/4K3 w - - 0 1");
  EXPECT_EQ(eval(pos), 99 - 107);
  // On g7 it is two files away: both are passed, g7 by 15 on its second rank, and 94 + 2.
  pos.set_fen("4k3/6p1/8/3P4/8/8/8/4K3 w - - 0 1");
  EXPECT_EQ(eval(pos), 165 - 111);
  // Side by side on the fifth rank, neither stands ahead of the other: e5 scores 94 - 7 + 46.
  pos.set_fen("4k3/8/8/3Pp3/8/8/8/4K3 w - - 0 1");
  EXPECT_EQ(eval(pos), 165 - 133);
}

TEST(Evaluation, PassedPawnsScoreByTheRoyalsDistanceToThePointAhead) {
  const auto plain = chess_with(passed_by_rank);
  const auto escorted = chess_with(tables_and_passed +
                                   "  passed:\n    pawn:\n      royal_distance:\n"
                                   "        own: [0, -1, -2, -3, -4, -5, -6, 0]\n"
                                   "        enemy: [0, 10, 20, 30, 40, 50, 60, 0]\n");
  // White's d5 pawn, on its fifth rank, looks at d6: its own king on e1 is 5 points away, Black's
  // on h8 4 points.
  EXPECT_EQ(gain(escorted, plain, "7k/8/8/3P4/8/8/8/4K3 w - - 0 1"), -3 * 5 + 30 * 4);
  // Black's d4 pawn is on its fifth rank too, seen by Black: e8 to d3 is 5 points, h1 to d3 4.
  EXPECT_EQ(gain(escorted, plain, "4k3/8/8/8/3p4/8/8/7K b - - 0 1"), -3 * 5 + 30 * 4);
  // b3 looks at b4: b1 is 3 points away, and h8, 6 away, counts as 5, as far as a royal is counted.
  EXPECT_EQ(gain(escorted, plain, "7k/8/8/8/8/1P6/8/1K6 w - - 0 1"), -5 * 3 + 50 * 5);
}

TEST(Evaluation, RoyalAttackCountsPointsNextToTheEnemyRoyal) {
  const auto plain = chess_with("engine:\n eval:\n  royal_attack: ~\n");
  const auto attacking = chess_with("engine:\n eval:\n  royal_attack: {knight: 10, queen: 15}\n");
  // The d6 knight reaches f7 next to e8 (e8 itself does not count); the h4 queen e7 and d8.
  EXPECT_EQ(gain(attacking, plain, "4k3/8/3N4/8/7Q/8/8/4K3 w - - 0 1"), 10 + 2 * 15);
  // Black to move sees the same from its side.
  EXPECT_EQ(gain(attacking, plain, "4k3/8/3N4/8/7Q/8/8/4K3 b - - 0 1"), -40);
}

TEST(Evaluation, ThreatCountsDearerEnemyPiecesAPieceCouldTake) {
  const auto plain = chess_with("engine:\n eval:\n  threat: ~\n");
  const auto threatening = chess_with("engine:\n eval:\n  threat: {pawn: 60, knight: 30}\n");
  // d4 could take the e5 knight, worth more, and the c5 pawn, worth the same; c5 could take d4.
  EXPECT_EQ(gain(threatening, plain, "4k3/8/8/2p1n3/3P4/8/8/4K3 w - - 0 1"), 60);
  // The e5 knight could take the d3 rook; the rook could take nothing worth more.
  EXPECT_EQ(gain(threatening, plain, "4k3/8/8/2p1n3/3P4/3R4/8/4K3 w - - 0 1"), 60 - 30);
}

TEST(Evaluation, HangingCountsUndefendedEnemyPiecesNoDearerThanTheTaker) {
  const auto plain = chess_with("engine:\n eval:\n  hanging: ~\n");
  const auto hanging = chess_with("engine:\n eval:\n  hanging: {bishop: 40, rook: 25}\n");
  // The c3 bishop could take the e5 knight, which nothing defends; the a1 rook the a7 pawn.
  EXPECT_EQ(gain(hanging, plain, "4k3/p7/8/4n3/8/2B5/8/R3K3 w - - 0 1"), 40 + 25);
  // The f6 pawn defends the knight, the b7 pawn the a6 pawn.
  EXPECT_EQ(gain(hanging, plain, "4k3/1p6/p4p2/4n3/8/2B5/8/R3K3 w - - 0 1"), 0);
  // A rook guards along its file, a king next to it.
  EXPECT_EQ(gain(hanging, plain, "3rk3/8/8/3n4/8/1B6/8/4K3 w - - 0 1"), 0);
  EXPECT_EQ(gain(hanging, plain, "4k3/3n4/8/1B6/8/8/8/4K3 w - - 0 1"), 0);
  // A dearer piece is a threat, not a hanging piece: the bishop could take the undefended rook.
  EXPECT_EQ(gain(hanging, plain, "4k3/8/8/4r3/8/2B5/8/3K4 w - - 0 1"), 0);
  // Black to move sees the knight hanging against it.
  EXPECT_EQ(gain(hanging, plain, "4k3/8/8/4n3/8/2B5/8/4K3 b - - 0 1"), -40);
}

// The memo of the last walks (search/eval.h) takes a piece's walk again only where nothing it read
// changed: a ghost is read though its point stays empty. The d4 pawn may take the ghost e2e4 leaves
// on e3, one point more to move to, and then not.
TEST(Evaluation, TheMemoSeesAGhostComeAndGo) {
  const auto chess = chess_with("engine:\n eval:\n  mobility: {pawn: 7}\n");
  const search::Evaluation eval(*chess);
  const auto memo = std::make_unique<search::EvalMemo>();
  Position pos(chess);
  pos.set_fen("4k3/8/8/8/3p4/8/4P3/4K3 w - - 0 1");
  const int before = eval(pos, *memo);
  EXPECT_EQ(before, eval(pos));
  play_moves(pos, "e2e4");
  EXPECT_EQ(eval(pos, *memo), eval(pos));
  Position no_ghost(chess);
  no_ghost.set_fen("4k3/8/8/8/3pP3/8/8/4K3 b - - 0 1");
  EXPECT_EQ(eval(pos), eval(no_ghost) + 7);
  play_moves(pos, "e8d8");
  EXPECT_EQ(eval(pos, *memo), eval(pos));
}

TEST(Evaluation, TempoGoesToTheSideToMove) {
  const auto plain = chess_with("engine:\n eval:\n  tempo: ~\n");
  const auto moving = chess_with("engine:\n eval:\n  tempo: 20\n");
  for (const char* fen : {"4k3/8/8/8/8/8/8/4K3 w - - 0 1", "4k3/8/8/8/8/8/8/4K3 b - - 0 1"})
    EXPECT_EQ(gain(moving, plain, fen), 20) << fen;
}

TEST(Evaluation, PairOfAKind) {
  const auto plain = chess_with("engine:\n eval:\n  pair: ~\n");
  const auto chess = load_variant(variant_path("chess"));
  // Two bishops against one: 22 for White's pair alone.
  EXPECT_EQ(gain(chess, plain, "2b1k3/8/8/8/8/8/8/2B1KB2 w - - 0 1"), 22);
}

TEST(Evaluation, IsolatedAndDoubledPiecesOfAKind) {
  const auto plain = chess_with("engine:\n eval:\n  structure: ~\n  open_file: ~\n");
  const auto scored = chess_with("engine:\n eval:\n  structure:\n    pawn: {isolated: -10, doubled: -20, endgame: ~}\n");
  // d2 and h2 have no pawn on a file beside them; a2 and b2 stand by each other.
  EXPECT_EQ(gain(scored, plain, "4k3/8/8/8/8/8/PP1P3P/4K3 w - - 0 1"), -20);
  // Two on the d-file: one too many, and both alone.
  EXPECT_EQ(gain(scored, plain, "4k3/8/8/8/8/3P4/PP1P4/4K3 w - - 0 1"), -20 - 20);
  // Black's three on the h-file beside g7: two too many, none alone; seen by Black to move.
  EXPECT_EQ(gain(scored, plain, "4k3/6pp/7p/7p/8/8/PP6/4K3 b - - 0 1"), -40);
}

TEST(Evaluation, OpenAndHalfOpenFiles) {
  const auto plain = chess_with("engine:\n eval:\n  structure: ~\n  open_file: ~\n");
  const auto scored =
      chess_with("engine:\n eval:\n  structure: {pawn: {}}\n  open_file: {rook: {open: 25, half_open: 10}}\n");
  // h1 on a file with no pawn, a1 on one with only Black's; a8 stands behind its own a7.
  EXPECT_EQ(gain(scored, plain, "r3k3/p7/8/8/8/8/1P6/R3K2R w - - 0 1"), 25 + 10);
}

TEST(Evaluation, ShelterCountsTheNearestCoverOnTheRoyalsFiles) {
  const auto plain = chess_with(untapered);
  const auto sheltered = chess_with(untapered_sheltered + "  shelter: {kind: pawn, bonus: [20, 10], zone: ~}\n");
  const auto zoned = chess_with(untapered_sheltered + "  shelter: {kind: pawn, bonus: [20, 10]}\n");
  // g1's cover: f2 one rank ahead, g3 two (g4 behind it does not count), none on the h-file; e8's
  // d7 and e7, each one rank ahead (c7 is two files away).
  const std::string fen = "4k3/2ppp3/8/8/6P1/6P1/5P2/6K1 w - - 0 1";
  EXPECT_EQ(gain(sheltered, plain, fen), 20 + 10 - 2 * 20);
  // In chess's castled zone the e8 king stands outside it, and its cover counts nothing.
  EXPECT_EQ(gain(zoned, plain, fen), 20 + 10);
}

TEST(Evaluation, ZoneBonusAcrossTheRiver) {
  const auto xiangqi = load_variant(variant_path("xiangqi"));
  const search::Evaluation eval(*xiangqi);
  Position pos(xiangqi);
  const int tempo = 20;  // xiangqi's, for Red to move
  // Red's lone soldier on e6, just across the river: 100 + 60 (zone) + 25 (table).
  pos.set_fen("4k4/9/9/9/4P4/9/9/9/9/4K4 w - - 0 1");
  EXPECT_EQ(eval(pos), tempo + 185);
  pos.set_fen("4k4/9/9/9/9/4P4/9/9/9/4K4 w - - 0 1");  // e5, still at home: 100 + 0
  EXPECT_EQ(eval(pos), tempo + 100);
}

TEST(Evaluation, PiecesInHandCountTheirValue) {
  const auto crazyhouse = load_variant(variant_path("crazyhouse"));
  const search::Evaluation eval(*crazyhouse);
  Position pos(crazyhouse);
  const int tempo = 30;  // chess's, for White to move
  pos.set_fen("4k3/8/8/8/8/8/8/4K3[] w - - 0 1");
  EXPECT_EQ(eval(pos), tempo);
  pos.set_fen("4k3/8/8/8/8/8/8/4K3[N] w - - 0 1");  // a knight in White's hand: 337
  EXPECT_EQ(eval(pos), tempo + 337);
  pos.set_fen("4k3/8/8/8/8/8/8/4K3[Nqp] w - - 0 1");  // against a queen and a pawn in Black's
  EXPECT_EQ(eval(pos), tempo + 337 - 1025 - 82);
}

TEST(Evaluation, GoalScoresTheDistanceToTheZoneWhoseReachingWins) {
  // King of the Hill's hill is d4-e5; without its engine file's figures the goal is 150, 60 and 25
  // for 1, 2 and 3 points away.
  const auto hill = load_variant(overlay_path("king-of-the-hill", "engine:\n eval:\n  goal: ~\n"));
  const auto flat = load_variant(overlay_path("king-of-the-hill", "engine:\n eval:\n  goal: [0]\n"));
  // White's king on e3, one point from e4; Black's on e8, three from e5.
  EXPECT_EQ(gain(hill, flat, "4k3/8/8/8/8/4K3/8/8 w - - 0 1"), 150 - 25);
  // Seen by Black to move, whose king in the corner stands three points from d4.
  EXPECT_EQ(gain(hill, flat, "8/8/8/8/8/4K3/8/k7 b - - 0 1"), -(150 - 25));
  const auto fitted = load_variant(overlay_path("king-of-the-hill", "engine:\n eval:\n  goal: [300, 100]\n"));
  EXPECT_EQ(gain(fitted, flat, "4k3/8/8/8/8/8/4K3/8 w - - 0 1"), 100);  // e2: two points from e4
}

TEST(Evaluation, ChecksScoreByHowManyASideHasGiven) {
  // Three-check without its engine file's figures: 80 for one check given and 250 for two.
  const auto three = load_variant(overlay_path("three-check", "engine:\n eval:\n  checks: ~\n"));
  const auto flat = load_variant(overlay_path("three-check", "engine:\n eval:\n  checks: [0]\n"));
  const std::string board = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - ";
  EXPECT_EQ(gain(three, flat, board + "3+3 0 1"), 0);
  EXPECT_EQ(gain(three, flat, board + "1+3 0 1"), 250);       // White needs one more: two given
  EXPECT_EQ(gain(three, flat, board + "1+2 0 1"), 250 - 80);  // and Black has given one
  const auto one = load_variant(overlay_path("three-check", "engine:\n eval:\n  checks: [40]\n"));
  EXPECT_EQ(gain(one, flat, board + "1+3 0 1"), 40);  // a count past the list scores its last figure
}

TEST(Evaluation, HandWorthReplacesTheValueOfAHeldPiece) {
  const auto crazyhouse = load_variant(variant_path("crazyhouse"));
  const auto held = load_variant(overlay_path("crazyhouse", "engine:\n eval:\n  hand: {knight: 500, pawn: 150}\n"));
  // A knight in White's hand is worth 500 instead of 337, a pawn in Black's 150 instead of 82.
  EXPECT_EQ(gain(held, crazyhouse, "4k3/8/8/8/8/8/8/4K3[Np] w - - 0 1"), (500 - 337) - (150 - 82));
  // On the board they keep their values.
  EXPECT_EQ(gain(held, crazyhouse, "4k3/8/8/8/8/8/8/N3K3[] w - - 0 1"), 0);
}

TEST(Evaluation, FewPiecesScoresASidesLastPiecesBesidesItsRoyal) {
  const auto chess = load_variant(variant_path("chess"));
  const auto few = load_variant(overlay_path("chess", "engine:\n eval:\n  few_pieces: [-500, -200]\n"));
  // White has a rook left (-200), Black two pieces, which the list does not reach.
  EXPECT_EQ(gain(few, chess, "4k3/8/8/8/8/8/3qr3/R3K3 w - - 0 1"), -200);
  // A bare king: -500, seen by Black to move.
  EXPECT_EQ(gain(few, chess, "4k3/8/8/8/8/8/3qr3/4K3 b - - 0 1"), 500);
}

// A chess variant with `eval_text` appended, loaded from a temporary file.
std::string load_error(const std::string& eval_text) {
  return rule_error_of([&] { load_variant(overlay_path("chess", eval_text)); });
}

TEST(EvalRules, BadSectionsNameTheLine) {
  const std::string file = temp_path("variant.yaml");
  EXPECT_EQ(load_error("engine:\n eval:\n  pieces:\n    dragon: {value: 5}\n"),
            file + ":5:13: engine.eval.pieces.dragon: no piece named \"dragon\"");
  EXPECT_EQ(load_error("engine:\n eval:\n  pieces:\n    pawn:\n      zones: {river: 10}\n"),
            file +
                ":6:22: engine.eval.pieces.pawn.zones.river: no zone named \"river\" (known: pawn-rank, last-rank, castled)");
  EXPECT_EQ(load_error("engine:\n eval:\n  pieces:\n    pawn:\n      table: [[1, 2]]\n"),
            file + ":6:14: engine.eval.pieces.pawn.table: expected 8 rows, one per rank, far rank first");
  EXPECT_EQ(load_error("engine:\n eval:\n  weights: 3\n"),
            file + ":4:3: engine.eval.weights: unknown key \"weights\" (expected one of: pieces, mobility, phase, passed, "
                   "royal_attack, threat, hanging, pair, structure, open_file, shelter, tempo, goal, checks, hand, "
                   "few_pieces)");
  EXPECT_EQ(load_error("engine:\n eval:\n  tempo: 5000\n"), file + ":4:10: engine.eval.tempo: expected a number from -1000 to 1000, got 5000");
  EXPECT_EQ(load_error("engine:\n eval:\n  mobility: {dragon: 4}\n"), file + ":4:22: engine.eval.mobility.dragon: no piece named \"dragon\"");
  EXPECT_EQ(load_error("engine:\n eval:\n  mobility: {bishop: 5000}\n"),
            file + ":4:22: engine.eval.mobility.bishop: expected a number from -1000 to 1000, got 5000");
  EXPECT_EQ(load_error("engine:\n eval:\n  mobility: 4\n"),
            file + ":4:13: engine.eval.mobility: expected piece names, each with centipawns per point it could move to");
}

TEST(EvalRules, BadTaperingPassedAndAttackTermsNameTheLine) {
  const std::string file = temp_path("variant.yaml");
  EXPECT_EQ(load_error("engine:\n eval:\n  phase: {dragon: 1}\n"), file + ":4:19: engine.eval.phase.dragon: no piece named \"dragon\"");
  EXPECT_EQ(load_error("engine:\n eval:\n  phase: {queen: 500}\n"),
            file + ":4:18: engine.eval.phase.queen: expected a number from 0 to 100, got 500");
  EXPECT_EQ(load_error("engine:\n eval:\n  pieces:\n    queen:\n      endgame: {table: [[1]]}\n"),
            file + ":6:24: engine.eval.pieces.queen.endgame.table: expected 8 rows, one per rank, far rank first");
  EXPECT_EQ(load_error("engine:\n eval:\n  pieces:\n    queen:\n      endgame: {bonus: 3}\n"),
            file + ":6:17: engine.eval.pieces.queen.endgame.bonus: unknown key \"bonus\" (expected one of: value, table)");
  // Taking chess's phase away leaves its endgame figures, which the error names where chess writes them.
  EXPECT_EQ(load_error("engine:\n eval:\n  phase: ~\n"),
            source_path("rules/chess/eval.yaml") + ":26:11: engine.eval.pieces.pawn.endgame: has no effect without eval.phase, which says how far the "
                   "game is from its end");
  EXPECT_EQ(load_error("engine:\n eval:\n  passed:\n    pawn: {bonus: [1, 2]}\n"),
            file + ":5:19: engine.eval.passed.pawn.bonus: expected 8 numbers, one per rank, far rank first");
  EXPECT_EQ(load_error("engine:\n eval:\n  passed:\n    dragon: {bonus: [1, 2]}\n"),
            file + ":5:13: engine.eval.passed.dragon: no piece named \"dragon\"");
  EXPECT_EQ(load_error("engine:\n eval:\n  passed:\n    pawn: [0, 1]\n"),
            file + ":5:11: engine.eval.passed.pawn: expected the bonus by rank, e.g. {bonus: [0, 90, 60, 40, 25, 15, 10, 0]}");
  EXPECT_EQ(load_error("engine:\n eval:\n  passed:\n    pawn: {bonus: [0, 0, 0, 0, 0, 0, 0, 0], royal_distance: {own: [1]}}\n"),
            file + ":5:67: engine.eval.passed.pawn.royal_distance.own: expected 8 numbers, one per rank, far rank first");
  EXPECT_EQ(load_error("engine:\n eval:\n  passed:\n    pawn: {bonus: [0, 0, 0, 0, 0, 0, 0, 0], royal_distance: 3}\n"),
            file + ":5:61: engine.eval.passed.pawn.royal_distance: expected own: and enemy:, each one number per rank");
  EXPECT_EQ(load_error("engine:\n eval:\n  royal_attack: {queen: 5000}\n"),
            file + ":4:25: engine.eval.royal_attack.queen: expected a number from -1000 to 1000, got 5000");
  EXPECT_EQ(load_error("engine:\n eval:\n  threat: {pawn: 5000}\n"),
            file + ":4:18: engine.eval.threat.pawn: expected a number from -1000 to 1000, got 5000");
  EXPECT_EQ(load_error("engine:\n eval:\n  hanging: {dragon: 40}\n"), file + ":4:21: engine.eval.hanging.dragon: no piece named \"dragon\"");
  EXPECT_EQ(load_error("engine:\n eval:\n  hanging: 40\n"),
            file + ":4:12: engine.eval.hanging: expected piece names, each with centipawns for each other enemy piece it "
                   "could capture that none defends");
  EXPECT_EQ(load_error("engine:\n eval:\n  pair: 30\n"),
            file + ":4:9: engine.eval.pair: expected piece names, each with centipawns for holding two or more");
}

TEST(EvalRules, EndsTermsNeedTheirEnds) {
  const std::string file = temp_path("variant.yaml");
  EXPECT_EQ(load_error("engine:\n eval:\n  goal: [100]\n"),
            file + ":4:9: engine.eval.goal: has no effect without ends.zone_reached, which names the goal");
  EXPECT_EQ(load_error("engine:\n eval:\n  checks: [100]\n"),
            file + ":4:11: engine.eval.checks: has no effect without ends.checks_given, which counts the checks");
  EXPECT_EQ(load_error("engine:\n eval:\n  hand: {pawn: 100}\n"),
            file + ":4:9: engine.eval.hand: has no effect without hands:, which hold the pieces");
  EXPECT_EQ(load_error("engine:\n eval:\n  few_pieces: []\n"),
            file + ":4:15: engine.eval.few_pieces: expected 1 to 16 numbers: centipawns by the pieces left besides the "
                   "royals, from 0");
  EXPECT_EQ(rule_error_of([] { load_variant(overlay_path("crazyhouse", "engine:\n eval:\n  hand: {dragon: 1}\n")); }),
            temp_path("variant.yaml") + ":4:18: engine.eval.hand.dragon: no piece named \"dragon\"");
}

TEST(EvalRules, BadStructureAndOpenFileTermsNameTheLine) {
  const std::string file = temp_path("variant.yaml");
  EXPECT_EQ(load_error("engine:\n eval:\n  structure:\n    pawn: {lonely: -10}\n"),
            file + ":5:12: engine.eval.structure.pawn.lonely: unknown key \"lonely\" (expected one of: isolated, doubled, "
                   "endgame)");
  EXPECT_EQ(load_error("engine:\n eval:\n  structure:\n    pawn: -10\n"),
            file + ":5:11: engine.eval.structure.pawn: expected centipawns for isolated and doubled pieces, e.g. "
                   "{isolated: -10, doubled: -10}");
  // Taking chess's structure away leaves its open_file, which the error names where chess writes it.
  EXPECT_EQ(load_error("engine:\n eval:\n  structure: ~\n  open_file: {rook: {open: 25}}\n"),
            source_path("rules/chess/eval.yaml") +
                ":169:7: engine.eval.open_file: needs eval.structure, which names the kinds that close a file");
  EXPECT_EQ(load_error("engine:\n eval:\n  open_file: {rook: {open: 99999}}\n"),
            file + ":4:28: engine.eval.open_file.rook.open: expected a number from -10000 to 10000, got 99999");
  EXPECT_EQ(load_error("engine:\n eval:\n  shelter: {kind: pawn, bonus: [1, 2, 3, 4, 5, 6, 7, 8]}\n"),
            file + ":4:32: engine.eval.shelter.bonus: expected centipawns by ranks ahead of the royal, from 1, fewer than the "
                   "board's ranks");
  EXPECT_EQ(load_error("engine:\n eval:\n  shelter: {kind: pawn, bonus: [20], zone: wings}\n"),
            file + ":4:44: engine.eval.shelter.zone: no zone named \"wings\" (known: pawn-rank, last-rank, castled)");
  EXPECT_EQ(load_error("engine:\n eval:\n  shelter: {kind: dragon}\n"),
            file + ":4:19: engine.eval.shelter.kind: no piece named \"dragon\"");
}

}  // namespace
}  // namespace palace::test
