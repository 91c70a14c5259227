#include "search/eval.h"

#include <algorithm>
#include <bit>
#include <climits>
#include <cmath>
#include <cstdlib>

#include "core/point_set.h"
#include "movegen/destinations.h"

namespace palace::search {

namespace {

// The row of a side's table that describes point `s`: tables are written far rank first.
int table_row(const BoardDef& board, const SideDef& side, Point s) {
  const int rank = board.rank_of(s);
  return side.forward > 0 ? board.ranks - 1 - rank : rank;
}

// How far each point stands from the nearest point of `zone`: the larger of the files and the ranks
// between them, as a royal walks; MaxPoints where the zone is empty.
std::vector<int> distances_to(const BoardDef& board, const PointSet& zone, int squares) {
  std::vector<int> distance(squares, MaxPoints);
  for (Point s = Point(0); s < squares; ++s)
    for (Point z = Point(0); z < squares; ++z)
      if (zone[z])
        distance[s] = std::min(distance[s], std::max(std::abs(board.file_of(s) - board.file_of(z)),
                                                     std::abs(board.rank_of(s) - board.rank_of(z))));
  return distance;
}

bool any_nonzero(const std::vector<int>& weights) {
  return std::any_of(weights.begin(), weights.end(), [](int w) { return w != 0; });
}

}  // namespace

Evaluation::Evaluation(const Variant& variant)
    : squares_(variant.squares()),
      files_(variant.rules().board.files),
      tempo_(variant.rules().eval.tempo),
      bitboards_(variant.bitboards()),
      wide_bitboards_(variant.wide_bitboards()) {
  const RuleSet& rules = variant.rules();
  const EvalDef& eval = rules.eval;
  const BoardDef& board = rules.board;
  const int kinds = variant.kinds();
  const auto def_of = [&](int k) -> const PieceEvalDef* {
    return k < int(eval.pieces.size()) ? &eval.pieces[k] : nullptr;
  };
  value_.resize(kinds);
  for (Kind k = Kind(0); k < kinds; ++k) {
    const bool tuned = def_of(k) && def_of(k)->value_cp >= 0;
    value_[k] = variant.royal(k) ? 0 : tuned ? def_of(k)->value_cp : int(std::lround(rules.pieces[k].value * 100));
  }
  int weakest = INT_MAX;
  for (Kind k = Kind(0); k < kinds; ++k)
    if (!variant.royal(k)) weakest = std::min(weakest, value_[k]);
  major_.resize(kinds);
  for (Kind k = Kind(0); k < kinds; ++k) major_[k] = !variant.royal(k) && value_[k] > weakest;
  weakest_ = weakest == INT_MAX ? 0 : weakest;
  exchange_value_ = value_;
  for (Kind k = Kind(0); k < kinds; ++k)
    if (variant.royal(k)) exchange_value_[k] = RoyalExchangeValue;

  // A piece in hand is worth its material: it may enter the board on almost any point.
  if (variant.has_hands())
    for (Kind k = Kind(0); k < kinds; ++k)
      if (variant.joins_hand_as(k) == k && value_[k] > 0) held_.push_back(k);
  hand_value_ = value_;
  for (Kind k = Kind(0); k < kinds && k < int(eval.hand.size()); ++k)
    if (eval.hand[k] >= 0) hand_value_[k] = eval.hand[k];

  if (rules.ends.get<ChecksGiven>().limit) {
    const std::vector<int>& bonus = eval.checks.value_or(DefaultChecks);
    checks_to_win_ = rules.ends.get<ChecksGiven>().limit;
    checks_bonus_.push_back(0);
    for (int n = 1; n <= checks_to_win_; ++n) checks_bonus_.push_back(bonus[std::min(n, int(bonus.size())) - 1]);
  }
  few_pieces_ = eval.few_pieces;

  terms_.resize(kinds);
  const auto weight = [](const std::vector<int>& by_kind, int k) { return k < int(by_kind.size()) ? by_kind[k] : 0; };
  for (Kind k = Kind(0); k < kinds; ++k) {
    KindTerms& t = terms_[k];
    t.phase = weight(eval.phase, k);
    t.mobility = weight(eval.mobility, k);
    t.royal_attack = weight(eval.royal_attack, k);
    t.threat = weight(eval.threat, k);
    t.hanging = weight(eval.hanging, k);
    t.pair = weight(eval.pair, k);
    t.royal = variant.royal(k);
    t.walked = t.mobility || t.royal_attack || t.threat || t.hanging;
    t.threats_only = !t.mobility && !t.royal_attack && !t.hanging;
    pairs_ = pairs_ || t.pair;
    hanging_ = hanging_ || t.hanging;
    for (Side side = First; side < SideCount; ++side) full_phase_ += t.phase * variant.setup_count(side, k);
  }
  // Whether a piece hangs depends on what every enemy piece guards.
  if (hanging_)
    for (KindTerms& t : terms_) {
      t.walked = true;
      t.threats_only = false;  // every guard counts
    }
  if (any_nonzero(eval.royal_attack)) near_rows_ = squares_;
  near_.assign(std::size_t(near_rows_ + 1) * squares_, 0);
  const bool on_bitboards = bitboards_ || wide_bitboards_;
  if (on_bitboards) near_bits_.assign(near_rows_ + 1, 0);
  for (Point r = Point(0); r < near_rows_; ++r)
    for (Point s = Point(0); s < squares_; ++s) {
      near_[r * squares_ + s] = s != r && std::abs(board.file_of(s) - board.file_of(r)) <= 1 &&
                                std::abs(board.rank_of(s) - board.rank_of(r)) <= 1;
      if (on_bitboards && near_[r * squares_ + s]) near_bits_[r] |= bit<WideBitboard>(s);
    }

  // The piece whose reaching its zone wins scores, on each point, by how far it has still to go.
  const ZoneReached& goal = rules.ends.get<ZoneReached>();
  const std::vector<int>& goal_bonus = eval.goal.value_or(DefaultGoal);
  std::vector<int> to_goal[SideCount];
  if (goal.kind >= 0)
    for (Side side = First; side < SideCount; ++side)
      to_goal[side] = distances_to(board, rules.sides[side].zones[goal.zone], squares_);

  score_.assign(std::size_t(PieceCodes) * squares_, {});
  for (Side side = First; side < SideCount; ++side)
    for (Kind k = Kind(0); k < kinds; ++k)
      for (Point s = Point(0); s < squares_; ++s) {
        Score score{value_[k], value_[k]};
        if (k == goal.kind && to_goal[side][s] >= 1 && to_goal[side][s] <= int(goal_bonus.size())) {
          const int bonus = goal_bonus[to_goal[side][s] - 1];
          score += {bonus, bonus};
        }
        if (const PieceEvalDef* def = def_of(k)) {
          for (const auto& [zone, bonus] : def->zone_bonus)
            if (rules.sides[side].zones[zone][s]) score += {bonus, bonus};
          const int cell = table_row(board, rules.sides[side], s) * board.files + board.file_of(s);
          if (!def->table.empty()) score.opening += def->table[cell];
          const std::vector<int>& end_table = def->endgame_table.empty() ? def->table : def->endgame_table;
          if (!end_table.empty()) score.endgame += end_table[cell];
          if (def->endgame_value_cp >= 0 && !variant.royal(k)) score.endgame += def->endgame_value_cp - value_[k];
        }
        score_[make_piece(side, k) * squares_ + s] = score;
      }

  const auto census_of = [&](Kind kind) -> Census& {
    terms_[kind].census = true;
    census_kinds_ |= 1u << kind;
    for (Census& c : census_)
      if (c.kind == kind) return c;
    census_.push_back({});
    census_.back().kind = kind;
    return census_.back();
  };
  for (const PassedEvalDef& def : eval.passed) {
    census_of(def.kind).passed = int(passed_terms_.size() / (SideCount * squares_));
    for (Side side = First; side < SideCount; ++side)
      for (Point s = Point(0); s < squares_; ++s) {
        const int row = table_row(board, rules.sides[side], s);
        PassedTerms& t = passed_terms_.emplace_back();
        t.bonus = {def.bonus[row], def.endgame_bonus[row]};
        const int next_rank = board.rank_of(s) + rules.sides[side].forward;
        if (def.own_royal.empty() || next_rank < 0 || next_rank >= board.ranks) continue;
        t.ahead = board.square(board.file_of(s), next_rank);
        t.own_royal = def.own_royal[row];
        t.enemy_royal = def.enemy_royal[row];
      }
  }
  for (const StructureEvalDef& def : eval.structure) {
    Census& c = census_of(def.kind);
    c.isolated = {def.isolated, def.endgame_isolated};
    c.doubled = {def.doubled, def.endgame_doubled};
  }
  for (const OpenFileEvalDef& def : eval.open_file) {
    KindTerms& t = terms_[def.kind];
    t.on_file = true;
    open_files_ = true;
    t.open = {def.open, def.open};
    t.half_open = {def.half_open, def.half_open};
  }
  if (!eval.shelter.bonus.empty()) {
    terms_[eval.shelter.kind].shelters = true;
    shelter_bonus_ = eval.shelter.bonus;
    for (Side side = First; side < SideCount; ++side)
      for (Point s = Point(0); s < squares_; ++s)
        sheltered_.push_back(eval.shelter.zone < 0 || rules.sides[side].zones[eval.shelter.zone][s]);
  }
  for (Point s = Point(0); s < squares_; ++s) {
    file_.push_back(board.file_of(s));
    rank_.push_back(board.rank_of(s));
  }
  for (Side side = First; side < SideCount; ++side)
    for (Point s = Point(0); s < squares_; ++s)
      advance_.push_back(rules.sides[side].forward > 0 ? board.rank_of(s) : -board.rank_of(s));
  for (Kind k = Kind(0); k < kinds; ++k) {
    if (terms_[k].walked) walked_kinds_ |= 1u << k;
    if (terms_[k].census || terms_[k].on_file || terms_[k].shelters) placed_kinds_ |= 1u << k;
  }
}

// What a walked piece adds for the captures it could make: the dearer pieces it threatens, and the
// others, kept to be scored as hanging once every guard is known.
struct Evaluation::Tally {
  int points = 0, attacks = 0, threats = 0;
};

inline void Evaluation::take(const Position& pos, Side side, Point to, Kind kind, Walks& walks, Tally& tally) const {
  const int prize = value_[kind_of(pos.at(to))];
  const KindTerms& t = terms_[kind];
  if (prize > value_[kind]) ++tally.threats;
  else if (t.hanging && prize > 0 && walks.prey_count < MaxPoints) walks.prey[walks.prey_count++] = {to, side, t.hanging};
}

int Evaluation::bonus(Kind kind, const Tally& tally) const {
  const KindTerms& t = terms_[kind];
  return t.mobility * tally.points + t.royal_attack * tally.attacks + t.threat * tally.threats;
}

// The plain destinations come as a set: counted at once, and only the captures among them looked
// at one by one. Inlined into the evaluation's loop over the pieces, which then reads what all
// walks share once.
template <typename B>
inline B Evaluation::walk_bitboards(const Position& pos, const BasicBitboards<B>& b, Side side, Point from, Kind kind,
                                       int near, Walks& walks, typename WalkMemo<B>::Walked& found) const {
  const B near_royal = B(near_bits_[near]);
  const KindTerms& t = terms_[kind];
  const int prey_before = walks.prey_count;
  Tally tally;
  const auto visit = [&](Point to, MoveType, Point) {
    ++tally.points;
    tally.attacks += near_royal >> to & 1;
    if (pos.at(to)) take(pos, side, to, kind, walks, tally);
  };
  B guarded = 0;  // by its leaps that pass points; its others' come as a set
  const auto guard = [&](Point to) { guarded |= bit<B>(to); };
  const B all = ~B(0);
  // GCC's own spelling: `[[gnu::always_inline]]` in this place marks the lambda's type and is
  // ignored, and the walk left out of line cost xiangqi's search to depth 9 5% more instructions.
  const PlainDestinations<B> d = b.with_indexing([&]<SliderIndexing I>() __attribute__((always_inline)) {
    return bitboard_destinations<I>(pos, b, side, kind, from, all, visit, guard);
  });
  found.in_moves = tally.points == 0;  // none visited one by one
  tally.points += b.count(d.moves);
  tally.attacks += b.count(d.moves & near_royal);
  B prey = 0;
  for (B captures = d.moves & pos.occupied<B>(); captures;) {
    const Point to = pop_point(captures);
    const int prize = value_[kind_of(pos.at(to))];
    if (prize > value_[kind]) ++tally.threats;
    else if (t.hanging && prize > 0) prey |= bit<B>(to);
  }
  found.reads = b.reads(side, kind, from) | d.slides;
  found.defended = d.defended | guarded;
  found.prey = prey;
  found.bonus = bonus(kind, tally);
  found.near_reached = tally.attacks;
  found.kept = walks.prey_count == prey_before;
  return d.moves;
}

// `ThreatsOnly`: the kind scores nothing but its threats, so only its captures are walked.
template <bool ThreatsOnly>
int Evaluation::walk_mailbox(const Position& pos, Side side, Point from, Kind kind, Walks& walks) const {
  const Point royal = pos.royal(opponent(side));
  const std::uint8_t* near = &near_[std::size_t(royal < near_rows_ ? royal : near_rows_) * squares_];
  Tally tally;
  for_each_mailbox_destination<ThreatsOnly>(
      pos, side, kind, from,
      [&](Point to, MoveType, Point) {
        ++tally.points;
        tally.attacks += near[to];
        // A destination with a piece on it holds an enemy piece: a capture.
        if (pos.at(to)) take(pos, side, to, kind, walks, tally);
      },
      [&](Point to) {
        if (hanging_) walks.guard(side, to);
      });
  return bonus(kind, tally);
}

int Evaluation::royal_distance(Point a, Point b) const {
  if (a >= squares_) return PassedRoyalReach;
  return std::min({std::max(std::abs(file_[a] - file_[b]), std::abs(rank_[a] - rank_[b])), PassedRoyalReach});
}

void Evaluation::take_census(const Placed* const found[SideCount], const int count[SideCount], FileCensus& census) const {
  census.clear();
  for (const Census& c : census_) {
    // on_file[side][file + 1]: the side's pieces of this kind on the file; front[side][file + 1]:
    // how far its most backward one stands, measured along its enemy's forward direction. An
    // enemy piece is passed if it is at least as far on its own file and both beside it. Files
    // are padded either side, so that the edge files need no test for their neighbours.
    int on_file[SideCount][MaxFiles + 2] = {};
    int front[SideCount][MaxFiles + 2];
    for (Side side = First; side < SideCount; ++side) {
      std::fill(front[side], front[side] + files_ + 2, INT_MIN);
      const int* along = &advance_[opponent(side) * squares_];
      for (int i = 0; i < count[side]; ++i)
        if (found[side][i].kind == c.kind) {
          const Point s = found[side][i].square;
          const int file = file_[s] + 1;
          if (++on_file[side][file] > 1) census.total[side] += c.doubled;
          census.files[side] |= 1u << file;
          front[side][file] = std::max(front[side][file], along[s]);
        }
    }
    const int passed = c.passed < 0 ? -1 : c.passed * SideCount * squares_;
    for (Side side = First; side < SideCount; ++side) {
      const int* enemy = front[opponent(side)];
      const int* own = on_file[side];
      for (int i = 0; i < count[side]; ++i) {
        if (found[side][i].kind != c.kind) continue;
        const Point s = found[side][i].square;
        const int file = file_[s];
        if (passed >= 0 && advance_[side * squares_ + s] >= std::max({enemy[file], enemy[file + 1], enemy[file + 2]})) {
          const int terms = passed + side * squares_ + s;
          census.total[side] += passed_terms_[terms].bonus;
          if (passed_terms_[terms].ahead != NoPoint) census.passed[census.passed_count++] = {side, terms};
        }
        if (!own[file] && !own[file + 2]) census.total[side] += c.isolated;
      }
    }
  }
}

void Evaluation::add_files(const FileCensus& census, const Placed* const found[SideCount], const int count[SideCount],
                           const Point royal[SideCount], Score total[SideCount]) const {
  for (Side side = First; side < SideCount; ++side) total[side] += census.total[side];
  for (int i = 0; i < census.passed_count; ++i) {
    const Side side = census.passed[i].side;
    const PassedTerms& t = passed_terms_[census.passed[i].terms];
    total[side].endgame += t.own_royal * royal_distance(royal[side], t.ahead) +
                           t.enemy_royal * royal_distance(royal[opponent(side)], t.ahead);
  }
  if (!open_files_) return;
  for (Side side = First; side < SideCount; ++side)
    for (int i = 0; i < count[side]; ++i) {
      const Point s = found[side][i].square;
      const KindTerms& t = terms_[found[side][i].kind];
      const std::uint32_t file = 1u << (file_[s] + 1);
      if (!t.on_file || (census.files[side] & file)) continue;
      total[side] += census.files[opponent(side)] & file ? t.half_open : t.open;
    }
}

int Evaluation::shelter(const Placed* found, int count, const Position& pos, Side side) const {
  const Point royal = pos.royal(side);
  if (royal >= squares_ || !sheltered_[side * squares_ + royal]) return 0;
  const int* along = &advance_[side * squares_];
  const int depth = int(shelter_bonus_.size());
  int nearest[3] = {depth + 1, depth + 1, depth + 1};  // ranks ahead, by file from the royal's left
  for (int i = 0; i < count; ++i) {
    const Point s = found[i].square;
    const int file = file_[s] - file_[royal] + 1, ahead = along[s] - along[royal];
    if (file >= 0 && file <= 2 && ahead >= 1 && terms_[found[i].kind].shelters)
      nearest[file] = std::min(nearest[file], ahead);
  }
  int bonus = 0;
  for (const int d : nearest)
    if (d <= depth) bonus += shelter_bonus_[d - 1];
  return bonus;
}

int Evaluation::operator()(const Position& pos) const {
  CensusTable none;
  if (bitboards_) {
    WalkMemo<Bitboard> fresh;
    return evaluate_bitboards(pos, *bitboards_, fresh, none);
  }
  if (wide_bitboards_) {
    WalkMemo<WideBitboard> fresh;
    return evaluate_bitboards(pos, *wide_bitboards_, fresh, none);
  }
  return evaluate_mailbox(pos);
}

int Evaluation::operator()(const Position& pos, EvalMemo& memo) const {
  if (bitboards_) return evaluate_bitboards(pos, *bitboards_, memo.one, memo.censuses);
  if (wide_bitboards_) return evaluate_bitboards(pos, *wide_bitboards_, memo.two, memo.censuses);
  return evaluate_mailbox(pos);
}

// A census's totals, files and passed pieces, from the memo's to a table's entry or back.
template <typename To, typename From>
static void copy_census(const From& from, To& to) {
  to.total[0] = from.total[0];
  to.total[1] = from.total[1];
  to.files[0] = from.files[0];
  to.files[1] = from.files[1];
  to.passed_count = from.passed_count;
  std::copy_n(from.passed, from.passed_count, to.passed);
}

bool CensusTable::load(std::uint64_t key, FileCensus& census) const {
  if (entries_.empty()) return false;
  const Entry& e = slot(key);
  if (e.key != key || e.passed_count < 0) return false;
  copy_census(e, census);
  return true;
}

void CensusTable::save(std::uint64_t key, const FileCensus& census) {
  if (entries_.empty() || census.passed_count > PassedKept) return;
  Entry& e = slot(key);
  e.key = key;
  copy_census(census, e);
}

KnownDestinations Evaluation::known_moves(const Position& pos, const EvalMemo& memo) const {
  KnownDestinations known;
  const Side us = pos.side_to_move();
  const int kinds = int(terms_.size());
  if (bitboards_ && memo.one.stands_at(pos, kinds))
    known.one = {memo.one.walked_points & pos.occupied_by<Bitboard>(us), memo.one.moves};
  else if (wide_bitboards_ && memo.two.stands_at(pos, kinds))
    known.two = {memo.two.walked_points & pos.occupied_by<WideBitboard>(us), memo.two.moves};
  return known;
}

int Evaluation::conclude(const Position& pos, Score total[SideCount], int phase, int pieces[SideCount],
                         const Placed* const found[SideCount], const int found_count[SideCount], FileCensus* census,
                         const int (*owned)[MaxKinds]) const {
  for (const Kind k : held_)
    for (Side side = First; side < SideCount; ++side) {
      const int held = pos.in_hand(side, k);
      total[side] += {held * hand_value_[k], held * hand_value_[k]};
      phase += held * terms_[k].phase;
      pieces[side] += held;
    }
  if (!checks_bonus_.empty())
    for (Side side = First; side < SideCount; ++side) {
      const int given = std::max(0, checks_to_win_ - pos.state().checks_needed[side]);
      total[side] += {checks_bonus_[given], checks_bonus_[given]};
    }
  if (!few_pieces_.empty())
    for (Side side = First; side < SideCount; ++side)
      if (pieces[side] < int(few_pieces_.size())) total[side] += {few_pieces_[pieces[side]], few_pieces_[pieces[side]]};
  if (found_count[0] + found_count[1] > 0) {
    const Point royals[SideCount] = {pos.royal(First), pos.royal(Second)};
    FileCensus taken;
    if (!census) {
      take_census(found, found_count, taken);
      census = &taken;
    }
    add_files(*census, found, found_count, royals, total);
  }
  if (!shelter_bonus_.empty())
    for (Side side = First; side < SideCount; ++side)
      total[side].opening += shelter(found[side], found_count[side], pos, side);
  if (pairs_)
    for (Side side = First; side < SideCount; ++side)
      for (int k = 0; k < int(terms_.size()); ++k)
        if (owned[side][k] >= 2) total[side] += {terms_[k].pair, terms_[k].pair};

  const Side us = pos.side_to_move();
  const int opening = total[us].opening - total[opponent(us)].opening;
  const int endgame = total[us].endgame - total[opponent(us)].endgame;
  if (!full_phase_) return opening + tempo_;
  const int weight = std::min(phase, full_phase_);
  return (opening * weight + endgame * (full_phase_ - weight)) / full_phase_ + tempo_;
}

int Evaluation::evaluate_mailbox(const Position& pos) const {
  Score total[SideCount];
  int phase = 0;
  Placed found[SideCount][MaxPoints];
  Walks walks;
  int found_count[SideCount] = {0, 0};
  int pieces[SideCount] = {0, 0};
  int owned[SideCount][MaxKinds];
  if (pairs_) std::fill(&owned[0][0], &owned[0][0] + SideCount * MaxKinds, 0);
  for (Side side = First; side < SideCount; ++side)
    for (int i = 0; i < pos.piece_count(side); ++i) {
      const Point s = pos.piece_square(side, i);
      const Kind kind = kind_of(pos.at(s));
      const KindTerms& t = terms_[kind];
      total[side] += score_[pos.at(s) * squares_ + s];
      phase += t.phase;
      pieces[side] += !t.royal;
      if (t.walked) {
        const int bonus =
            t.threats_only ? walk_mailbox<true>(pos, side, s, kind, walks) : walk_mailbox<false>(pos, side, s, kind, walks);
        total[side] += {bonus, bonus};
      }
      if (t.census || t.on_file || t.shelters) found[side][found_count[side]++] = {s, kind};
      if (t.pair) ++owned[side][kind];
    }
  for (int i = 0; i < walks.prey_count; ++i) {
    const Walks::Prey& p = walks.prey[i];
    if (!walks.guards(opponent(p.taker), p.square)) total[p.taker] += {p.weight, p.weight};
  }
  const Placed* const lists[SideCount] = {found[0], found[1]};
  return conclude(pos, total, phase, pieces, lists, found_count, nullptr, owned);
}

// The points a leap may take a ghost on in `pos` (Position::is_ghost).
template <typename B>
static B ghost_points(const Position& pos, int squares) {
  const StateRecord& st = pos.state();
  if (st.ghost == NoPoint) return 0;
  if (st.ghost_end == st.ghost) return bit<B>(st.ghost);
  B points = 0;
  for (Point s = Point(0); s < squares; ++s)
    if (pos.is_ghost(s)) points |= bit<B>(s);
  return points;
}

template <typename B>
B Evaluation::follow(const Position& pos, const BasicBitboards<B>& tables, WalkMemo<B>& memo) const {
  if (!memo.valid) memo.reset();
  B changed = 0;
  for (Side side = First; side < SideCount; ++side)
    for (Kind k = Kind(0); k < int(terms_.size()); ++k) {
      const Piece p = make_piece(side, k);
      const B now = pos.pieces<B>(p);
      const B moved = memo.pieces[p] ^ now;
      if (!moved) continue;
      const Score* score = &score_[std::size_t(p) * squares_];
      const KindTerms& t = terms_[k];
      const B gone = memo.pieces[p] & moved, came = now & moved;
      if (census_kinds_ >> k & 1) {
        memo.census_valid = false;
        for (B m = moved; m;) memo.census_key ^= pos.variant().piece_key(p, pop_point(m));
      }
      const int more = tables.count(came) - tables.count(gone);
      memo.phase += t.phase * more;
      memo.others[side] += t.royal ? 0 : more;
      for (B left = gone; left;) {
        const Score lost = score[pop_point(left)];
        memo.material[side].opening -= lost.opening;
        memo.material[side].endgame -= lost.endgame;
      }
      for (B arrived = came; arrived;) memo.material[side] += score[pop_point(arrived)];
      changed |= moved;
      memo.pieces[p] = now;
    }
  const StateRecord& st = pos.state();
  if (st.ghost != memo.ghost || st.ghost_end != memo.ghost_end || st.ghost_victim != memo.ghost_victim) {
    const B ghosts = ghost_points<B>(pos, squares_);
    changed |= memo.ghost_points | ghosts;
    memo.ghost_points = ghosts;
    memo.ghost = st.ghost;
    memo.ghost_end = st.ghost_end;
    memo.ghost_victim = st.ghost_victim;
  }
  return changed;
}

template <typename B>
int Evaluation::evaluate_bitboards(const Position& pos, const BasicBitboards<B>& tables, WalkMemo<B>& memo,
                                   CensusTable& censuses) const {
  const B changed = follow(pos, tables, memo);
  // A walk kept for a point whose piece came, went or changed is no longer this position's.
  for (B retired = changed & memo.walked_points; retired;) {
    const typename WalkMemo<B>::Walked& w = memo.walked[pop_point(retired)];
    memo.bonus[w.side] -= w.bonus;
  }
  memo.walked_points &= ~changed;
  Walks walks;
  // The walks' prey, piece by piece: a point two pieces could take on counts twice.
  struct Prey {
    B points;
    Side taker;
    int weight;
  };
  Prey prey[PointsIn<B>];
  int prey_sets = 0;
  B guarded[SideCount] = {0, 0};
  for (Side side = First; side < SideCount; ++side) {
    const Point royal = pos.royal(opponent(side));
    const int near = royal < near_rows_ ? royal : near_rows_;
    const bool royal_moved = near != memo.near[side];
    memo.near[side] = near;
    for (std::uint32_t k = walked_kinds_; k; k &= k - 1) {
      const Kind kind = Kind(std::countr_zero(k));
      const KindTerms& t = terms_[kind];
      // Where the enemy royal moved, a piece that counts its neighbourhood counts it again: from
      // its moves as they were where all are plain moves, else by a walk. Where a royal moves
      // often, a quarter of the walks were for that alone.
      const bool count_near = royal_moved && t.royal_attack;
      for (B on = pos.pieces<B>(make_piece(side, kind)); on;) {
        const Point s = pop_point(on);
        typename WalkMemo<B>::Walked& w = memo.walked[s];
        const bool kept = holds(memo.walked_points, s);
        if (!kept || (w.reads & changed) || !w.kept || (count_near && !w.in_moves)) {
          if (kept) memo.bonus[side] -= w.bonus;
          memo.moves[s] = walk_bitboards(pos, tables, side, s, kind, near, walks, w);
          w.side = side;
          memo.bonus[side] += w.bonus;
          memo.walked_points |= bit<B>(s);
        } else if (count_near) [[unlikely]] {
          const int reached = tables.count(memo.moves[s] & B(near_bits_[near]));
          const int gain = t.royal_attack * (reached - w.near_reached);
          w.bonus += gain;
          memo.bonus[side] += gain;
          w.near_reached = reached;
        }
        if (hanging_) {
          guarded[side] |= w.defended;
          if (w.prey) prey[prey_sets++] = {w.prey, side, t.hanging};
        }
      }
    }
  }
  // The prey a leap that passes points found waits on the list with its point.
  if (hanging_)
    for (Side side = First; side < SideCount; ++side) {
      walks.guarded[side][0] |= low_word(guarded[side]);
      if constexpr (PointsIn<B> > 64) walks.guarded[side][1] |= high_word(guarded[side]);
    }
  Score total[SideCount];
  for (Side side = First; side < SideCount; ++side) {
    total[side] = memo.material[side];
    total[side] += {memo.bonus[side], memo.bonus[side]};
  }
  for (int i = 0; i < walks.prey_count; ++i) {
    const Walks::Prey& p = walks.prey[i];
    if (!walks.guards(opponent(p.taker), p.square)) total[p.taker] += {p.weight, p.weight};
  }
  for (int i = 0; i < prey_sets; ++i) {
    const int hanging = prey[i].weight * tables.count(prey[i].points & ~guarded[opponent(prey[i].taker)]);
    total[prey[i].taker] += {hanging, hanging};
  }
  // The pieces the files and the shelter look at, and the pairs, from the pieces' sets.
  Placed found[SideCount][MaxPoints];
  int found_count[SideCount] = {0, 0};
  for (std::uint32_t k = placed_kinds_; k; k &= k - 1)
    for (Side side = First; side < SideCount; ++side)
      for (B on = pos.pieces<B>(make_piece(side, Kind(std::countr_zero(k)))); on;)
        found[side][found_count[side]++] = {pop_point(on), Kind(std::countr_zero(k))};
  int owned[SideCount][MaxKinds];
  if (pairs_)
    for (Side side = First; side < SideCount; ++side)
      for (Kind k = Kind(0); k < int(terms_.size()); ++k) owned[side][k] = tables.count(pos.pieces<B>(make_piece(side, k)));
  const Placed* const lists[SideCount] = {found[0], found[1]};
  FileCensus* census = nullptr;
  if (found_count[0] + found_count[1] > 0) {
    census = &memo.census;
    if (!memo.census_valid && !censuses.load(memo.census_key, memo.census)) {
      take_census(lists, found_count, memo.census);
      censuses.save(memo.census_key, memo.census);
    }
    memo.census_valid = true;
  }
  int others[SideCount] = {memo.others[0], memo.others[1]};
  return conclude(pos, total, memo.phase, others, lists, found_count, census, owned);
}

}  // namespace palace::search
