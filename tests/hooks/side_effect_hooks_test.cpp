// Runtime hooks that do more than forbid: add_moves gives a piece points beyond its movement, in
// the generator and the attack test alike; after_move changes the board once a move is made, and
// undo_move takes the change back. Counts are worked out by hand in the comments; every answer the
// rules cannot play ends with one line naming the script, the line and the hook.
#include <gtest/gtest.h>

#include "hooks/lua_host.h"
#include "test_support.h"

namespace palace::test {
namespace {

std::string fixture(const std::string& name) { return source_path("tests/hooks/variants/" + name + ".yaml"); }

Position at(const std::string& variant, const std::string& fen) {
  Position pos(variant == "chess" ? load_variant(variant_path("chess")) : load_variant(fixture(variant)));
  pos.set_fen(fen);
  return pos;
}

Move move_of(const Position& pos, const std::string& from, const std::string& to) {
  return Move(pos.variant().board().parse_point(from), pos.variant().board().parse_point(to));
}

// The points the piece on `from` may legally move to, sorted.
std::string targets_of(Position& pos, const std::string& from) {
  std::vector<std::string> out;
  for (const std::string& m : legal_move_texts(pos))
    if (m.substr(0, from.size()) == from) out.push_back(m.substr(from.size()));
  return join(out);
}

std::string board_of(const Position& pos) { return pos.fen().substr(0, pos.fen().find(' ')); }

// guards.yaml: a knight may also jump to any empty point next to its own king; a pawn may also
// capture one point straight ahead.

// White: king e1, knight b1. Black: king e8. The knight leaps to a3, c3 and d2; the hook adds d1,
// e2, f1 and f2, and d2 again, which is one move. The king has five steps: 12 moves. Each leaves
// Black's king its five steps (nothing White has reaches the seventh or eighth rank): 60.
TEST(AddMoves, AKnightMayAlsoJumpNextToItsKing) {
  Position pos = at("guards", "4k3/8/8/8/8/8/8/1N2K3 w - - 0 1");
  EXPECT_EQ(targets_of(pos, "b1"), "a3 c3 d1 d2 e2 f1 f2");
  EXPECT_EQ(perft(pos, 1), 12u);
  EXPECT_EQ(perft(pos, 2), 60u);
  Position chess = at("chess", "4k3/8/8/8/8/8/8/1N2K3 w - - 0 1");
  EXPECT_EQ(targets_of(chess, "b1"), "a3 c3 d2");
}

// White: king e1, pawn e4. Black: king e8, knight e5. The pawn is blocked and has nothing to take
// diagonally; only its added capture straight ahead remains.
TEST(AddMoves, AnAddedPointMayBeForCapturingOnly) {
  Position pos = at("guards", "4k3/8/8/4n3/4P3/8/8/4K3 w - - 0 1");
  EXPECT_EQ(targets_of(pos, "e4"), "e5");
  pos.do_move(move_of(pos, "e4", "e5"));
  EXPECT_EQ(board_of(pos), "4k3/8/8/4P3/8/8/8/4K3");
  Position empty_ahead = at("guards", "4k3/8/8/8/4P3/8/8/4K3 w - - 0 1");
  EXPECT_EQ(targets_of(empty_ahead, "e4"), "e5");  // the pawn's own step; the added point is not a move
}

// White: king e1, pawn e6. Black: king e7, to move. The pawn's added capture reaches e7: check.
// The king may not stay or step to d7 and f7, which the pawn takes diagonally; d6, d8, e8, f6 and
// f8 are safe, and so is taking the pawn on e6.
TEST(AddMoves, AnAddedCaptureOfTheKingIsCheck) {
  Position pos = at("guards", "8/4k3/4P3/8/8/8/8/4K3 b - - 0 1");
  EXPECT_TRUE(in_check(pos));
  EXPECT_EQ(join(legal_move_texts(pos)), "e7d6 e7d8 e7e6 e7e8 e7f6 e7f8");
  Position chess = at("chess", "8/4k3/4P3/8/8/8/8/4K3 b - - 0 1");
  EXPECT_FALSE(in_check(chess));
}

TEST(AddMoves, AnAddedMoveThatGivesCheckIsCheck) {
  // The pawn steps to e6, from where its added capture reaches the king on e7.
  Position pawn = at("guards", "8/4k3/8/4P3/8/8/8/4K3 w - - 0 1");
  pawn.do_move(move_of(pawn, "e5", "e6"));
  EXPECT_TRUE(in_check(pawn));
  // The knight jumps from b1 to f2, next to its king, and leaps at h3 from there.
  Position knight = at("guards", "8/8/8/8/8/7k/8/1N2K3 w - - 0 1");
  ASSERT_NE(join(legal_move_texts(knight)).find("b1f2"), std::string::npos);
  knight.do_move(move_of(knight, "b1", "f2"));
  EXPECT_TRUE(in_check(knight));
}

TEST(AddMoves, MakeAndUnmakeStayConsistent) {
  for (const char* fen : {"rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
                                 "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1"}) {
    Position pos = at("guards", fen);
    EXPECT_EQ(checked_perft(pos, 2), perft(pos, 2)) << fen;
  }
}

// andernach.yaml: a piece other than the king that captures changes colour.

// White: king a1, rook d1. Black: king h8, knight d5. White has 13 moves: three king steps, and
// the rook's three up the file, the capture on d5, two to the left and four to the right. Black
// answers ten of them with its king's three steps and the knight's eight leaps (11); Rg1 leaves
// the king only h7 (9); Rh1 checks, and only g8 and g7 get out of it (2). After Rxd5 the rook is
// Black's: its 14 moves and the king's three make 17, where in chess the king's three remain.
TEST(AfterMove, ACapturingPieceChangesColour) {
  const std::string fen = "7k/8/8/3n4/8/8/8/K2R4 w - - 0 1";
  Position pos = at("andernach", fen);
  EXPECT_EQ(perft(pos, 1), 13u);
  EXPECT_EQ(perft(pos, 2), 10u * 11 + 9 + 2 + 17);
  Position chess = at("chess", fen);
  EXPECT_EQ(perft(chess, 2), 10u * 11 + 9 + 2 + 3);

  pos.do_move(move_of(pos, "d1", "d5"));
  EXPECT_EQ(board_of(pos), "7k/8/8/3r4/8/8/8/K7");
  EXPECT_TRUE(pos.is_consistent());
  EXPECT_EQ(perft(pos, 1), 17u);
}

// White: king b1, pawn g7. Black: king h1, rook h8. gxh8=Q leaves a black queen on h8.
TEST(AfterMove, APawnPromotingAsItCapturesChangesColourAsThePieceItBecame) {
  Position pos = at("andernach", "7r/6P1/8/8/8/8/8/1K5k w - - 0 1");
  MoveList list;
  generate_legal(pos, list);
  const auto promotion = std::find_if(list.begin(), list.end(), [&](Move m) { return pos.move_text(m) == "g7h8q"; });
  ASSERT_NE(promotion, list.end());
  pos.do_move(*promotion);
  EXPECT_EQ(board_of(pos), "7q/8/8/8/8/8/8/1K5k");
}

// White: king e1, knight b4. Black: king e8, pawn d3. Taking on d3 would make the knight Black's,
// giving check to its own king from there: the one leap chess allows that Andernach does not.
TEST(AfterMove, AColourChangeThatChecksTheMoverIsIllegal) {
  const std::string fen = "4k3/8/8/8/1N6/3p4/8/4K3 w - - 0 1";
  Position pos = at("andernach", fen);
  EXPECT_EQ(targets_of(pos, "b4"), "a2 a6 c2 c6 d5");
  Position chess = at("chess", fen);
  EXPECT_EQ(targets_of(chess, "b4"), "a2 a6 c2 c6 d3 d5");
}

TEST(AfterMove, UndoRestoresTheBoardTheListsAndTheHash) {
  Position pos = at("andernach", "7k/8/8/3n4/8/8/8/K2R4 w - - 0 1");
  const std::string fen = pos.fen();
  const std::uint64_t hash = pos.state().hash;
  pos.do_move(move_of(pos, "d1", "d5"));
  EXPECT_NE(pos.state().hash, hash);
  pos.undo_move();
  EXPECT_EQ(pos.fen(), fen);
  EXPECT_EQ(pos.state().hash, hash);
  EXPECT_TRUE(pos.is_consistent());
  EXPECT_EQ(perft(pos, 2), 138u);
}

TEST(AfterMove, MakeAndUnmakeStayConsistent) {
  for (const char* fen : {"rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
                                 "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
                                 "7k/8/8/3n4/8/8/8/K2R4 w - - 0 1"}) {
    Position pos = at("andernach", fen);
    EXPECT_EQ(checked_perft(pos, 3), perft(pos, 3)) << fen;
  }
}

// misbehaving.yaml: the knight's add_moves hook and the rook's after_move hook answer badly, one
// way for each point.

const std::string Script = "../rule_scripts/misbehaving.lua";

std::string error_of(const std::function<void()>& f) {
  try {
    f();
  } catch (const hooks::HookError& e) {
    return e.what();
  }
  return "no error";
}

// White's knight on `at` (and its king on h1, a pawn on c2); the generator asks the hook.
std::string targets_error(const std::string& fen) {
  Position pos = at("misbehaving", fen);
  MoveList list;
  return error_of([&] { generate_legal(pos, list); });
}

TEST(BadHooks, AddMovesAnswersTheRulesCannotPlay) {
  const std::string hook = Script + ":12: targets: ";
  EXPECT_EQ(targets_error("7k/8/8/8/8/8/8/N6K w - - 0 1"), hook + "must return a list of points, not boolean");
  EXPECT_EQ(targets_error("7k/8/8/8/8/8/8/1N5K w - - 0 1"), hook + "point 1 of the answer: no point \"z9\" on this board");
  EXPECT_EQ(targets_error("7k/8/8/8/8/8/2P5/2N4K w - - 0 1"), hook + "point 1 of the answer: c2 holds white's own pawn");
  EXPECT_EQ(targets_error("7k/8/8/8/8/8/8/3N3K w - - 0 1"),
            hook + "point 1 of the answer: only must be \"move\" or \"capture\", not \"jump\"");
  EXPECT_EQ(targets_error("7k/8/8/8/8/8/8/4N2K w - - 0 1"), hook + "must return a list of points; its answer has the key \"to\"");
  EXPECT_EQ(targets_error("7k/8/8/8/8/8/8/5N1K w - - 0 1"), hook + "point 1 of the answer: f1 is where the knight stands");
}

// Black's knight on g8 answers badly only once White has moved: while White's moves are tried,
// each made and its king's safety tested. The one being tried is taken back as the hook fails.
TEST(BadHooks, AFailureWhileAMoveIsTriedLeavesThePositionAsItWas) {
  Position pos = at("misbehaving", "6nk/8/8/8/8/8/8/7K w - - 0 1");
  const std::string fen = pos.fen();
  MoveList list;
  EXPECT_EQ(error_of([&] { generate_legal(pos, list); }), Script + ":12: targets: must return a list of points, not boolean");
  EXPECT_EQ(pos.fen(), fen);
  EXPECT_EQ(pos.plies_recorded(), 0);
  EXPECT_TRUE(pos.is_consistent());
}

// White's rook moves from FILE2 to FILE3 (its king on a1, Black's on h8), and the hook answers
// for that point; the position is as it was before the move.
std::string edits_error(char file) {
  const int f = file - 'a';
  const std::string rank2 = (f ? std::to_string(f) : "") + "R" + (f < 7 ? std::to_string(7 - f) : "");
  Position pos = at("misbehaving", "7k/8/8/8/8/8/" + rank2 + "/K7 w - - 0 1");
  const std::string fen = pos.fen();
  const std::uint64_t hash = pos.state().hash;
  const std::string error = error_of([&] { pos.do_move(move_of(pos, std::string(1, file) + "2", std::string(1, file) + "3")); });
  EXPECT_EQ(pos.fen(), fen) << file;
  EXPECT_EQ(pos.state().hash, hash) << file;
  EXPECT_EQ(pos.plies_recorded(), 0) << file;
  EXPECT_TRUE(pos.is_consistent()) << file;
  return error;
}

TEST(BadHooks, AfterMoveAnswersTheRulesCannotPlay) {
  const std::string hook = Script + ":29: edits: ";
  EXPECT_EQ(edits_error('a'), hook + "edit 1: no point \"z9\" on this board");
  EXPECT_EQ(edits_error('b'), hook + "edit 1: no piece kind \"dragon\"");
  EXPECT_EQ(edits_error('c'), hook + "edit 1: no side \"red\"");
  EXPECT_EQ(edits_error('d'), hook + "edit 1: a1 holds white's king, which is royal: no edit may remove or replace it");
  EXPECT_EQ(edits_error('e'), hook + "edit 1: the king is royal: no edit may place one");
  EXPECT_EQ(edits_error('f'), hook + "must return a list of edits ({at = POINT, piece = PIECE or nil}); its answer has the key \"at\"");
  EXPECT_EQ(edits_error('g'), hook + "edit 2: expected {at = POINT, piece = PIECE or nil}, not string");
  EXPECT_EQ(edits_error('h'), hook + "edit 1: piece must be {name = KIND, side = SIDE} or nil, not string");
}

// The rook of `variant` moves from a2 to `to` (its king on a1, Black's on h8).
std::string error_moving_a2_to(const std::string& to, const std::string& variant = "misbehaving") {
  Position pos = at(variant, "7k/8/8/8/8/8/R7/K7 w - - 0 1");
  const std::string fen = pos.fen();
  const std::string error = error_of([&] { pos.do_move(move_of(pos, "a2", to)); });
  EXPECT_EQ(pos.fen(), fen) << to;
  EXPECT_TRUE(pos.is_consistent()) << to;
  return error;
}

TEST(BadHooks, AfterMoveMayNotOutgrowWhatAPositionHolds) {
  const std::string hook = Script + ":29: edits: ";
  EXPECT_EQ(error_moving_a2_to("a5"), hook + "returned 65 edits; at most 64 are allowed");
  // 46 queens on the empty points of ranks 3 to 8 beside the king and the rook, each move of a
  // queen one of nine choices: the 48 points that allow the most moves allow
  // 9 x (4 x 27 + 12 x 25 + 20 x 23 + 12 x 21) = 10,080 queen moves, the two castlings and a pass 10,083.
  EXPECT_EQ(error_moving_a2_to("a6", "misbehaving_promoting"),
            hook + "the edits leave white 48 pieces, which could make up to 10083 moves; at most 8192 are supported");
}

// Xiangqi's advisor stays in its palace: an edit may not put one outside.
TEST(BadHooks, AfterMoveKeepsAPieceInItsZone) {
  Position pos(load_variant(fixture("misbehaving_xiangqi")));
  EXPECT_EQ(error_of([&] { pos.do_move(move_of(pos, "a1", "a2")); }),
            Script + ":29: edits: edit 1: the advisor may not stand on a2, outside its zone \"palace\"");
  EXPECT_TRUE(pos.is_consistent());
  EXPECT_EQ(pos.plies_recorded(), 0);
}

// A Lua error inside the hook names its own line, and the move is taken back as it fails.
TEST(BadHooks, AFailingAfterMoveHookLeavesThePositionAsItWas) {
  Position pos = at("misbehaving", "7k/8/8/8/8/8/R7/K7 w - - 0 1");
  const std::string fen = pos.fen();
  EXPECT_EQ(error_of([&] { pos.do_move(move_of(pos, "a2", "a4")); }),
            Script + ":30: edits: attempt to index a nil value (field 'nothing')");
  EXPECT_EQ(pos.fen(), fen);
  EXPECT_TRUE(pos.is_consistent());
}

// On the command line, a bad answer is one line on standard error and exit status 2.
TEST(BadHooks, TheCommandLineReportsOneLine) {
  const PalaceRun run = run_palace("perft tests/hooks/variants/misbehaving.yaml --fen '7k/8/8/8/8/8/8/1N5K w - - 0 1' --depth 1 2>&1");
  EXPECT_EQ(run.status, 2);
  ASSERT_EQ(run.lines.size(), 1u) << run.out;
  EXPECT_EQ(run.lines[0], "error: " + Script + ":12: targets: point 1 of the answer: no point \"z9\" on this board");
}

TEST(BadHooks, NotWhereCapturedPiecesGoToAHand) {
  EXPECT_EQ(rule_error_of([] { load_variant(fixture("hand_hooks")); }),
            fixture("hand_hooks") + ":7:31: hooks that add moves or change the board are not supported where captured pieces go to a hand");
}

}  // namespace
}  // namespace palace::test
