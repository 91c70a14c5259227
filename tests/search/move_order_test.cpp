// The order the search tries moves in: what the histories learnt changes it as intended.
#include <gtest/gtest.h>

#include <memory>

#include "search/eval.h"
#include "search/move_order.h"
#include "test_support.h"

namespace palace::test {
namespace {

// The first move tried at `ply` of `pos`, where no move is known from an earlier search.
std::string first_tried(Position& pos, const search::Histories& h, int ply, const search::Evaluation& eval) {
  MoveList list;
  generate_legal(pos, list);
  const auto scores = std::make_unique<search::MoveScores>();
  search::MoveOrder order(pos, list, *scores, Move(), h, ply, eval);
  return pos.move_text(order.next());
}

TEST(MoveOrder, CountermoveComesBeforeABetterHistory) {
  const auto chess = load_variant(variant_path("chess"));
  const search::Evaluation eval(*chess);
  auto h = std::make_unique<search::Histories>(*chess);
  // Nf6 refuted e4 at a shallow node, Nc6 refuted d4 at a deeper one: Nc6 has the better history.
  Position e4 = after_moves(chess, "e2e4"), d4 = after_moves(chess, "d2d4"), c4 = after_moves(chess, "c2c4");
  h->reward(e4, legal_move_named(e4, "g8f6"), 0, 2, nullptr, 0);
  h->reward(d4, legal_move_named(d4, "b8c6"), 0, 5, nullptr, 0);
  // At another ply, where neither is a killer, each is tried first after the move it refuted...
  EXPECT_EQ(first_tried(e4, *h, 1, eval), "g8f6");
  EXPECT_EQ(first_tried(d4, *h, 1, eval), "b8c6");
  // ...and history decides after a move with no countermove.
  EXPECT_EQ(first_tried(c4, *h, 1, eval), "b8c6");
}

TEST(MoveOrder, ContinuationHistoryFollowsThePieceAndPointAnswered) {
  const auto chess = load_variant(variant_path("chess"));
  const search::Evaluation eval(*chess);
  auto h = std::make_unique<search::Histories>(*chess);
  // Nf6 refuted a pawn's arrival on e4 (16 points of history and 16 of continuation), Nc6 one on
  // d4 (25 and 25).
  Position e4 = after_moves(chess, "e2e4"), d4 = after_moves(chess, "d2d4");
  h->reward(e4, legal_move_named(e4, "g8f6"), 0, 4, nullptr, 0);
  h->reward(d4, legal_move_named(d4, "b8c6"), 0, 5, nullptr, 0);
  // A pawn that reaches e4 from e3 has no countermove, but Nf6 answers it again: 32 against 25.
  Position e3e4 = after_moves(chess, "e2e3 e7e6 e3e4"), c4 = after_moves(chess, "c2c4");
  EXPECT_EQ(first_tried(e3e4, *h, 1, eval), "g8f6");
  // After c4 neither answered anything: history alone, 25 against 16.
  EXPECT_EQ(first_tried(c4, *h, 1, eval), "b8c6");
}

// Histories of `chess` after two lessons: Nc6 refuted Nf3 two plies after Black's e5 (16 points of
// history, 16 as the answer to Nf3, 16 as the follow-up to e5, where the variant follows it); Nf6
// refuted c4 after Black's d5 (25, 25 and 25).
std::unique_ptr<search::Histories> after_follow_up_lessons(const std::shared_ptr<const Variant>& chess) {
  auto h = std::make_unique<search::Histories>(*chess);
  Position after_e5 = after_moves(chess, "e2e4 e7e5 g1f3"), after_d5 = after_moves(chess, "d2d4 d7d5 c2c4");
  h->reward(after_e5, legal_move_named(after_e5, "b8c6"), 0, 4, nullptr, 0);
  h->reward(after_d5, legal_move_named(after_d5, "g8f6"), 0, 5, nullptr, 0);
  return h;
}

TEST(MoveOrder, ContinuationHistoryFollowsTheSidesOwnMoveBefore) {
  const auto chess = load_variant(variant_path("chess"));
  const search::Evaluation eval(*chess);
  const auto h = after_follow_up_lessons(chess);
  // After e5 and a move neither answered, Nc6 follows e5 again: 32 against 25.
  Position again = after_moves(chess, "b1c3 e7e5 h2h3");
  EXPECT_EQ(first_tried(again, *h, 1, eval), "b8c6");
  // After d5 it is Nf6, 50 against 16.
  Position other = after_moves(chess, "b1c3 d7d5 h2h3");
  EXPECT_EQ(first_tried(other, *h, 1, eval), "g8f6");
}

TEST(MoveOrder, ContinuationHistoryFollowsOnlyTheMoveAnsweredWhereTheVariantSaysSo) {
  const auto chess = load_variant(overlay_path("chess", "engine: {search: {continuation_plies: 1}}\n"));
  const search::Evaluation eval(*chess);
  const auto h = after_follow_up_lessons(chess);
  // e5 is not followed: history alone, Nf6's 25 against Nc6's 16.
  Position again = after_moves(chess, "b1c3 e7e5 h2h3");
  EXPECT_EQ(first_tried(again, *h, 1, eval), "g8f6");
}

TEST(MoveOrder, ContinuationHistoryFollowsAPieceThatExplodedOnArrival) {
  const auto atomic = load_variant(variant_path("atomic"));
  const search::Evaluation eval(*atomic);
  auto h = std::make_unique<search::Histories>(*atomic);
  // d6 refuted a knight's capture on e5, which left the point empty (16 points of history and 16 of
  // continuation for a knight's arrival on e5); Nc6 refuted d4 (25 and 25).
  Position exploded = after_moves(atomic, "b1a3 e7e5 a3c4 a7a6 c4e5"), d4 = after_moves(atomic, "d2d4");
  ASSERT_EQ(exploded.at(atomic->board().parse_point("e5")), NoPiece);
  h->reward(exploded, legal_move_named(exploded, "d7d6"), 0, 4, nullptr, 0);
  h->reward(d4, legal_move_named(d4, "b8c6"), 0, 5, nullptr, 0);
  // A knight that reaches e5 quietly, from another point, is answered by d6 again: 32 against 25.
  Position quiet = after_moves(atomic, "g1f3 a7a6 f3e5");
  EXPECT_EQ(first_tried(quiet, *h, 1, eval), "d7d6");
}

}  // namespace
}  // namespace palace::test
