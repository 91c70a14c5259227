// The engine on scripted positions: mates found at their distance, every end rule scored as the
// variant says (repetition, perpetual check, bikjang, passing), and the same answer every run.
#include <gtest/gtest.h>

#include <algorithm>
#include <chrono>
#include <sstream>
#include <thread>

#include "game/evaluator.h"
#include "game/game.h"
#include "search/search.h"
#include "search/time_manager.h"
#include "test_support.h"

namespace palace::test {
namespace {

struct Outcome {
  std::string move;
  search::Report last;  // of the deepest completed iteration
};

// The engine's answer at `depth` in the position reached from `fen` by the moves in `moves`.
Outcome search_at(Position& pos, int depth) {
  search::Searcher searcher(pos.variant_ptr());
  Outcome out;
  const Move best = searcher.search(pos, {.depth = depth}, [&](const search::Report& r) { out.last = r; });
  out.move = best ? pos.move_text(best) : "none";
  return out;
}

Position position_of(const std::string& variant, const std::string& fen, const std::string& moves = "") {
  Position pos(load_variant(variant_path(variant)));
  pos.set_fen(fen);
  play_moves(pos, moves);
  return pos;
}

// The game's state after the principal variation.
Verdict after_pv(Position pos, const std::vector<Move>& pv) {
  for (const Move m : pv) pos.do_move(m);
  return evaluate(pos);
}

struct MatePuzzle {
  std::string variant, fen;
  int mate_in;
  std::string first_move;  // the reference engine's mating move, "" where several mate
};

class MatePuzzles : public ::testing::TestWithParam<MatePuzzle> {};

// Positions checked with Fairy-Stockfish (Janggi FENs mirrored to its notation).
const MatePuzzle Puzzles[] = {
    {"chess", "6k1/5ppp/8/8/8/8/5PPP/R5K1 w - - 0 1", 1, "a1a8"},
    {"chess", "r6k/6pp/7N/8/8/1Q6/6PP/6K1 w - - 0 1", 2, "b3g8"},  // the smothered mate
    {"xiangqi", "4k4/1R7/R8/9/9/9/9/9/9/3K5 w - - 0 1", 1, ""},
    {"xiangqi", "4k4/9/1R7/R8/9/9/9/9/9/3K5 w - - 0 1", 2, ""},
    {"janggi-modern", "9/3K5/9/9/9/9/9/1R7/R8/4k4 w - - 0 1", 1, "b3b1"},
    {"janggi-modern", "9/3K5/9/9/9/9/1R7/R8/9/4k4 w - - 0 1", 2, ""},
};

void PrintTo(const MatePuzzle& p, std::ostream* out) { *out << p.variant << " " << p.fen; }

TEST_P(MatePuzzles, MateFoundAtItsDistance) {
  const MatePuzzle& p = GetParam();
  Position pos = position_of(p.variant, p.fen);
  const Outcome out = search_at(pos, 2 * p.mate_in + 1);
  EXPECT_EQ(out.last.mate_in, p.mate_in);
  EXPECT_EQ(out.last.score_cp, search::MateScore - (2 * p.mate_in - 1));
  if (!p.first_move.empty()) {
    EXPECT_EQ(out.move, p.first_move);
  }
  ASSERT_EQ(out.last.pv.size(), std::size_t(2 * p.mate_in - 1));
  // Where a side without a move loses anyway (Xiangqi, Janggi), stalemating is mating too.
  const Verdict end = after_pv(pos, out.last.pv);
  EXPECT_TRUE(end.termination == Termination::Checkmate || end.termination == Termination::Stalemate) << end.str(pos.variant());
  EXPECT_EQ(end.winner, pos.side_to_move());
}

INSTANTIATE_TEST_SUITE_P(Variants, MatePuzzles, ::testing::ValuesIn(Puzzles));

TEST(SearchEnds, MatedSideSeesItsLoss) {
  // Black is mated already: no move to return.
  Position pos = position_of("chess", "R5k1/5ppp/8/8/8/8/5PPP/6K1 b - - 0 1");
  EXPECT_EQ(search_at(pos, 3).move, "none");
}

TEST(SearchEnds, RepetitionIsADrawTheLosingSideTakes) {
  // White, a queen down, checks on a8 and a7; the next check on a8 repeats a position the third
  // time, a draw White may claim, which the search takes as one.
  Position pos = position_of("chess", "3k4/8/8/7q/8/R7/8/1K6 w - - 0 1", "a3a8 d8d7 a8a7 d7d8 a7a8 d8d7 a8a7 d7d8");
  const Outcome out = search_at(pos, 3);
  EXPECT_EQ(out.move, "a7a8");
  EXPECT_EQ(out.last.score_cp, 0);
}

TEST(SearchEnds, PerpetualCheckLosesWhereTheVariantSaysSo) {
  // The same cycle of checks in Janggi, where the side giving every check of a repetition loses:
  // Cho, a chariot down, must not check on a1 a third time.
  const std::string fen = "9/5K3/9/9/9/8r/9/R8/9/3k5 w - - 0 1";
  Position pos = position_of("janggi", fen, "a3a1 d1d2 a1a2 d2d1 a2a1 d1d2 a1a2 d2d1");
  const Outcome out = search_at(pos, 3);
  EXPECT_NE(out.move, "a2a1");
  EXPECT_GT(out.last.score_cp, -search::MateScore / 2);

  Position checked = position_of("janggi", fen, "a3a1 d1d2 a1a2 d2d1 a2a1 d1d2 a1a2 d2d1 a2a1");
  const Verdict end = evaluate(checked);
  EXPECT_EQ(end.termination, Termination::PerpetualCheck);
}

// A move the game's history refuses is no move at the root, as it is none to the game: here the
// king's only move is its third back and forth in a row under a shuttle rule of three, so the game
// is stalemated and the search has no move to give. It gave that move before, scored as lost.
TEST(SearchEnds, AMoveTheHistoryRefusesIsNeverPlayed) {
  Game game(load_variant(overlay_path("chess", "ends:\n  repetition: {shuttle: 3}\n")));
  game.set_fen("7n/8/8/8/8/3k4/2r5/K7 w - - 0 1");
  for (const char* move : {"a1b1", "h8g6", "b1a1", "g6e5"}) ASSERT_TRUE(game.play(move).accepted) << move;
  EXPECT_EQ(game.game_state().termination, Termination::Stalemate);
  Position pos = game.position();
  EXPECT_EQ(search_at(pos, 3).move, "none");
}

// Janggi-modern: the generals facing on an open file for two plies end the game by counting,
// 1.5 extra to Han. Cho has just faced them (d9e9); Han to move keeps the standoff when ahead on
// points and breaks it when behind.
TEST(SearchEnds, BikjangIsKeptWhenAheadOnPoints) {
  Position pos = position_of("janggi-modern", "9/3K5/9/9/9/9/9/9/4k4/r8 w - - 0 1", "d9e9");
  const Outcome out = search_at(pos, 3);
  EXPECT_EQ(out.last.score_cp, search::MateScore - 1);
  pos.do_move(out.last.pv.front());
  EXPECT_TRUE(pos.royals_facing());
}

TEST(SearchEnds, BikjangIsBrokenWhenBehindOnPoints) {
  // Cho's soldier on Han's back rank is worth 2 points to Han's bonus of 1.5, and too slow to help.
  Position pos = position_of("janggi-modern", "9/3K5/9/9/9/9/9/9/4k4/8P w - - 0 1", "d9e9");
  const Outcome out = search_at(pos, 3);
  EXPECT_GT(out.last.score_cp, -search::MateScore / 2);
  pos.do_move(out.last.pv.front());
  EXPECT_FALSE(pos.royals_facing());
}

// Janggi-modern: two passes in a row end the game by counting. After Cho's pass, Han passes back
// when that wins on points, and plays on when it would lose.
TEST(SearchEnds, SecondPassTakenOnlyWhenItWinsOnPoints) {
  Position ahead = position_of("janggi-modern", "9/4K4/9/9/9/9/9/9/3k5/r8 w - - 0 1", "pass");
  const Outcome pass = search_at(ahead, 3);
  EXPECT_EQ(pass.move, "pass");
  EXPECT_EQ(pass.last.score_cp, search::MateScore - 1);

  Position behind = position_of("janggi-modern", "9/4K4/9/9/9/9/9/9/3k5/8P w - - 0 1", "pass");
  const Outcome play_on = search_at(behind, 3);
  EXPECT_NE(play_on.move, "pass");
  EXPECT_GT(play_on.last.score_cp, -search::MateScore / 2);
}

TEST(SearchDeterminism, SameMoveAndNodesEveryRun) {
  for (const std::string variant : {"janggi-modern", "xiangqi", "chess"}) {
    const auto v = load_variant(variant_path(variant));
    const Position pos(v);
    search::Report first, second;
    search::Searcher a(v), b(v);
    const Move ma = a.search(pos, {.depth = 5}, [&](const search::Report& r) { first = r; });
    const Move mb = b.search(pos, {.depth = 5}, [&](const search::Report& r) { second = r; });
    EXPECT_EQ(ma, mb) << variant;
    EXPECT_EQ(first.nodes, second.nodes) << variant;
    EXPECT_EQ(first.pv, second.pv) << variant;

    search::Limits nodes_only;
    nodes_only.nodes = 5000;
    a.clear();
    b.clear();
    EXPECT_EQ(a.search(pos, nodes_only), b.search(pos, nodes_only)) << variant;
  }
}

// Each heuristic a variant's `search:` section may turn on reaches the search: in a middlegame rich
// in checks, any one of them alone changes the tree to the same depth, and the move stays legal.
TEST(SearchRules, EachHeuristicChangesTheTree) {
  const std::string kiwipete = "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1";
  auto nodes_with = [&](const std::string& reduce, const std::string& extend, const std::string& plies) {
    Position pos(load_variant(overlay_path("chess", "engine: {search: {reduce_evasions: " + reduce + ", extend_checks: " +
                                                        extend + ", continuation_plies: " + plies + "}}\n")));
    pos.set_fen(kiwipete);
    const Outcome out = search_at(pos, 8);
    const std::vector<std::string> legal = legal_move_texts(pos);
    EXPECT_NE(std::find(legal.begin(), legal.end(), out.move), legal.end()) << out.move;
    return out.last.nodes;
  };
  const std::uint64_t none = nodes_with("false", "all", "1");
  EXPECT_NE(nodes_with("true", "all", "1"), none);
  EXPECT_NE(nodes_with("false", "safe", "1"), none);
  EXPECT_NE(nodes_with("false", "all", "2"), none);
}

TEST(SearchLimits, StopFromAnotherThreadEndsAnInfiniteSearch) {
  const auto v = load_variant(variant_path("xiangqi"));
  const Position pos(v);
  search::Searcher searcher(v);
  int reports = 0;
  std::thread stopper([&] {
    std::this_thread::sleep_for(std::chrono::milliseconds(200));
    searcher.stop();
  });
  const Move best = searcher.search(pos, {.infinite = true}, [&](const search::Report&) { ++reports; });
  stopper.join();
  EXPECT_TRUE(best);
  EXPECT_GE(reports, 1);
  // The stop is spent: the next search runs to its own limit.
  search::Report last;
  searcher.search(pos, {.depth = 4}, [&](const search::Report& r) { last = r; });
  EXPECT_EQ(last.depth, 4);
}

TEST(SearchLimits, MovetimeIsKept) {
  const auto v = load_variant(variant_path("janggi-modern"));
  const Position pos(v);
  search::Searcher searcher(v);
  const auto start = std::chrono::steady_clock::now();
  EXPECT_TRUE(searcher.search(pos, {.movetime_ms = 150}));
  const auto elapsed = std::chrono::steady_clock::now() - start;
  EXPECT_LT(elapsed, std::chrono::milliseconds(1000));  // generous: the machine is shared
}

// UCI's movetime is searched whole, as the protocol says; a clock keeps 10 ms back for the move to
// reach the GUI, as running over it loses the game.
TEST(SearchLimits, MovetimeIsSpentWholeAndAClockKeepsAMargin) {
  EXPECT_EQ(search::TimeManager({.movetime_ms = 100}, Side(0)).budget_ms(), 100);
  search::Limits clock;
  clock.time_left_ms[1] = 60000;
  clock.increment_ms[1] = 1000;
  EXPECT_EQ(search::TimeManager(clock, Side(1)).budget_ms(), 60000 / 30 + 800 - 10);
  EXPECT_EQ(search::TimeManager(clock, Side(0)).budget_ms(), 0);  // the first side's clock is not set
}

}  // namespace
}  // namespace palace::test
