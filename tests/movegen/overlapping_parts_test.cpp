// Movement parts that reach the same points: each move is generated once, in both back ends, and
// the compiler settles it when the variant loads (the bitboard back end still applies). A leap that
// leaves a ghost promotes where it lands in the zone. A leap that rides (a nightrider) moves as the
// long form and Betza say, alike. A turned side's chiral piece leaps as the reference's does.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "test_support.h"

namespace palace::test {
namespace {

// The legal moves of the piece on `from`, as text, in the variant at `path` loaded for `backend`.
std::vector<std::string> moves_from(const std::string& path, MoveBackend backend, const std::string& fen, const std::string& from) {
  Position pos(load_variant(path, backend));
  pos.set_fen(fen);
  std::vector<std::string> out;
  for (const std::string& text : legal_move_texts(pos))
    if (text.rfind(from, 0) == 0) out.push_back(text);
  return out;
}

std::string queen_written(const std::string& moves) {
  return overlay_path("chess", "pieces:\n  queen: {moves: " + moves + "}\n");
}

const char* const LoneQueen = "k7/8/8/8/3Q4/8/8/7K w - - 0 1";
const char* const QueenBlocked = "k7/8/8/3p4/3Q4/8/8/7K w - - 0 1";  // a pawn to take on d5

TEST(OverlappingParts, AStepAndASlideAlongOneLineAreOneMove) {
  const std::string path = queen_written("[{slide: all}, {step: all}]");
  for (const MoveBackend backend : {MoveBackend::Fastest, MoveBackend::Mailbox}) {
    EXPECT_EQ(moves_from(path, backend, LoneQueen, "d4").size(), 27u);
    EXPECT_EQ(moves_from(path, backend, QueenBlocked, "d4").size(), 24u);
  }
  // The step gives way to the slide, so the bitboard back end keeps its lines whole.
  EXPECT_NE(load_variant(path)->bitboards(), nullptr);
}

TEST(OverlappingParts, TwoSlidesAlongOneLineAreOneMove) {
  const std::string path = queen_written("[{slide: all}, {slide: orthogonal, range: 2}, {slide: forward, only: move}]");
  for (const MoveBackend backend : {MoveBackend::Fastest, MoveBackend::Mailbox}) {
    EXPECT_EQ(moves_from(path, backend, LoneQueen, "d4").size(), 27u);
    EXPECT_EQ(moves_from(path, backend, QueenBlocked, "d4").size(), 24u);
  }
}

// A leap with nothing to pass lands on d6 whenever the slide does, and also over the pawn on d5.
TEST(OverlappingParts, ALeapOverNothingTakesTheSlidesPoint) {
  const std::string path = queen_written("[{slide: all}, {leap: [0, 2]}]");
  for (const MoveBackend backend : {MoveBackend::Fastest, MoveBackend::Mailbox}) {
    EXPECT_EQ(moves_from(path, backend, LoneQueen, "d4").size(), 27u);
    const std::vector<std::string> blocked = moves_from(path, backend, QueenBlocked, "d4");
    EXPECT_EQ(blocked.size(), 25u);
    EXPECT_EQ(std::count(blocked.begin(), blocked.end(), "d4d6"), 1);
  }
}

// A leap that must find more points empty than the slide does lands only where the slide does.
TEST(OverlappingParts, ALeapOverMorePointsGivesWayToTheSlide) {
  const std::string path = queen_written("[{slide: all}, {leap: [0, 2], block: [[0, 1], [1, 1]]}]");
  for (const MoveBackend backend : {MoveBackend::Fastest, MoveBackend::Mailbox}) {
    EXPECT_EQ(moves_from(path, backend, LoneQueen, "d4").size(), 27u);
    EXPECT_EQ(moves_from(path, backend, QueenBlocked, "d4").size(), 24u);
  }
}

// A cannon that also leaps two points straight: over the pawn on d5 both land on d6, one move.
TEST(OverlappingParts, ALeapOverNothingTakesTheHopsPoint) {
  const std::string path = queen_written("[{hop: orthogonal}, {leap: [0, 2]}]");
  for (const MoveBackend backend : {MoveBackend::Fastest, MoveBackend::Mailbox}) {
    const std::vector<std::string> moves = moves_from(path, backend, QueenBlocked, "d4");
    // The leaps d2, b4, f4, d6; the hop over d5 to d6, d7, d8.
    EXPECT_EQ(moves, (std::vector<std::string>{"d4b4", "d4d2", "d4d6", "d4d7", "d4d8", "d4f4"}));
  }
}

// A pawn that may step two points from any rank (the reference's torpedo), into the last rank.
TEST(GhostLeaps, PromoteWhereTheyLandInTheZone) {
  const std::string path = overlay_path("chess", R"(pieces:
  pawn:
    moves:
      - {step: forward, only: move}
      - {leap: [0, 2], block: [[0, 1]], symmetry: none, only: move, leaves_ghost: true}
      - {step: [forward_left, forward_right], only: capture, takes_ghost: true}
)");
  for (const MoveBackend backend : {MoveBackend::Fastest, MoveBackend::Mailbox}) {
    EXPECT_EQ(moves_from(path, backend, "k7/8/4P3/8/8/8/8/4K3 w - - 0 1", "e6"),
              (std::vector<std::string>{"e6e7", "e6e8b", "e6e8n", "e6e8q", "e6e8r"}));
    Position pos(load_variant(path, backend));
    pos.set_fen("k7/8/4P3/8/8/8/8/4K3 w - - 0 1");
    play_moves(pos, "e6e8q");
    EXPECT_EQ(pos.fen(), "k3Q3/8/8/8/8/8/8/4K3 b - - 0 1");  // no ghost behind a queen
    pos.set_fen("k7/8/4P3/8/8/8/8/4K3 w - - 0 1");
    // Black's king on a8 has three moves after each of White's, two where a new queen or rook on
    // e8 guards b8: 5 pawn moves (13 replies) and 5 king moves (15).
    EXPECT_EQ(perft(pos, 2), 28u);
  }
}

const char* const NightriderOpen = "4k3/8/8/8/8/8/8/1N2K3 w - - 0 1";
const char* const NightriderBlocked = "4k3/8/8/3p4/8/8/8/1N2K3 w - - 0 1";

TEST(Rides, ALeapRepeatedOverEmptyPoints) {
  const std::string long_form = variant_path("nightrider");
  for (const MoveBackend backend : {MoveBackend::Fastest, MoveBackend::Mailbox}) {
    EXPECT_EQ(moves_from(long_form, backend, NightriderOpen, "b1"),
              (std::vector<std::string>{"b1a3", "b1c3", "b1d2", "b1d5", "b1e7", "b1f3", "b1h4"}));
    // The pawn on d5 is taken, and stops the ride along c3-d5-e7.
    EXPECT_EQ(moves_from(long_form, backend, NightriderBlocked, "b1"),
              (std::vector<std::string>{"b1a3", "b1c3", "b1d2", "b1d5", "b1f3", "b1h4"}));
  }
}

TEST(Rides, BetzaAndTheLongFormCompileAlike) {
  const auto betza = load_variant(overlay_path("nightrider", "pieces:\n  nightrider: {moves: [{betza: NN}]}\n"));
  const auto long_form = load_variant(variant_path("nightrider"));
  for (const char* fen : {NightriderOpen, NightriderBlocked, "r1bqkb1r/pppppppp/2n2n2/8/8/2N2N2/PPPPPPPP/R1BQKB1R w KQkq - 0 1"}) {
    Position a(betza), b(long_form);
    a.set_fen(fen);
    b.set_fen(fen);
    EXPECT_EQ(legal_move_texts(a), legal_move_texts(b)) << fen;
    EXPECT_EQ(perft(a, 3), perft(b, 3)) << fen;
  }
}

TEST(Rides, ARideTooLongForItsLeapsIsRefused) {
  const std::string path = overlay_path("chess", "pieces:\n  rook: {moves: [{leap: [0, 1], rides: true}]}\n");
  EXPECT_EQ(rule_error_of([&] { load_variant(path); }),
            path + ":3:18: pieces.rook.moves[0]: a ride makes at most 4 leaps, and this one could make 7 on this board: "
                   "give it `range: 4`");
}

// rfN leaps one point right and two forward: for White d5e7; for Black, turned round, d5c3 (the
// reference's answer), and mirrored, d5e3.
TEST(TurnedSides, ChiralPiecesLeapAsTheSideSeesTheBoard) {
  const std::string queen = "pieces:\n  queen: {moves: [{betza: rfN}]}\n";
  const std::string turned = overlay_path("chess", queen + "sides:\n  black: {turned: true}\n");
  for (const MoveBackend backend : {MoveBackend::Fastest, MoveBackend::Mailbox}) {
    EXPECT_EQ(moves_from(turned, backend, "4k3/8/8/3q4/8/8/8/4K3 b - - 0 1", "d5"), std::vector<std::string>{"d5c3"});
    EXPECT_EQ(moves_from(turned, backend, "4k3/8/8/3Q4/8/8/8/4K3 w - - 0 1", "d5"), std::vector<std::string>{"d5e7"});
  }
  const std::string mirrored = overlay_path("chess", queen);
  EXPECT_EQ(moves_from(mirrored, MoveBackend::Fastest, "4k3/8/8/3q4/8/8/8/4K3 b - - 0 1", "d5"), std::vector<std::string>{"d5e3"});
}

}  // namespace
}  // namespace palace::test
