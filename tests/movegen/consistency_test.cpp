// Make and unmake keep the board, the piece lists, the royals and the hash in agreement: checked
// after every move and every undo of a perft over the reference positions of every variant.
#include <gtest/gtest.h>

#include <algorithm>
#include <tuple>
#include <vector>

#include "movegen/reference_positions.h"

namespace palace::test {
namespace {

class Consistency : public ::testing::TestWithParam<std::string> {};

TEST_P(Consistency, EveryMakeAndUnmakeOfAPerft) {
  const auto variant = load_variant(variant_path(GetParam()));
  const auto lines = data_lines(vectors_path(GetParam() + ".perft"));
  ASSERT_FALSE(lines.empty());
  for (std::size_t i = 0; i < lines.size() && i < 25; ++i) {
    Position pos(variant);
    pos.set_fen(split(lines[i], ';').at(0));
    ASSERT_TRUE(pos.is_consistent()) << lines[i];
    const std::uint64_t expected = perft(pos, 2);
    EXPECT_EQ(checked_perft(pos, 2), expected) << lines[i];
  }
}

// The quiescence generator keeps exactly the captures and promotions among the legal moves, in the
// reference positions and one ply on, terminal positions included, and says whether any move is left.
TEST_P(Consistency, CapturesAreTheLegalMovesThatChangeMaterial) {
  const auto variant = load_variant(variant_path(GetParam()));
  const std::vector<std::string> fens = reference_fens(GetParam());
  int positions = 0, without_moves = 0;
  auto check = [&](Position& pos) {
    MoveList all, captures;
    generate_legal(pos, all);
    const bool can_move = generate_legal(pos, captures, Keep::Captures);
    std::vector<std::uint32_t> expected, kept;
    for (const Move m : all)
      if (m.type() == MoveType::CaptureGhost || (!m.is_pass() && pos.at(m.to())) || m.promotion_kind() >= 0)
        expected.push_back(m.raw());
    for (const Move m : captures) kept.push_back(m.raw());
    std::sort(expected.begin(), expected.end());
    std::sort(kept.begin(), kept.end());
    EXPECT_EQ(kept, expected) << pos.fen();
    EXPECT_EQ(can_move, all.size > 0) << pos.fen();
    ++positions;
    without_moves += all.size == 0;
  };
  for_each_position_and_reply(variant, fens, check);
  EXPECT_GT(positions, 1000);
  EXPECT_GT(without_moves, 0);  // the terminal vectors hold mates and stalemates
}

INSTANTIATE_TEST_SUITE_P(AllVariants, Consistency, ::testing::Values("janggi", "janggi-casual", "janggi-modern", "xiangqi", "chess"), VariantParamName());

// The legality test's shortcuts (points a move cannot expose the royal through, hopper lines
// included; moves tried on the board alone instead of made), on the mailbox generator and on the
// game's fastest back end, keep exactly the pseudo-legal moves after which, made in full, the
// mover's royal is not attacked and the royals do not face where they may not: in the reference
// positions and one ply on.
class LegalityShortcuts : public ::testing::TestWithParam<std::string> {};

void expect_royal_safe_moves_kept(const std::shared_ptr<const Variant>& variant, const std::string& game) {
  const FacingRule facing = variant->move_rules().facing_royals;
  int positions = 0, refused = 0;
  for_each_position_and_reply(variant, reference_fens(game), [&](Position& pos) {
    if (ended_before_moves(pos)) return;
    const Side us = pos.side_to_move();
    const bool must_not_face = facing == FacingRule::Forbidden || (facing == FacingRule::Standoff && pos.state().royals_facing);
    MoveList pseudo, legal;
    generate_pseudo_legal(pos, pseudo);
    generate_legal(pos, legal);
    std::vector<std::uint32_t> expected, kept;
    for (const Move m : pseudo) {
      pos.do_move(m);
      const bool safe = !royal_attacked(pos, us) && !(must_not_face && pos.state().royals_facing);
      pos.undo_move();
      if (safe) expected.push_back(m.raw());
      refused += !safe;
    }
    for (const Move m : legal)
      if (!m.is_pass() && m.type() != MoveType::Drop) kept.push_back(m.raw());
    std::sort(expected.begin(), expected.end());
    std::sort(kept.begin(), kept.end());
    EXPECT_EQ(kept, expected) << pos.fen();
    ++positions;
  });
  EXPECT_GT(positions, 400);
  EXPECT_GT(refused, 100);
}

TEST_P(LegalityShortcuts, KeepsTheMovesThatLeaveTheRoyalSafeWhenMade) {
  for (const MoveBackend backend : {MoveBackend::Mailbox, MoveBackend::Fastest}) {
    SCOPED_TRACE(backend == MoveBackend::Mailbox ? "mailbox" : "fastest back end");
    expect_royal_safe_moves_kept(load_variant(variant_path(GetParam()), backend), GetParam());
  }
}

INSTANTIATE_TEST_SUITE_P(Variants, LegalityShortcuts,
                         ::testing::Values("janggi", "janggi-modern", "xiangqi", "minixiangqi", "manchu", "shogi", "capablanca",
                                           "grand"),
                         VariantParamName());

// Quiescence asks the generator for captures only: the moves it leaves out are plain moves that
// neither capture nor promote, so that the captures, ghost captures and promotions of the two lists
// are the same moves in the same order (the search's ordering breaks ties by it).
class PseudoLegalCaptures : public ::testing::TestWithParam<std::string> {};

TEST_P(PseudoLegalCaptures, LeaveOutOnlyTheQuietMovesInTheSameOrder) {
  const auto variant = load_variant(variant_path(GetParam()));
  int positions = 0, left_out = 0;
  const auto changes_material = [](const Position& pos, Move m) {
    return m.type() == MoveType::CaptureGhost || (m.type() != MoveType::Compound && pos.at(m.to())) || m.promotion_kind() >= 0;
  };
  for_each_position_and_reply(variant, reference_fens(GetParam()), [&](Position& pos) {
    MoveList all, captures;
    generate_pseudo_legal(pos, all);
    generate_pseudo_legal(pos, captures, true);
    std::vector<std::uint32_t> expected, kept;
    for (const Move m : all)
      if (changes_material(pos, m)) expected.push_back(m.raw());
    for (const Move m : captures)
      if (changes_material(pos, m)) kept.push_back(m.raw());
    EXPECT_EQ(kept, expected) << pos.fen();
    ++positions;
    left_out += all.size - captures.size;
  });
  EXPECT_GT(positions, 100);
  EXPECT_GT(left_out, 1000);
}

INSTANTIATE_TEST_SUITE_P(SomeOfEachBackEnd, PseudoLegalCaptures,
                         ::testing::Values("chess", "xiangqi", "janggi-modern", "shogi", "crazyhouse", "atomic", "makruk",
                                           "grand", "capablanca", "berolina", "chess960", "horde"),
                         VariantParamName());

TEST(Consistency, CastlingOntoThePartnersStart) {
  Position pos(load_variant(source_path("tests/repro/c960.yaml")));
  pos.set_fen("r4kr1/8/8/8/8/8/8/R4KR1 w KQkq - 0 1");
  EXPECT_GT(checked_perft(pos, 3), 0u);
}

// Both generators ask only the castlings that start where a side's piece of their kind stands:
// Chess960's 56 a side, 7 from each point of the first rank; chess's 2 from e1.
TEST(Consistency, CompoundMovesAreFoundByTheirStart) {
  for (const auto& [game, starts, each] : {std::tuple{"chess960", 8u, 7u}, std::tuple{"chess", 1u, 2u}}) {
    SCOPED_TRACE(game);
    const auto variant = load_variant(variant_path(game));
    for (Side side = First; side < SideCount; ++side) {
      ASSERT_EQ(variant->compound_starts(side).size(), starts);
      for (const Variant::CompoundStart& start : variant->compound_starts(side)) {
        EXPECT_EQ(start.moves.size(), each);
        for (const std::uint8_t i : start.moves) {
          const CompoundMove& c = variant->compound_moves()[i];
          EXPECT_EQ(c.side, side);
          EXPECT_EQ(c.from, start.from);
          EXPECT_EQ(c.kind, start.kind);
        }
      }
    }
  }
  // The king on b1 castles with either rook (b1a1, b1g1), from either back end, as the reference has it.
  for (const MoveBackend backend : {MoveBackend::Mailbox, MoveBackend::Fastest}) {
    Position pos(load_variant(variant_path("chess960"), backend));
    pos.set_fen("r3k2r/8/8/8/8/8/8/RK4R1 w KQkq - 0 1");
    EXPECT_EQ(join(legal_move_texts(pos)),
              "a1a2 a1a3 a1a4 a1a5 a1a6 a1a7 a1a8 b1a1 b1b2 b1c1 b1c2 b1g1 g1c1 g1d1 g1e1 g1f1 g1g2 g1g3 g1g4 g1g5 "
              "g1g6 g1g7 g1g8 g1h1");
  }
}

}  // namespace
}  // namespace palace::test
