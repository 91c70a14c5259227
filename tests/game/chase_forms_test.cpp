// The three chases Xiangqi's rules (AXF) count beyond a piece's own new attack, each beside a like
// sequence that is no chase: an attack uncovered by the move (a discovered chase), a protector the
// move pins (the protection is false), and a capture that would come with check (the protector may
// not answer it). The positive positions are the reference engine's own corner cases (its test.py);
// each repeats a four-ply cycle twice, so the start occurs a third time and the verdict is given.
#include <gtest/gtest.h>

#include "game_test_support.h"

namespace palace::test {
namespace {

// The repetition verdict, in words, after `cycle` is played twice from `fen` (after `first`).
std::string verdict_after(const std::string& fen, const std::string& cycle, const std::string& first = "") {
  Game game = game_of("xiangqi", fen);
  const std::string moves = (first.empty() ? "" : first + " ") + cycle + " " + cycle;
  if (const std::string refused = play_all(game, moves); !refused.empty()) return "refused " + refused;
  return game.explanation();
}

// Red's cannon steps off the f-file and back: stepping off, it uncovers the cannon on f7, which then
// reaches Black's soldier on f2 over Black's cannon; stepping back, it is itself the screen.
const std::string CannonScreens = "5k3/9/9/5C3/5c3/5C3/9/9/5p3/4K4 w - - 0 1";
const std::string CannonCycle = "f5d5 f6d6 d5f5 d6f6";

TEST(ChaseForms, AnAttackTheMoveUncoversIsAChase) {
  EXPECT_EQ(verdict_after(CannonScreens, CannonCycle),
            "Red has chased the soldier on f2 with every move for 2 cycles; Red must vary");
}

TEST(ChaseForms, AnUncoveredAttackOnAProtectedPieceIsNoChase) {
  // The same, with a black chariot on a2 guarding the soldier along rank 2.
  EXPECT_EQ(verdict_after("5k3/9/9/5C3/5c3/5C3/9/9/r4p3/4K4 w - - 0 1", CannonCycle),
            "the position has occurred 3 times; Red may claim a draw");
}

TEST(ChaseForms, TheGeneralsStepsUncoverHorsesOnASoldierAcrossTheRiver) {
  // Black's general steps between d9 and e9, freeing in turn the leg of each horse, which then
  // reaches Red's soldier (moving between d10 and e10).
  EXPECT_EQ(verdict_after("3P5/3k5/3nn4/9/9/9/9/9/9/5K3 w - - 0 1", "d10e10 d9e9 e10d10 e9d9"),
            "Black has chased the soldier on d10 with every move for 2 cycles; Black must vary");
}

// Black's horse leaves the e-file and comes back. Leaving, it opens the cannon's file, so Red's
// chariot on e3 may not leave it (the cannon would check over the pawn on e7); back on e4 with Red's
// general on f2, it pins the chariot again (its leg: were the chariot to go, the horse checks). Red's
// horse on d3, attacked by Black's chariot, has no protector but that chariot.
const std::string PinnedRoot = "4k4/4c4/9/4p4/9/9/3rn4/3NR4/4K4/9 b - - 0 1";

TEST(ChaseForms, PinningTheProtectorIsAChase) {
  EXPECT_EQ(verdict_after(PinnedRoot, "e4g5 e2f2 g5e4 f2e2"),
            "Black has chased the horse on d3 with every move for 2 cycles; Black must vary");
}

TEST(ChaseForms, AProtectorPinnedOnlyEveryOtherMoveMakesNoChase) {
  // Red's general steps to e1 instead: the horse's return pins nothing, so the chariot protects.
  EXPECT_EQ(verdict_after(PinnedRoot, "e4g5 e2e1 g5e4 e1e2"), "the position has occurred 3 times; Black may claim a draw");
}

TEST(ChaseForms, AProtectorWhoseLineIsMerelyBlockedIsNotPinned) {
  // Black's advisor steps between e9 and f10, blocking in turn the chariot's and the cannon's
  // protection of Red's horse on g9, which Black's chariot on f9 attacks all along: no new attack,
  // no pin, no chase. Red's chariot and cannon, meanwhile, chase Black's chariot, which may not take
  // back (it is the horse's leg before Black's general).
  EXPECT_EQ(verdict_after("2baka1r1/C4rN2/9/1Rp1p4/9/9/4P4/9/4A4/4KA3 w - - 0 1", "f10e9 b9b10 e9f10 b10b9", "b7b9"),
            "Red has chased the chariot on f9 with every move for 2 cycles; Red must vary");
}

// Black's chariot steps between b1 and c1 beside its cannon on a1, where moving it on uncovers a
// check along rank 1 over Red's chariot. Red's horse steps between b5 and c3 into its reach: a
// cannon protects the horse either way, but no recapture answers the check.
const std::string CheckBehind = "5k3/9/9/9/9/1N2P1C2/9/4BC3/9/cr1RK4 w - - 0 1";
const std::string CheckCycle = "b5c3 b1c1 c3b5 c1b1";

TEST(ChaseForms, AThreatToCaptureWithCheckIsAChase) {
  EXPECT_EQ(verdict_after(CheckBehind, CheckCycle),
            "Black has chased the horse on b5 with every move for 2 cycles; Black must vary");
}

TEST(ChaseForms, WithoutTheCheckTheProtectedHorseIsNotChased) {
  // No cannon on a1: the capture gives no check, and Red's cannons recapture.
  EXPECT_EQ(verdict_after("5k3/9/9/9/9/1N2P1C2/9/4BC3/9/1r1RK4 w - - 0 1", CheckCycle),
            "the position has occurred 3 times; Red may claim a draw");
}

// Black's chariot follows Red's along rank 5 and 4. Red's chariot may not take it: between Black's
// cannon and Red's general it is one of two screens, and leaving the file would let the cannon check.
const std::string PinnedChariots = "4ck3/9/9/9/9/2r1R4/9/9/4A4/3AK4 w - - 0 1";
const std::string ChariotCycle = "e5e4 c5c4 e4e5 c4c5";

TEST(ChaseForms, AChariotChasesAChariotThatCannotTakeBack) {
  EXPECT_EQ(verdict_after(PinnedChariots, ChariotCycle),
            "Black has chased the chariot on e5 with every move for 2 cycles; Black must vary");
}

TEST(ChaseForms, ChariotsAttackingEachOtherChaseNobody) {
  // No cannon: Red's chariot may take back, so the attack is mutual (rule 24).
  EXPECT_EQ(verdict_after("5k3/9/9/9/9/2r1R4/9/9/4A4/3AK4 w - - 0 1", ChariotCycle),
            "the position has occurred 3 times; Red may claim a draw");
}

TEST(ChaseForms, ASoldierOnItsOwnSideIsNotChased) {
  // The cannons' manoeuvre, Black's now, against Red's soldier on f3, which has not crossed the
  // river: attacking it is no chase (rule 25).
  EXPECT_EQ(verdict_after("3k5/9/9/5c3/5C3/5c3/9/5P3/9/4K4 b - - 0 1", CannonCycle),
            "the position has occurred 3 times; Black may claim a draw");
}

}  // namespace
}  // namespace palace::test
