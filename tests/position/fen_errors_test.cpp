// Bad FENs for Janggi: each gives one exact FenError naming the field, and leaves the position
// (board, side, clocks, hash and move history) exactly as it was.
#include <gtest/gtest.h>

#include "test_support.h"

namespace palace::test {
namespace {

// Janggi's set-up; cho (upper case) on ranks 7-10, written first.
const std::string Board = "RNBA1ABNR/4K4/1C5C1/P1P1P1P1P/9/9/p1p1p1p1p/1c5c1/4k4/rnba1abnr";
const std::string Start = Board + " w - - 0 1";

// A middle-game position with history, so that "unchanged" covers more than a fresh set-up.
const std::string Before = "5ABNR/3A5/1CN1KB1C1/3PP3P/4P4/1c6p/1pp2pp2/7c1/3a1r3/1nb1k1bn1 b - - 5 12";

std::shared_ptr<const Variant> janggi() {
  static const auto variant = load_variant(variant_path("janggi"));
  return variant;
}

// The FenError text of set_fen(fen), having checked that the failed call changed nothing.
std::string fen_error(const std::string& fen) {
  Position pos(janggi());
  pos.set_fen(Before);
  MoveList list;
  generate_legal(pos, list);
  pos.do_move(*list.begin());
  const std::string fen_before = pos.fen();
  const std::uint64_t hash_before = pos.state().hash;
  const int plies_before = pos.plies_recorded();

  try {
    pos.set_fen(fen);
  } catch (const FenError& e) {
    EXPECT_EQ(pos.fen(), fen_before) << "after set_fen(\"" << fen << "\")";
    EXPECT_EQ(pos.state().hash, hash_before) << "after set_fen(\"" << fen << "\")";
    EXPECT_EQ(pos.plies_recorded(), plies_before) << "after set_fen(\"" << fen << "\")";
    return e.what();
  }
  return "(accepted: " + pos.fen() + ")";
}

TEST(FenErrors, GoodFenLoads) { EXPECT_EQ(fen_error(Start), "(accepted: " + Start + ")"); }

// The reference engine writes an empty hand after the board of some variants without hands; it says
// nothing false, so it is read, and the FEN written back has none. A hand with pieces is refused.
TEST(FenErrors, AnEmptyHandIsReadWhereThereAreNoHands) {
  EXPECT_EQ(fen_error(Board + "[] w - - 0 1"), "(accepted: " + Start + ")");
  EXPECT_EQ(fen_error(Board + "[-] w - - 0 1"), "(accepted: " + Start + ")");
  EXPECT_EQ(fen_error(Board + "[P] w - - 0 1"), "FEN hands: this variant has no hands; only an empty [] may follow the board");
}

TEST(FenErrors, TooFewRanks) {
  EXPECT_EQ(fen_error("RNBA1ABNR/4K4/1C5C1/P1P1P1P1P/9/9/p1p1p1p1p/1c5c1/4k4 w - - 0 1"),
            "FEN board: 9 ranks, expected 10");
}

TEST(FenErrors, TooManyRanks) { EXPECT_EQ(fen_error(Board + "/9 w - - 0 1"), "FEN board: more than 10 ranks"); }

TEST(FenErrors, TooManyPointsOnRank) {
  EXPECT_EQ(fen_error("RNBA1ABNR/4K4/1C5C1/P1P1P1P1P/9/9/p1p1p1p1p/1c5c1/4k4/rnba1abnrr w - - 0 1"),
            "FEN board: rank 1 has more than 9 points");
}

TEST(FenErrors, RunTooLong) {
  EXPECT_EQ(fen_error("RNBA1ABNR/4K4/1C5C1/P1P1P1P1P/10/9/p1p1p1p1p/1c5c1/4k4/rnba1abnr w - - 0 1"),
            "FEN board: rank 6 has more than 9 points");
}

// A run too big for an int must not wrap around to a small one.
TEST(FenErrors, HugeRun) {
  EXPECT_EQ(fen_error("4294967297NBA1ABNR/4K4/1C5C1/P1P1P1P1P/9/9/p1p1p1p1p/1c5c1/4k4/rnba1abnr w - - 0 1"),
            "FEN board: rank 10 has more than 9 points");
}

TEST(FenErrors, TooFewPointsOnRank) {
  EXPECT_EQ(fen_error("RNBA1ABNR/4K4/1C5C1/P1P1P1P1P/8/9/p1p1p1p1p/1c5c1/4k4/rnba1abnr w - - 0 1"),
            "FEN board: rank 6 has 8 points, expected 9");
}

// The last rank is short: say so, as for any other rank.
TEST(FenErrors, TooFewPointsOnLastRank) {
  EXPECT_EQ(fen_error("RNBA1ABNR/4K4/1C5C1/P1P1P1P1P/9/9/p1p1p1p1p/1c5c1/4k4/rnba1ab w - - 0 1"),
            "FEN board: rank 1 has 7 points, expected 9");
}

TEST(FenErrors, UnknownLetter) {
  EXPECT_EQ(fen_error("RNBA1ABNR/4K4/1C5C1/P1P1P1P1P/4Q4/9/p1p1p1p1p/1c5c1/4k4/rnba1abnr w - - 0 1"),
            "FEN board: unknown piece letter \"Q\" on rank 6");
}

TEST(FenErrors, BadSideToMove) {
  EXPECT_EQ(fen_error(Board + " x - - 0 1"), "FEN side to move: expected w or b, got \"x\"");
}

TEST(FenErrors, MissingSideToMove) { EXPECT_EQ(fen_error(Board), "FEN side to move: missing (expected w or b)"); }

TEST(FenErrors, UnknownRight) { EXPECT_EQ(fen_error(Board + " w K - 0 1"), "FEN rights: unknown right \"K\""); }

TEST(FenErrors, GhostSquareOffBoard) {
  EXPECT_EQ(fen_error(Board + " w - z5 0 1"), "FEN ghost square: \"z5\" is not a point of the board");
}

TEST(FenErrors, GhostSquareNobodySkipped) {
  EXPECT_EQ(fen_error(Board + " w - e5 0 1"), "FEN ghost square: no han piece has just skipped e5");
}

TEST(FenErrors, HalfMoveClockNotNumber) {
  EXPECT_EQ(fen_error(Board + " w - - x 1"), "FEN half-move clock: expected a number from 0 to 65535, got \"x\"");
}

TEST(FenErrors, HalfMoveClockNegative) {
  EXPECT_EQ(fen_error(Board + " w - - -1 1"), "FEN half-move clock: expected a number from 0 to 65535, got \"-1\"");
}

// The clock is kept in 16 bits: a bigger count must be refused, not cut down.
TEST(FenErrors, HalfMoveClockTooBig) {
  EXPECT_EQ(fen_error(Board + " w - - 70000 1"), "FEN half-move clock: expected a number from 0 to 65535, got \"70000\"");
}

TEST(FenErrors, MoveNumberNotNumber) {
  EXPECT_EQ(fen_error(Board + " w - - 0 y"), "FEN move number: expected a number from 1 to 1000000, got \"y\"");
}

TEST(FenErrors, MoveNumberZero) {
  EXPECT_EQ(fen_error(Board + " w - - 0 0"), "FEN move number: expected a number from 1 to 1000000, got \"0\"");
}

TEST(FenErrors, ExtraText) {
  EXPECT_EQ(fen_error(Start + " extra"), "FEN: unexpected text \"extra\" after the move number");
}

TEST(FenErrors, Empty) {
  EXPECT_EQ(fen_error(""), "FEN is empty");
  EXPECT_EQ(fen_error("   "), "FEN is empty");
}

TEST(FenErrors, GuardOutsidePalace) {
  EXPECT_EQ(fen_error("RNB2ABNR/A3K4/1C5C1/P1P1P1P1P/9/9/p1p1p1p1p/1c5c1/4k4/rnba1abnr w - - 0 1"),
            "FEN board: guard on a9 is outside its zone 'palace'");
}

TEST(FenErrors, TwoGenerals) {
  EXPECT_EQ(fen_error("RNBA1ABNR/3KK4/1C5C1/P1P1P1P1P/9/9/p1p1p1p1p/1c5c1/4k4/rnba1abnr w - - 0 1"),
            "FEN board: cho has more than one general");
}

}  // namespace
}  // namespace palace::test
