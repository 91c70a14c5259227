// The evaluation compiled from pieces' values and `eval:` sections, and the loader's errors for a
// bad `eval:` section.
#include <gtest/gtest.h>

#include <fstream>

#include "search/eval.h"
#include "test_support.h"

namespace palace::test {
namespace {

Position after(const std::shared_ptr<const Variant>& variant, const std::string& moves) {
  Position pos(variant);
  std::istringstream in(moves);
  for (std::string text; in >> text;) {
    MoveList list;
    generate_legal(pos, list);
    for (const Move m : list)
      if (pos.move_text(m) == text) pos.do_move(m);
  }
  return pos;
}

TEST(Evaluation, TablesReadFromEachSidesView) {
  const auto chess = load_variant(variant_path("chess"));
  const search::Evaluation eval(*chess);
  EXPECT_EQ(eval(Position(chess)), 0);
  // e2 -20 to e4 +20 in the pawn table, and e2 opened to the f1 bishop (5 points x 5), the queen
  // (4 x 1) and the g1 knight (1 x 4), seen by Black to move.
  EXPECT_EQ(eval(after(chess, "e2e4")), -40 - 25 - 4 - 4);
  // Black's e7e5 mirrors it: level again.
  EXPECT_EQ(eval(after(chess, "e2e4 e7e5")), 0);
  EXPECT_EQ(eval.value(chess->rules().kind_by_name("knight")), 320);
  EXPECT_EQ(eval.value(chess->rules().kind_by_name("rook")), 500);
}

TEST(Evaluation, MobilityCountsEachPointAPieceCouldMoveTo) {
  const auto chess = load_variant(variant_path("chess"));
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
  // What the pawns add by themselves, and the bishop's 12 lost points at 5 centipawns each.
  EXPECT_EQ(pawns, eval(pawns_alone) - eval(none) - 12 * 5);
}

TEST(Evaluation, ZoneBonusAcrossTheRiver) {
  const auto xiangqi = load_variant(variant_path("xiangqi"));
  const search::Evaluation eval(*xiangqi);
  Position pos(xiangqi);
  // Red's lone soldier on e6, just across the river: 100 + 60 (zone) + 25 (table), Red to move.
  pos.set_fen("4k4/9/9/9/4P4/9/9/9/9/4K4 w - - 0 1");
  EXPECT_EQ(eval(pos), 185);
  pos.set_fen("4k4/9/9/9/9/4P4/9/9/9/4K4 w - - 0 1");  // e5, still at home: 100 + 0
  EXPECT_EQ(eval(pos), 100);
}

TEST(Evaluation, PiecesInHandCountTheirValue) {
  const auto crazyhouse = load_variant(variant_path("crazyhouse"));
  const search::Evaluation eval(*crazyhouse);
  Position pos(crazyhouse);
  pos.set_fen("4k3/8/8/8/8/8/8/4K3[] w - - 0 1");
  EXPECT_EQ(eval(pos), 0);
  pos.set_fen("4k3/8/8/8/8/8/8/4K3[N] w - - 0 1");  // a knight in White's hand: 320
  EXPECT_EQ(eval(pos), 320);
  pos.set_fen("4k3/8/8/8/8/8/8/4K3[Nqp] w - - 0 1");  // against a queen and a pawn in Black's
  EXPECT_EQ(eval(pos), 320 - 900 - 100);
}

// A chess variant with `eval_text` appended, loaded from a temporary file.
std::string load_error(const std::string& eval_text) {
  const std::string path = temp_path("variant.yaml");
  std::ofstream(path) << "import: [" << source_path("variants/chess.yaml") << "]\n" << eval_text;
  return rule_error_of([&] { load_variant(path); });
}

TEST(EvalRules, BadSectionsNameTheLine) {
  const std::string file = temp_path("variant.yaml");
  EXPECT_EQ(load_error("eval:\n  pieces:\n    dragon: {value: 5}\n"),
            file + ":4:13: eval.pieces.dragon: no piece named \"dragon\"");
  EXPECT_EQ(load_error("eval:\n  pieces:\n    pawn:\n      zones: {river: 10}\n"),
            file + ":5:22: eval.pieces.pawn.zones.river: no zone named \"river\" (known: pawn-rank, last-rank)");
  EXPECT_EQ(load_error("eval:\n  pieces:\n    pawn:\n      table: [[1, 2]]\n"),
            file + ":5:14: eval.pieces.pawn.table: expected 8 rows, one per rank, far rank first");
  EXPECT_EQ(load_error("eval:\n  weights: 3\n"),
            file + ":3:3: eval.weights: unknown key \"weights\" (expected one of: pieces, mobility)");
  EXPECT_EQ(load_error("eval:\n  mobility: {dragon: 4}\n"), file + ":3:22: eval.mobility.dragon: no piece named \"dragon\"");
  EXPECT_EQ(load_error("eval:\n  mobility: {bishop: 5000}\n"),
            file + ":3:22: eval.mobility.bishop: expected a number from -1000 to 1000, got 5000");
  EXPECT_EQ(load_error("eval:\n  mobility: 4\n"),
            file + ":3:13: eval.mobility: expected piece names, each with centipawns per point it could move to");
}

}  // namespace
}  // namespace palace::test
