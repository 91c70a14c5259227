// The largest board, 16x16 (tests/rules/variants/wide.yaml: white king a1 and rook h8, black king
// p16): its 256th point p16 is a point like any other in moves, FENs and the wire notation.
#include <gtest/gtest.h>

#include "notation/wire.h"
#include "test_support.h"

namespace palace::test {
namespace {

const std::string WidePath = "tests/rules/variants/wide.yaml";
const std::string Empty = "16/";
const std::string StartFen = "15k/" + Empty + Empty + Empty + Empty + Empty + Empty + Empty + "7R8/" + Empty + Empty +
                             Empty + Empty + Empty + Empty + "K15 w - - 0 1";

std::shared_ptr<const Variant> wide() {
  static const auto variant = load_variant(source_path(WidePath));
  return variant;
}

TEST(WideBoard, AMovePacksEveryPointAndNoSquare) {
  const Move m(Point(255), Point(254), MoveType::LeaveGhost, 253);
  EXPECT_EQ(m.from(), 255);
  EXPECT_EQ(m.to(), 254);
  EXPECT_EQ(m.type(), MoveType::LeaveGhost);
  EXPECT_EQ(m.extra(), 253);
  EXPECT_EQ(Move::promotion(Point(255), Point(0), Kind(30)).promotion_kind(), Kind(30));
  EXPECT_EQ(Move::pass().from(), NoPoint);
  EXPECT_EQ(Move::pass().to(), NoPoint);
  EXPECT_TRUE(Move::pass().is_pass());
}

// White's king on a1 has a2, b1 and b2; the rook on h8 the other 15 points of rank 8 and the
// other 15 of the h-file: 33. Black's king on p16 has o16, o15 and p15, less those the rook then
// attacks: h8p8 (check) takes p15, h8h16 (check) o16, h8o8 o16 and o15, h8h15 o15 and p15; the
// other 26 rook moves and the 3 king moves leave all three: 2 + 2 + 1 + 1 + 29 * 3 = 93.
TEST(WideBoard, PerftCountedByHand) {
  Position pos(wide());
  EXPECT_EQ(pos.fen(), StartFen);
  EXPECT_EQ(perft(pos, 1), 33u);
  EXPECT_EQ(perft(pos, 2), 93u);
}

// The rook checks from p8, the king steps aside to o16 and the rook lands on p16, the 256th point.
TEST(WideBoard, TheRookLandsOnTheLastPointAndTheFenReadsBack) {
  Position pos(wide());
  const WireNotation wire(*wide());
  for (const char* text : {"h8p8", "p16o16", "p8p16"}) {
    std::string why;
    const Move m = wire.parse_move(pos, text, why);
    ASSERT_TRUE(m) << text << ": " << why;
    EXPECT_EQ(wire.move(pos, m), text);
    pos.do_move(m);
  }
  EXPECT_EQ(pos.at(wide()->board().parse_point("p16")), make_piece(First, Kind(1)));
  EXPECT_EQ(pos.at(Point(255)), make_piece(First, Kind(1)));
  const std::string fen = "14kR/" + Empty + Empty + Empty + Empty + Empty + Empty + Empty + Empty + Empty + Empty +
                          Empty + Empty + Empty + Empty + "K15 b - - 3 2";
  EXPECT_EQ(pos.fen(), fen);
  // In check along rank 16 and the p-file, the king may not stay on either: n15, o15, or take.
  EXPECT_EQ(legal_move_texts(pos), (std::vector<std::string>{"o16n15", "o16o15", "o16p16"}));

  Position read(wide());
  read.set_fen(fen);
  EXPECT_EQ(read.fen(), fen);
  EXPECT_EQ(read.state().hash, pos.state().hash);
}

TEST(WideBoard, AFenOfSeventeenRanksIsRefused) {
  Position pos(wide());
  try {
    pos.set_fen("16/" + StartFen);
    FAIL() << "a seventeenth rank was read";
  } catch (const FenError& e) {
    EXPECT_STREQ(e.what(), "FEN board: more than 16 ranks");
  }
  EXPECT_EQ(pos.fen(), StartFen);
}

TEST(WideBoard, MovesListsEveryMoveOfTheSetUp) {
  const PalaceRun run = run_palace("moves " + WidePath);
  EXPECT_EQ(run.status, 0);
  ASSERT_EQ(run.lines.size(), 1u);
  const std::vector<std::string> moves = split(run.lines[0], ' ');
  EXPECT_EQ(moves.size(), 33u);
  EXPECT_NE(std::find(moves.begin(), moves.end(), "h8h16"), moves.end());
  EXPECT_NE(std::find(moves.begin(), moves.end(), "h8p8"), moves.end());
}

}  // namespace
}  // namespace palace::test
