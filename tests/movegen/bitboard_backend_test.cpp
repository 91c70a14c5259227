// The bitboard back end (compiler/bitboards.h) against the mailbox generator, the reference: the
// variants it applies to, and in each the same legal moves, checks, attacks, mobility walks, evaluations and
// perft counts in the reference positions and along random games from them, with PEXT and with
// magic indexing; every vector of each such game from the mailbox and from magic indexing; and the
// check filter its tables answer, against the checks the moves give.
#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <iterator>
#include <memory>
#include <random>
#include <set>

#include "compiler/bitboards.h"
#include "movegen/destinations.h"
#include "movegen/reference_positions.h"
#include "search/eval.h"
#include "vectors/reference_perft.h"

namespace palace::test {
namespace {

// The variants whose compiled tables the back end answers: pieces that step, leap, slide and hop,
// no runtime hooks, on at most 64 points (a set is a word) or at most 128 (two words: capablanca's
// 80, shogi's 81, the xiangqi and janggi boards' 90, courier's 96, grand's 100).
const std::set<std::string> OneWordVariants = {
    "ai-wok", "almost", "amazon", "antichess", "atomic", "berolina", "breakthrough", "chaturanga", "chess", "chess-design",
    "chess960", "chessgi", "clobber", "codrus", "crazyhouse", "dobutsu", "extinction", "fairy", "five-check", "fox-and-hounds",
    "gardner", "georgian", "giveaway", "gorogoro", "grasshopper", "hoppelpoppel", "horde", "judkins", "king-of-the-hill",
    "kinglet", "knightmate", "legan", "loop", "losalamos", "losers", "makruk", "mini", "minishogi", "minixiangqi", "misere", "newzealand", "nightrider",
    "nocastle", "nocheckatomic", "normal", "orda", "paradigm", "pawnback", "pawnsideways", "perfect", "pocketknight", "raazuvaa", "shatranj",
    "three-check", "threekings", "yarishogi"};
const std::set<std::string> TwoWordVariants = {"capablanca", "capahouse", "centaur", "chancellor", "checkshogi", "clobber10", "courier",
                                               "embassy", "gothic", "grand", "janggi", "janggi-casual", "janggi-kakao",
                                               "janggi-modern", "janus", "manchu", "modern", "okisakishogi", "opulent", "shako", "shogi",
                                               "tencubed", "wolf", "xiangqi"};
const std::set<std::string> BitboardVariants = [] {
  std::set<std::string> all(OneWordVariants);
  all.insert(TwoWordVariants.begin(), TwoWordVariants.end());
  return all;
}();

bool has_bitboards(const Variant& v) { return v.bitboards() || v.wide_bitboards(); }

TEST(BitboardBackend, AppliesWhereTheCompiledTablesAllow) {
  for (const auto& entry : std::filesystem::directory_iterator(source_path("variants"))) {
    if (entry.path().extension() != ".yaml") continue;
    const std::string name = entry.path().stem().string();
    const auto fastest = load_variant(entry.path().string());
    EXPECT_EQ(fastest->bitboards() != nullptr, OneWordVariants.contains(name)) << name;
    EXPECT_EQ(fastest->wide_bitboards() != nullptr, TwoWordVariants.contains(name)) << name;
    EXPECT_FALSE(has_bitboards(*load_variant(entry.path().string(), MoveBackend::Mailbox))) << name;
  }
}

TEST(BitboardBackend, FastestIndexingIsTheProcessors) {
  const auto chess = load_variant(variant_path("chess"));
  EXPECT_EQ(chess->bitboards()->indexing(), best_slider_indexing());
  EXPECT_EQ(load_variant(variant_path("chess"), MoveBackend::MagicBitboards)->bitboards()->indexing(), SliderIndexing::Magic);
  EXPECT_EQ(load_variant(variant_path("shogi"))->wide_bitboards()->indexing(), best_slider_indexing());
  EXPECT_EQ(load_variant(variant_path("shogi"), MoveBackend::MagicBitboards)->wide_bitboards()->indexing(), SliderIndexing::Magic);
}

// A set of two words: points on both sides of the 64th, one at a time and together.
TEST(BitboardBackend, TwoWordSetsCountAndWalkEveryPoint) {
  WideBitboard set = bit<WideBitboard>(Point(3)) | bit<WideBitboard>(Point(64)) | bit<WideBitboard>(Point(127));
  EXPECT_EQ(count_points<false>(set), 3);
  EXPECT_FALSE(single_point(set));
  EXPECT_EQ(pop_point(set), Point(3));
  EXPECT_EQ(first_point(set), Point(64));
  EXPECT_EQ(pop_point(set), Point(64));
  EXPECT_TRUE(single_point(set));
  EXPECT_EQ(pop_point(set), Point(127));
  EXPECT_EQ(set, WideBitboard(0));
  EXPECT_EQ(bit<WideBitboard>(Point(128)), WideBitboard(0));
  EXPECT_EQ(bit(Point(64)), Bitboard(0));
}

std::vector<std::uint32_t> sorted_legal(Position& pos, Keep keep) {
  MoveList list;
  generate_legal(pos, list, keep);
  std::vector<std::uint32_t> moves;
  for (const Move m : list) moves.push_back(m.raw());
  std::sort(moves.begin(), moves.end());
  return moves;
}

// Every point attacked by each side, for a victim of each kind.
std::vector<bool> attack_map(const Position& pos) {
  std::vector<bool> map;
  for (Side by = First; by < SideCount; ++by)
    for (Kind victim = Kind(0); victim < pos.variant().kinds(); ++victim)
      for (Point s = Point(0); s < pos.variant().squares(); ++s) map.push_back(attacked(pos, s, by, victim));
  return map;
}

// What for_each_destination (the engine's mobility walk) finds for every piece of both sides: each
// destination with its move type and extra, and each point guarded, sorted.
std::vector<std::uint64_t> destination_map(const Position& pos) {
  std::vector<std::uint64_t> found;
  for (Side side = First; side < SideCount; ++side)
    for (int i = 0; i < pos.piece_count(side); ++i) {
      const Point from = pos.piece_square(side, i);
      const std::uint64_t piece = std::uint64_t(from) << 32 | std::uint64_t(side) << 48;
      for_each_destination(
          pos, side, from,
          [&](Point to, MoveType type, Point extra) { found.push_back(piece | Move(from, to, type, extra).raw()); },
          [&](Point to) { found.push_back(piece | std::uint64_t(1) << 56 | to); });
    }
  std::sort(found.begin(), found.end());
  return found;
}

// The engine's evaluation, which walks each piece's destinations on the position's own back end.
int evaluation(const Position& pos) { return search::Evaluation(pos.variant())(pos); }

bool has_vectors(const std::string& game) { return std::filesystem::exists(vectors_path(vector_file(game, ".perft"))); }

// One game loaded with each back end: the mailbox generator (the reference), the fastest, and
// magic indexing.
struct Backends {
  explicit Backends(const std::string& game)
      : mailbox(load_variant(variant_path(game), MoveBackend::Mailbox)),
        fastest(load_variant(variant_path(game))),
        magic(load_variant(variant_path(game), MoveBackend::MagicBitboards)) {}

  // Perft of `fen` at every depth to `depth`, from the fastest back end and from magic indexing, as
  // the mailbox counts it.
  void expect_same_perft(const std::string& fen, int depth) const {
    Position reference(mailbox), fast(fastest), portable(magic);
    for (Position* pos : {&reference, &fast, &portable}) pos->set_fen(fen);
    for (int d = 1; d <= depth; ++d) {
      const std::uint64_t expected = perft(reference, d);
      EXPECT_EQ(perft(fast, d), expected) << fen << " depth " << d;
      EXPECT_EQ(perft(portable, d), expected) << fen << " depth " << d;
    }
  }

  std::shared_ptr<const Variant> mailbox, fastest, magic;
};

class BitboardGames : public ::testing::TestWithParam<std::string> {
 protected:
  std::vector<std::string> fens() const {
    std::vector<std::string> out{Position(load_variant(variant_path(GetParam()))).fen()};
    if (has_vectors(GetParam()))
      for (const auto& fen : reference_fens(GetParam())) out.push_back(fen);
    return out;
  }
};

TEST_P(BitboardGames, SameMovesChecksAndAttacksAsTheMailbox) {
  const Backends b(GetParam());
  ASSERT_TRUE(has_bitboards(*b.fastest));
  std::mt19937 random(33);
  int positions = 0;
  for (const auto& fen : fens()) {
    Position reference(b.mailbox), fast(b.fastest), portable(b.magic);
    for (Position* pos : {&reference, &fast, &portable}) pos->set_fen(fen);
    // Random games from each position, one after another while they end early (an extinction game
    // can end in a dozen plies): the three boards play the same moves.
    for (int ply = 0; ply < 40; ++ply, ++positions) {
      const auto expected = sorted_legal(reference, Keep::All);
      for (Position* pos : {&fast, &portable}) {
        ASSERT_EQ(sorted_legal(*pos, Keep::All), expected) << pos->fen();
        EXPECT_EQ(sorted_legal(*pos, Keep::Captures), sorted_legal(reference, Keep::Captures)) << pos->fen();
        EXPECT_EQ(in_check(*pos), in_check(reference)) << pos->fen();
        EXPECT_EQ(attack_map(*pos), attack_map(reference)) << pos->fen();
        EXPECT_EQ(destination_map(*pos), destination_map(reference)) << pos->fen();
        EXPECT_EQ(evaluation(*pos), evaluation(reference)) << pos->fen();
      }
      if (expected.empty()) {
        if (reference.fen() == fen) break;  // a terminal position: nothing to play from it
        for (Position* pos : {&reference, &fast, &portable}) pos->set_fen(fen);
        continue;
      }
      MoveList list;
      generate_legal(reference, list);
      const Move m = list.moves[random() % list.size];
      for (Position* pos : {&reference, &fast, &portable}) pos->do_move(m);
    }
  }
  EXPECT_GE(positions, 40);
}

TEST_P(BitboardGames, SamePerftAsTheMailbox) {
  const Backends b(GetParam());
  const auto all = fens();
  for (std::size_t i = 0; i < all.size() && i < 12; ++i) b.expect_same_perft(all[i], 3);
}

// The evaluation's memo of its last walks (search/eval.h), carried from position to position as a
// search carries it: down a random game from each of `fens` and into every move on the way, and at
// two plies into every reply as well. It must give what a fresh walk gives, with the censuses a
// search keeps taken again or found in its table. Returns how many positions were compared.
int expect_memo_gives_a_fresh_walk(const std::shared_ptr<const Variant>& variant, const std::vector<std::string>& fens) {
  const search::Evaluation eval(*variant);
  const auto memo = std::make_unique<search::EvalMemo>(eval.census_table_bits());
  std::mt19937 random(35);
  int compared = 0;
  const auto expect_same = [&](const Position& pos) {
    ASSERT_EQ(eval(pos, *memo), eval(pos)) << pos.fen();
    ++compared;
  };
  for (std::size_t i = 0; i < fens.size() && i < 4; ++i) {
    Position pos(variant);
    pos.set_fen(fens[i]);
    for (int ply = 0; ply < 24; ++ply) {
      expect_same(pos);
      MoveList list;
      generate_legal(pos, list);
      if (!list.size) break;
      for (const Move m : list) {
        pos.do_move(m);
        expect_same(pos);
        if (ply == 6 || ply == 16) {
          MoveList replies;
          generate_legal(pos, replies);
          for (const Move r : replies) {
            pos.do_move(r);
            expect_same(pos);
            pos.undo_move();
          }
        }
        pos.undo_move();
        if (::testing::Test::HasFatalFailure()) return compared;
      }
      pos.do_move(list.moves[random() % list.size]);
    }
  }
  return compared;
}

// An `eval:` section that gives every kind of `game` the weight `weight` for `term`.
std::string every_kind_weighed(const std::string& game, const std::string& term, int weight) {
  const auto plain = load_variant(variant_path(game));
  std::string section = "engine:\n eval:\n  " + term + ": {";
  for (const PieceDef& piece : plain->rules().pieces) section += piece.name + ": " + std::to_string(weight) + ", ";
  return section + "}\n";
}

TEST_P(BitboardGames, TheEvaluationsMemoGivesWhatAFreshWalkGives) {
  EXPECT_GE(expect_memo_gives_a_fresh_walk(load_variant(variant_path(GetParam())), fens()), 500);
}

// Every kind weighed for the points next to the enemy royal it could move to: where only the royal
// moved, a piece whose moves are all plain is counted again from them, and one with a move visited
// apart (a pawn's double step, a ghost taken) is walked again.
TEST_P(BitboardGames, TheMemoCountsTheRoyalsNeighbourhoodAsAFreshWalkDoes) {
  const auto variant = load_variant(overlay_path(GetParam(), every_kind_weighed(GetParam(), "royal_attack", 7)));
  EXPECT_GE(expect_memo_gives_a_fresh_walk(variant, fens()), 500);
}

// The generator lists the pieces the evaluation's memo walked from the moves it found (movegen.h's
// KnownDestinations) where the memo stands at the position: the same list, in the same order, as it
// lists walking every piece, every move and captures only, down a random game from each of `fens`.
// The game is weighed for the mobility of every kind, so that every piece is walked: those whose
// moves are not all plain (a pawn's double step, a promotion, a ghost) are walked again. Returns
// how many positions had moves known.
int expect_known_moves_listed(const std::string& game, const std::string& sections, const std::vector<std::string>& fens) {
  const auto variant = load_variant(overlay_path(game, sections + every_kind_weighed(game, "mobility", 1)));
  const search::Evaluation eval(*variant);
  const auto memo = std::make_unique<search::EvalMemo>();
  std::mt19937 random(39);
  int known = 0;
  const auto as_list = [](const MoveList& list) { return std::vector<Move>(list.begin(), list.end()); };
  for (const auto& fen : fens) {
    Position pos(variant);
    pos.set_fen(fen);
    for (int ply = 0; ply < 30; ++ply) {
      eval(pos, *memo);
      const KnownDestinations moves = eval.known_moves(pos, *memo);
      known += moves.one.points != 0 || moves.two.points != 0;
      for (const Keep keep : {Keep::All, Keep::Captures}) {
        MoveList walked, listed;
        generate_to_try(pos, walked, keep, in_check(pos));
        generate_to_try(pos, listed, keep, in_check(pos), moves);
        EXPECT_EQ(as_list(listed), as_list(walked)) << pos.fen();
        if (::testing::Test::HasFailure()) return known;
      }
      MoveList list;
      generate_legal(pos, list);
      if (!list.size) break;
      pos.do_move(list.moves[random() % list.size]);
    }
  }
  return known;
}

TEST_P(BitboardGames, TheMovesTheMemoKnowsAreListedAsTheGeneratorFindsThem) {
  EXPECT_GT(expect_known_moves_listed(GetParam(), "", fens()), 20);
}

// Pawns that double-step and take ghosts but never promote: not plain for that alone.
TEST(BitboardBackend, AKindThatLeavesOrTakesGhostsIsWalkedAgain) {
  EXPECT_GT(expect_known_moves_listed("chess", "pieces:\n  pawn:\n    promotion: ~\n",
                                      {"rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
                                       "4k3/2p5/8/3P4/8/8/4P3/4K3 b - - 0 1"}),
            20);
}

// The check filter (movegen.h) asked before each legal move, down a random game from each reference
// position: a move it rules out leaves the other side out of check once made. At the first ply it
// is told nothing of the move before and asks itself whether that side stands checked.
TEST_P(BitboardGames, TheCheckFilterRulesOutOnlyMovesThatDoNotCheck) {
  const auto variant = load_variant(variant_path(GetParam()));
  std::mt19937 random(37);
  int ruled_out = 0, checks = 0;
  for (const auto& fen : fens()) {
    Position pos(variant);
    pos.set_fen(fen);
    for (int ply = 0; ply < 40; ++ply) {
      MoveList list;
      generate_legal(pos, list);
      if (!list.size) break;
      const CheckFilter filter(pos, ply > 0 && !pos.state().move.is_pass());
      for (const Move m : list) {
        const bool may_check = filter.may_check(m);
        pos.do_move(m);
        const bool checked = in_check(pos);
        pos.undo_move();
        ASSERT_TRUE(may_check || !checked) << pos.fen() << " " << pos.move_text(m);
        ruled_out += !may_check;
        checks += checked;
      }
      pos.do_move(list.moves[random() % list.size]);
    }
  }
  // An exploding capture (atomic, nocheckatomic) changes more than its own points: it asks of every move.
  if (!variant->rules().rules.explosion) {
    EXPECT_GT(ruled_out, 100);
  }
  // Where check protects a royal, the games gave some.
  if (Position(variant).royal(First) != NoPoint) {
    EXPECT_GT(checks, 0);
  }
}

INSTANTIATE_TEST_SUITE_P(Variants, BitboardGames, ::testing::ValuesIn(BitboardVariants), VariantParamName());

// Perft's last ply counts a kind's plain steps for all its pieces at once by shifts (Bitboards::
// shift_steps), leaving out the pinned ones and those that may take the ghost there is, and counting
// each promotion choice: a position for each of those cases, counted as the mailbox counts them. (No
// game has a kind both counted so and free to promote or not: shogi's promote on leaving the zone too,
// which shifts do not count.)
TEST(BitboardBackend, ShiftStepsCountWhatEachPiecesOwnWalkCounts) {
  struct Case {
    std::string game, fen;
    char stepper;  // the letter of a kind its shifts count, in the side to move's case
  };
  const Case cases[] = {
      // The d2 pawn is pinned to its king by the bishop, beside three free pawns.
      {"chess", "4k3/8/8/8/1b6/8/PPPP4/4K3 w - - 0 1", 'P'},
      // Promotions, forced, by steps and captures, four choices each.
      {"chess", "1n2k3/P1P5/8/8/8/8/8/4K3 w - - 0 1", 'P'},
      // A ghost to take: the d5 pawn takes it by its own walk, the others are shifted.
      {"chess", "4k3/8/8/2pP3P/8/8/P7/4K3 w - c6 0 1", 'P'},
      // Horde's pawns, many on one rank, and a double step from the first.
      {"horde", "rnbqkbnr/pppppppp/8/1PP2PP1/PPPPPPPP/PPPPPPPP/PPPPPPPP/PPPPPPPP w kq - 0 1", 'P'},
      // Makruk's pawns promote on the sixth rank, to one kind only.
      {"makruk", "4k3/8/2p5/1P1P4/8/8/8/4K3 w - - 0 1", 'P'},
      // A board of two words: pawns shifted across the 64th point, a ghost, promotions.
      {"capablanca", "5k4/P1P7/10/2pP6/10/7PP1/PPPP6/5K4 w - c6 0 1", 'P'},
  };
  for (const Case& c : cases) {
    SCOPED_TRACE(c.game + " " + c.fen);
    const Backends b(c.game);
    const Kind stepper = kind_of(b.fastest->piece_from_letter(c.stepper));
    const int shift_steps = b.fastest->bitboards() ? b.fastest->bitboards()->shift_step_count(First, stepper)
                            : b.fastest->wide_bitboards() ? b.fastest->wide_bitboards()->shift_step_count(First, stepper)
                                                          : 0;
    ASSERT_GT(shift_steps, 0);
    b.expect_same_perft(c.fen, 3);
  }
}

// The Vectors suites load each game's fastest back end. Here the mailbox generator and magic indexing
// must give every vector too: each perft count (up to the suites' node bound), each exact legal move
// set with its check flag. The terminal vectors' positions are in BitboardGames' walks above.
class BitboardVectors : public ::testing::TestWithParam<std::string> {};

TEST_P(BitboardVectors, EveryVectorFromTheMailboxAndFromMagicIndexing) {
  for (const MoveBackend backend : {MoveBackend::Mailbox, MoveBackend::MagicBitboards}) {
    SCOPED_TRACE(backend == MoveBackend::Mailbox ? "mailbox" : "magic indexing");
    const auto variant = load_variant(variant_path(GetParam()), backend);
    check_perft_file(variant, vector_file(GetParam(), ".startpos.perft"));
    check_perft_file(variant, vector_file(GetParam(), ".perft"));
    EXPECT_GT(check_move_sets_file(variant, vector_file(GetParam(), ".moves")), 0u);
  }
}

// Every game the back end applies to has vectors but chess-design, whose moves are chess's (it
// imports chess.yaml and changes only how the game ends).
std::vector<std::string> bitboard_games_with_vectors() {
  std::vector<std::string> games;
  std::copy_if(BitboardVariants.begin(), BitboardVariants.end(), std::back_inserter(games), has_vectors);
  return games;
}

TEST(BitboardBackend, EveryGameButChessDesignHasVectors) {
  std::set<std::string> without(BitboardVariants);
  for (const auto& game : bitboard_games_with_vectors()) without.erase(game);
  EXPECT_EQ(without, (std::set<std::string>{"chess-design"}));
}

INSTANTIATE_TEST_SUITE_P(Variants, BitboardVectors, ::testing::ValuesIn(bitboard_games_with_vectors()),
                         VariantParamName());

}  // namespace
}  // namespace palace::test
