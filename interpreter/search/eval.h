// The static evaluation: each piece scores by side, kind and point from two tables compiled at
// construction from the pieces' values and the variant's `eval:` section, one for the opening and
// one for the endgame, blended by how much material is left (eval.phase); each piece in a hand
// scores its value; each piece of a kind with a mobility, royal-attack, threat or hanging weight
// scores per point it could move to, point next to the enemy royal, dearer enemy piece it could
// take and other enemy piece it could take that none defends, counted in one walk; pieces no enemy
// of their kind can stop score by their rank and by how near each royal stands to the point ahead
// of them (eval.passed), alone on their files or doubled on one (eval.structure), or on files free
// of those (eval.open_file), and two or more of a kind a pair bonus (eval.pair); a royal scores the
// pieces that cover it (eval.shelter), and the side to move its turn (eval.tempo). The game's own
// ends score too: the piece whose reaching a zone wins by its distance to it (eval.goal, in the
// tables), a side by the checks it has given (eval.checks) and by its last pieces (eval.few_pieces),
// and a piece in hand its worth there (eval.hand). Nothing is parsed or looked up by name while
// searching, and on bitboards a piece is walked again only where the last position evaluated on
// the thread differs from this one on a point its walk read (WalkMemo), whose totals follow the
// pieces that came and went and whose walks spare the generator its own (known_moves).
#pragma once

#include <algorithm>
#include <cstdint>
#include <iterator>
#include <vector>

#include "compiler/variant.h"
#include "core/bitboard.h"
#include "movegen/movegen.h"
#include "position/position.h"

namespace palace::search {

// A score as it stands in the opening and in the endgame.
struct Score {
  int opening = 0, endgame = 0;
  Score& operator+=(Score o) {
    opening += o.opening;
    endgame += o.endgame;
    return *this;
  }
};

// What the files say of the pieces of the kinds a census is taken of (eval.passed, eval.structure),
// which stand still through most moves: each side's passed, isolated and doubled bonuses but for
// the royals' distances, the files its census pieces stand on, and its passed pieces, whose bonus
// by the royals' distances is added where the royals stand.
struct FileCensus {
  Score total[SideCount];
  std::uint32_t files[SideCount] = {};  // a bit for each file holding one, its number + 1
  struct Passed {
    Side side;
    int terms;  // its entry in Evaluation::passed_terms_
  };
  Passed passed[MaxPoints];
  int passed_count = 0;
  void clear() {
    total[0] = total[1] = {};
    files[0] = files[1] = 0;
    passed_count = 0;
  }
};

// The censuses a searching thread took, by the Zobrist key of their census pieces: most positions
// a search evaluates have the census pieces of one it evaluated before, as Stockfish's pawn table
// has it. A census with more passed pieces than an entry holds is taken each time.
class CensusTable {
 public:
  explicit CensusTable(int bits = 0) : entries_(bits ? std::size_t(1) << bits : 0) {}
  // Fills `census` with the one kept under `key`; whether there was one.
  bool load(std::uint64_t key, FileCensus& census) const;
  void save(std::uint64_t key, const FileCensus& census);

 private:
  static constexpr int PassedKept = 16;
  struct Entry {
    std::uint64_t key = 0;
    int passed_count = -1;  // none kept
    Score total[SideCount];
    std::uint32_t files[SideCount] = {};
    FileCensus::Passed passed[PassedKept];
  };
  Entry& slot(std::uint64_t key) { return entries_[key & (entries_.size() - 1)]; }
  const Entry& slot(std::uint64_t key) const { return entries_[key & (entries_.size() - 1)]; }
  std::vector<Entry> entries_;
};

// What one thread's evaluations remember of the last position they evaluated on bitboards: its
// pieces, the totals they score (material and tables, phase, walks), each walked piece's findings
// and the points its walk read. A later position changes a few points: the totals follow the pieces
// that came and went there, and only a piece whose walk read such a point is walked again. A
// search's consecutive positions differ by a move or a few, which touch the lines of a few pieces.
// The Evaluation, read by every thread, holds none of it; each searching thread keeps its own.
template <typename B>
struct WalkMemo {
  // What a walked piece found: its bonus, the points it defends, the enemy pieces no dearer than
  // itself it could take (which hang where the other side guards nothing), and how many points it
  // could move to are next to the enemy royal (by the memo's `near` row). Not `kept` where a leap
  // that passes points found prey, which the evaluation's list holds instead; `in_moves` where
  // every point it could move to is in its plain moves (`moves`), which then say how many are next
  // to the enemy royal wherever the royal goes.
  struct Walked {
    B reads = 0, defended = 0, prey = 0;
    int bonus = 0;
    int near_reached = 0;
    bool kept = false, in_moves = false;
    Side side = First;
  };
  B pieces[PieceCodes] = {};  // each piece's points when last evaluated
  // The totals of those pieces: each side's material and table scores, its pieces but the royals,
  // their phase, and the bonuses of the walks kept for the points of `walked_points`.
  Score material[SideCount];
  int others[SideCount] = {};
  int phase = 0;
  int bonus[SideCount] = {};
  B walked_points = 0;
  // By side, the row of Evaluation::near_bits_ (the enemy royal's neighbourhood) that every walk
  // kept for the side's pieces counted against.
  int near[SideCount] = {-1, -1};
  Point ghost = NoPoint, ghost_end = NoPoint, ghost_victim = NoPoint;
  B ghost_points = 0;  // where a leap could take a ghost
  bool valid = false;
  FileCensus census;  // of the census pieces in `pieces`, where `census_valid`
  bool census_valid = false;
  std::uint64_t census_key = 0;  // the Zobrist key of the census pieces in `pieces`
  Walked walked[PointsIn<B>];
  B moves[PointsIn<B>];  // each walk's plain moves and captures, for the generator (KnownMoves)

  // Whether the last position evaluated had the pieces of `pos` on their points and its ghosts: the
  // walks kept are then `pos`'s.
  bool stands_at(const Position& pos, int kinds) const {
    if (!valid || pos.state().ghost != ghost || pos.state().ghost_end != ghost_end ||
        pos.state().ghost_victim != ghost_victim)
      return false;
    for (Side side = First; side < SideCount; ++side)
      for (Kind k = Kind(0); k < kinds; ++k)
        if (pieces[make_piece(side, k)] != pos.pieces<B>(make_piece(side, k))) return false;
    return true;
  }

  // Forgets every position: the next evaluation finds every piece come.
  void reset() {
    std::fill(std::begin(pieces), std::end(pieces), B(0));
    material[0] = material[1] = {};
    others[0] = others[1] = bonus[0] = bonus[1] = phase = 0;
    walked_points = ghost_points = 0;
    near[0] = near[1] = -1;
    ghost = ghost_end = ghost_victim = NoPoint;
    census_valid = false;
    census_key = 0;
    valid = true;
  }
};
struct EvalMemo {
  // A searching thread's memo keeps 2^11 censuses (Evaluation::census_table_bits); a memo of a few
  // evaluations keeps none.
  static constexpr int SearchCensusBits = 11;
  explicit EvalMemo(int census_bits = 0) : censuses(census_bits) {}
  WalkMemo<Bitboard> one;
  WalkMemo<WideBitboard> two;
  CensusTable censuses;
};

class Evaluation {
 public:
  explicit Evaluation(const Variant& variant);

  // Centipawns from the side to move's view.
  int operator()(const Position& pos) const;
  // The same, with the walks `memo` remembers of the last position evaluated with it taken where
  // they still hold, and this position's remembered in their place.
  int operator()(const Position& pos, EvalMemo& memo) const;

  // The plain moves and captures the walks of the memo found for the side to move's pieces, where
  // it stands at `pos`: what the generator need not find again.
  KnownDestinations known_moves(const Position& pos, const EvalMemo& memo) const;

  // A piece's material alone, for ordering captures.
  int value(Kind kind) const { return value_[kind]; }
  // The same by kind, a royal counted dearer than all the rest: what an exchange weighs (see.h),
  // where a royal takes last.
  const int* exchange_values() const { return exchange_value_.data(); }
  // A royal's worth there: more than any other piece, so that it takes last, and more than all of
  // them together, so that a royal lost outweighs whatever was won on the way.
  static constexpr int RoyalExchangeValue = 1 << 20;
  // Whether `kind` counts as more than the weakest kind, for the null-move zugzwang guard.
  bool major(Kind kind) const { return major_[kind]; }
  // The value of the weakest non-royal kind: the search's unit for its pruning margins.
  int weakest() const { return weakest_; }
  // The size (a power of two) of the census table a searching thread's memo keeps: none where no
  // census is taken or the pieces are walked on the mailbox, which keeps no memo.
  int census_table_bits() const {
    return census_kinds_ && (bitboards_ || wide_bitboards_) ? EvalMemo::SearchCensusBits : 0;
  }

 private:
  // operator() for each back end: the mailbox's walk, or the bitboards' of one word or two with the
  // memo of their width, which a memo that has seen no position serves as a fresh walk.
  int evaluate_mailbox(const Position& pos) const;
  template <typename B>
  int evaluate_bitboards(const Position& pos, const BasicBitboards<B>& tables, WalkMemo<B>& memo,
                         CensusTable& censuses) const;
  // Brings the memo's pieces and totals to `pos`; returns the points where a piece came, went or
  // changed, and where a ghost came or went (a walk that read whether a point holds a ghost read the
  // point). Its census is forgotten where a piece of a census kind came or went.
  template <typename B>
  B follow(const Position& pos, const BasicBitboards<B>& tables, WalkMemo<B>& memo) const;

  // A piece the file terms or the shelter look at, with its kind as the walk over the pieces found it.
  struct Placed {
    Point square;
    Kind kind;
  };

  // What the walks of one evaluation gather beyond each piece's own bonus: the points each side
  // guards, and the enemy pieces no dearer than their taker that a piece could capture, which hang
  // where the other side guards nothing, as known once every piece has been walked.
  struct Walks {
    struct Prey {
      Point square;
      Side taker;
      int weight;
    };
    // By side, a bit per point in words of 64, so that a bitboard's guards are one word's OR.
    std::uint64_t guarded[SideCount][MaxPoints / BitboardPoints] = {};
    Prey prey[MaxPoints];
    int prey_count = 0;
    void guard(Side side, Point s) { guarded[side][s / BitboardPoints] |= Bitboard(1) << (s % BitboardPoints); }
    bool guards(Side side, Point s) const { return guarded[side][s / BitboardPoints] >> (s % BitboardPoints) & 1; }
  };
  // The mobility, royal-attack and threat bonus of `side`'s piece of `kind` on `from`; its guards
  // and prey go to `walks`. One walk for each back end; the bitboards' counts the plain moves as
  // sets, and gives its findings as `found`, the points it read with them, counting the points next
  // to the enemy royal by row `near` of near_bits_; it returns the plain moves and captures.
  template <typename B>
  [[gnu::always_inline]] B walk_bitboards(const Position& pos, const BasicBitboards<B>& b, Side side, Point from, Kind kind,
                                          int near, Walks& walks, typename WalkMemo<B>::Walked& found) const;
  template <bool ThreatsOnly>
  int walk_mailbox(const Position& pos, Side side, Point from, Kind kind, Walks& walks) const;
  struct Tally;
  // A capture of the piece on `to` found by a walk: a threat, or prey.
  void take(const Position& pos, Side side, Point to, Kind kind, Walks& walks, Tally& tally) const;
  int bonus(Kind kind, const Tally& tally) const;
  // The census of the pieces on `found` of the kinds a census is taken of.
  void take_census(const Placed* const found[SideCount], const int count[SideCount], FileCensus& census) const;
  // The bonuses of both sides' pieces on `found` that depend on the files: `census`'s, a passed
  // one's by how near each royal, on `royal`, stands to it, and pieces on open files.
  void add_files(const FileCensus& census, const Placed* const found[SideCount], const int count[SideCount],
                 const Point royal[SideCount], Score total[SideCount]) const;
  // How far a royal on `a` stands from `b`: the larger of the files and the ranks between them, up
  // to PassedRoyalReach, which a side without a royal (`a` off the board) counts as.
  int royal_distance(Point a, Point b) const;
  // The opening's bonus for the cover of `side`'s royal by the pieces on `found`.
  int shelter(const Placed* found, int count, const Position& pos, Side side) const;
  // What both back ends add to the pieces' `total`s (material, tables and walks) and `phase`: the
  // hands, the checks given, the last pieces (`pieces`: each side's but the royals), the files
  // (`census`: the memo's, or null for one taken now) and shelter of the pieces `found`, the pairs
  // (`owned`: each side's pieces by kind, where the variant scores pairs); the score for the side
  // to move, the opening's and the endgame's blended by the phase.
  int conclude(const Position& pos, Score total[SideCount], int phase, int pieces[SideCount],
               const Placed* const found[SideCount], const int found_count[SideCount], FileCensus* census,
               const int (*owned)[MaxKinds]) const;

  int squares_;
  int files_;
  int tempo_;  // for the side to move
  const Bitboards* bitboards_;  // the variant's, where its pieces are walked on bitboards of a word
  const WideBitboards* wide_bitboards_;  // or of two
  std::vector<Score> score_;  // by piece code and point: material plus square bonus
  std::vector<int> exchange_value_;
  std::vector<int> value_;
  std::vector<bool> major_;
  int weakest_ = 0;
  std::vector<Kind> held_;  // the kinds a hand can hold, where the variant has hands
  std::vector<int> hand_value_;  // by kind: a piece's worth in a hand
  // By checks given, from 0 (which scores nothing), up to the count that wins; empty where no
  // count of checks wins.
  std::vector<int> checks_bonus_;
  int checks_to_win_ = 0;
  std::vector<int> few_pieces_;  // by pieces left besides the royals, or empty

  // What the evaluation adds for a piece of one kind beyond its table score, in one place so that
  // each piece costs one lookup.
  struct KindTerms {
    int phase = 0;         // its weight towards the opening (eval.phase)
    int mobility = 0;      // centipawns per point it could move to
    int royal_attack = 0;  // centipawns per point next to the enemy royal it could move to
    int threat = 0;        // centipawns per enemy piece worth more than itself that it could capture
    int hanging = 0;       // centipawns per other enemy piece it could capture that none defends
    int pair = 0;          // centipawns for a side with two or more
    bool royal = false;     // not counted among a side's pieces for eval.few_pieces
    bool walked = false;    // it has a walked weight, or some kind's hanging asks for its guards
    bool threats_only = false;  // walked for its threats alone: only its captures are looked at
    bool census = false;    // eval.passed or eval.structure names it: its files are counted
    bool on_file = false;   // eval.open_file names it
    bool shelters = false;  // eval.shelter names it
    Score open, half_open;  // on a file with no census piece, or with none of its side's
  };
  std::vector<KindTerms> terms_;  // by kind
  bool pairs_ = false;            // some kind has a pair bonus
  std::uint32_t walked_kinds_ = 0;  // a bit for each kind walked
  std::uint32_t placed_kinds_ = 0;  // a bit for each kind the files or the shelter look at
  bool hanging_ = false;          // some kind has a hanging weight: every piece is walked
  bool open_files_ = false;       // some kind has an open-file bonus
  std::uint32_t census_kinds_ = 0;  // a bit for each kind a census is taken of

  // near_[r * squares_ + s]: whether s is next to a royal on r. Row near_rows_ is all zeros, for a
  // side with no royal or a variant with no royal-attack weight.
  std::vector<std::uint8_t> near_;
  int near_rows_ = 0;
  std::vector<WideBitboard> near_bits_;  // the same rows as sets, where the variant has bitboards (a word of them, or two)

  std::vector<int> shelter_bonus_;       // eval.shelter's bonus by ranks ahead, or empty
  std::vector<std::uint8_t> sheltered_;  // by side and point: whether a royal there counts its cover

  int full_phase_ = 0;  // the set-up's phase; 0 when the variant does not taper

  // A kind whose pieces are counted file by file, and what each file's count says about them.
  struct Census {
    Kind kind = NoKind;
    int passed = -1;  // its slot in passed_score_, if eval.passed names it
    Score isolated, doubled;
  };
  std::vector<Census> census_;
  // What a passed piece scores on a point: its bonus, and in the endgame per point of each royal's
  // distance to the point ahead of it (NoPoint on the far rank, or where eval.passed gives no
  // royal_distance, which leaves the distances out).
  struct PassedTerms {
    Score bonus;
    Point ahead = NoPoint;
    int own_royal = 0, enemy_royal = 0;
  };
  std::vector<PassedTerms> passed_terms_;  // by passed slot, side and point
  // By point: its file and rank, and by side and point how far along the side's forward
  // direction it lies (its rank, negated for a side moving downwards); division has no place in
  // the hot path.
  std::vector<int> file_;
  std::vector<int> rank_;
  std::vector<int> advance_;
};

}  // namespace palace::search
