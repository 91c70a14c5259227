#include "compiler/bitboards.h"

#include <algorithm>
#include <map>


namespace palace {

SliderIndexing best_slider_indexing() {
#if defined(__x86_64__) && defined(__GNUC__)
  // AMD's first two Zen generations run PEXT in microcode, slower than a multiply.
  if (__builtin_cpu_supports("bmi2") && !__builtin_cpu_is("znver1") && !__builtin_cpu_is("znver2")) return SliderIndexing::Pext;
#endif
  return SliderIndexing::Magic;
}

bool processor_has_popcnt() {
#if defined(__x86_64__) && defined(__GNUC__)
  return __builtin_cpu_supports("popcnt");
#else
  return false;
#endif
}

namespace {

template <typename B>
B points_of(const std::vector<Point>& points) {
  B b = 0;
  for (const Point s : points) b |= bit<B>(s);
  return b;
}

// What slides along `lines` reach over `occupied`: each line up to its first piece. Hopping: each
// line's points past its first piece (the screen), up to the next piece or `after_screen` points on,
// as the mailbox walk (movegen/destinations.h) lands a hop. Leaping: each line's last point, where
// the points before it are empty.
template <typename B>
B reach_over(const std::vector<std::vector<Point>>& lines, B occupied, LineWalk walk, int after_screen) {
  B reach = 0;
  const bool hop = walk == LineWalk::Hop;
  for (const auto& line : lines) {
    if (walk == LineWalk::Leap) {
      if (std::none_of(line.begin(), line.end() - 1, [&](Point s) { return occupied & bit<B>(s); })) reach |= bit<B>(line.back());
      continue;
    }
    std::size_t i = 0;
    if (hop) {
      while (i < line.size() && !(occupied & bit<B>(line[i]))) ++i;
      if (i++ == line.size()) continue;
    }
    const std::size_t end = hop && after_screen ? std::min(line.size(), i + std::size_t(after_screen)) : line.size();
    for (; i < end; ++i) {
      reach |= bit<B>(line[i]);
      if (occupied & bit<B>(line[i])) break;
    }
  }
  return reach;
}

std::uint64_t next_random(std::uint64_t& state) {  // xorshift64*, fixed seed: the same magics every load
  state ^= state >> 12, state ^= state << 25, state ^= state >> 27;
  return state * 2685821657736338717ull;
}

std::uint64_t sparse_random(std::uint64_t& state) { return next_random(state) & next_random(state) & next_random(state); }

// A multiplier (one per word) that sends every subset of the table's mask to an index whose reach
// agrees, found by trying sparse random numbers, as Stockfish finds its magics at start-up.
template <typename B>
B find_magic(SliderTable<B> table, const std::vector<B>& subsets, const std::vector<B>& reaches) {
  std::vector<B> seen(subsets.size());
  std::vector<int> tried(subsets.size(), 0);
  std::uint64_t state = 0x9E3779B97F4A7C15ull;
  table.offset = 0;
  for (int attempt = 1;; ++attempt) {
    table.magic = sparse_random(state);
    if constexpr (PointsIn<B> > 64) table.magic |= B(sparse_random(state)) << 64;
    bool ok = true;
    for (std::size_t i = 0; i < subsets.size() && ok; ++i) {
      const std::size_t at = BasicBitboards<B>::template slider_index<SliderIndexing::Magic>(table, subsets[i]);
      if (tried[at] != attempt) {
        tried[at] = attempt;
        seen[at] = reaches[i];
      } else {
        ok = seen[at] == reaches[i];
      }
    }
    if (ok) return table.magic;
  }
}

}  // namespace

// One lookup per distinct set of lines and way along them: a rook's lines from a point serve every
// kind that slides so.
template <typename B>
std::int16_t BasicBitboards<B>::add_lookup(const std::vector<std::vector<Point>>& lines, LineWalk walk, int after_screen) {
  const std::pair key{walk == LineWalk::Hop ? after_screen : walk == LineWalk::Leap ? -2 : -1, lines};
  if (const auto known = lookup_of_lines_.find(key); known != lookup_of_lines_.end()) return known->second;
  if (sliders_.size() >= INT16_MAX) return -1;
  SliderTable<B> table;
  for (const auto& line : lines)
    for (std::size_t i = 0; i + 1 < line.size(); ++i) table.mask |= bit<B>(line[i]);
  const int bits = count_points<false>(table.mask);
  table.low_bits = std::uint8_t(count_points<false>(low_word(table.mask)));
  // Every subset of the mask, by the carry-rippler walk, and what the slides reach over it.
  std::vector<B> subsets, reaches;
  B subset = 0;
  do {
    subsets.push_back(subset);
    reaches.push_back(reach_over(lines, subset, walk, after_screen));
    subset = (subset - table.mask) & table.mask;
  } while (subset);
  if (bits > 0 && indexing_ == SliderIndexing::Magic) {
    table.shift = std::uint8_t(64 - bits);
    table.magic = find_magic(table, subsets, reaches);
  }
  table.offset = std::uint32_t(attacks_.size());
  attacks_.resize(attacks_.size() + subsets.size());
  for (std::size_t i = 0; i < subsets.size(); ++i) {
    const std::size_t at = indexing_ == SliderIndexing::Pext ? slider_index<SliderIndexing::Pext>(table, subsets[i])
                                                             : slider_index<SliderIndexing::Magic>(table, subsets[i]);
    attacks_[at] = reaches[i];
  }
  sliders_.push_back(table);
  return lookup_of_lines_[key] = std::int16_t(sliders_.size() - 1);
}

// The moves of the kind, from the tables compiled above, grouped by how far they go: the steps of
// one group are one shift of the kind's pieces. Left empty where they do not fit MaxShiftSteps
// shifts or the kind moves otherwise.
template <typename B>
void BasicBitboards<B>::compile_shift_steps(const Variant& v, Side side, Kind kind) {
  const std::size_t at = std::size_t(side) * kinds_ + kind;
  if (promotion_leaving_[at] || (promotion_arrival_[at] && v.rules().pieces[kind].promotion_to_lost_only) || (traits_[at] & Hops))
    return;
  struct Key {
    int shift, block, modes;
    auto operator<=>(const Key&) const = default;
  };
  std::map<Key, B> groups;
  for (Point s = Point(0); s < v.squares(); ++s) {
    const BitboardMoves<B>& m = moves_[cell(side, kind, s)];
    if (std::ranges::any_of(m.slider, [](std::int16_t t) { return t >= 0; })) return;
    for (B t = m.leap_move | m.leap_capture; t;) {
      const Point to = pop_point(t);
      const int modes = (m.leap_move & bit<B>(to) ? CanMove : 0) | (m.leap_capture & bit<B>(to) ? CanCapture : 0);
      groups[{int(to) - int(s), 0, modes}] |= bit<B>(s);
    }
    for (std::uint32_t i = m.special_begin; i < m.special_end; ++i) {
      const LeapTarget& t = specials_[i];
      // Only a move that passes one point and captures nothing, ghost or piece.
      if (t.block_count != 1 || t.modes != CanMove || (t.flags & TakesGhost)) return;
      groups[{int(t.to) - int(s), int(t.blocks[0]) - int(s), CanMove}] |= bit<B>(s);
    }
    if (groups.size() > std::size_t(MaxShiftSteps)) return;
  }
  int count = 0;
  for (const auto& [key, from] : groups)
    shift_steps_[at][count++] = {from, std::int8_t(key.shift), std::int8_t(key.block), std::uint8_t(key.modes)};
  shift_step_counts_[at] = std::uint8_t(count);
}

// Where every special leap of the kind passes points and leaves no ghost, each landing on its own
// point apart from the kind's other leaps, one lookup a point answers them all (LeapsLookedUp);
// else its specials stay a list. False where the table is full.
template <typename B>
bool BasicBitboards<B>::look_up_leaps(Side side, Kind kind) {
  const std::size_t first = cell(side, kind, Point(0));
  for (std::size_t c = first; c < first + PointsIn<B>; ++c) {
    const BitboardMoves<B>& m = moves_[c];
    B landings = m.leap_move | m.leap_capture;
    for (std::uint32_t i = m.special_begin; i < m.special_end; ++i) {
      const LeapTarget& t = specials_[i];
      if ((t.flags & (LeavesGhost | TakesGhost)) || (landings & bit<B>(t.to))) return true;
      landings |= bit<B>(t.to);
    }
  }
  for (std::size_t c = first; c < first + PointsIn<B>; ++c) {
    const BitboardMoves<B>& m = moves_[c];
    if (m.special_begin == m.special_end) continue;
    std::vector<std::vector<Point>> leaps;
    for (std::uint32_t i = m.special_begin; i < m.special_end; ++i) {
      const LeapTarget& t = specials_[i];
      leaps.emplace_back(t.blocks, t.blocks + t.block_count).push_back(t.to);
      if (t.modes & CanMove) lookup_move_[c] |= bit<B>(t.to);
      if (t.modes & CanCapture) lookup_capture_[c] |= bit<B>(t.to);
    }
    if ((leap_lookup_[c] = add_lookup(leaps, LineWalk::Leap)) < 0) return false;
  }
  traits_[std::size_t(side) * kinds_ + kind] |= LeapsLookedUp;
  return true;
}

template <typename B>
std::unique_ptr<const BasicBitboards<B>> BasicBitboards<B>::compile(const Variant& v, SliderIndexing indexing) {
  if (v.squares() > PointsIn<B> || v.has_runtime_hooks()) return nullptr;
  auto b = std::make_unique<BasicBitboards>();
  b->indexing_ = indexing;
  b->legal_by_pins_ = !v.explosive() && v.move_rules().facing_royals == FacingRule::Allowed;
  b->popcnt_ = processor_has_popcnt();
  b->kinds_ = v.kinds();
  const int kinds = v.kinds(), squares = v.squares();

  // Lines from each point: a slide passes the points before its landing point.
  b->between_.assign(std::size_t(PointsIn<B>) * PointsIn<B>, 0);
  for (Point s = Point(0); s < squares; ++s) {
    B joined = 0;
    for (int d = 0; d < DirectionCount; ++d) {
      const Span line = v.line(s, d);
      B passed = 0;
      for (std::uint32_t i = line.begin; i < line.end; ++i) {
        const Point t = v.line_point(i);
        // Two lines joining one pair of points would leave "between" ambiguous.
        if (joined & bit<B>(t)) return nullptr;
        joined |= bit<B>(t);
        b->between_[s * PointsIn<B> + t] = passed;
        passed |= bit<B>(t);
      }
    }
  }

  const std::size_t cells = std::size_t(SideCount) * kinds * PointsIn<B>;
  b->moves_.resize(cells);
  b->takes_ghost_.assign(cells, 0);
  b->reads_.assign(cells, 0);
  b->slide_move_.assign(cells, 0);
  b->slide_capture_.assign(cells, 0);
  b->hop_spans_.assign(cells, Span{});
  b->hop_move_.assign(cells, 0);
  b->hop_capture_.assign(cells, 0);
  b->leap_lookup_.assign(cells, -1);
  b->lookup_move_.assign(cells, 0);
  b->lookup_capture_.assign(cells, 0);
  b->refused_screens_.assign(kinds, 0);
  for (Kind k = Kind(0); k < kinds; ++k)
    for (Kind screen = Kind(0); screen < kinds; ++screen)
      if (!v.may_jump(k, screen)) b->refused_screens_[k] |= 1u << screen;
  b->traits_.assign(std::size_t(SideCount) * kinds, 0);
  b->capturers_.assign(std::size_t(SideCount) * kinds * PointsIn<B>, 0);
  b->direct_.assign(std::size_t(SideCount) * kinds, 1);
  b->promotion_arrival_.assign(std::size_t(SideCount) * kinds, 0);
  b->promotion_leaving_.assign(std::size_t(SideCount) * kinds, 0);
  b->promotion_forced_.assign(std::size_t(SideCount) * kinds, 0);
  b->drop_points_.assign(std::size_t(SideCount) * kinds, 0);
  for (Side side = First; side < SideCount; ++side)
    for (Kind k : v.hand_kinds()) b->drop_points_[side * kinds + k] = points_of<B>(v.drop_points(side, k));
  for (Side side = First; side < SideCount; ++side)
    for (Kind k = Kind(0); k < kinds; ++k)
      for (Point s = Point(0); s < squares; ++s) {
        const std::size_t cell = b->cell(side, k, s);
        BitboardMoves<B>& m = b->moves_[cell];
        std::uint8_t& traits = b->traits_[side * kinds + k];
        B& slide_move = b->slide_move_[cell];
        B& slide_capture = b->slide_capture_[cell];
        if (v.promotion_flags(side, k, s) & (PromotesArriving | MustPromote)) b->promotion_arrival_[side * kinds + k] |= bit<B>(s);
        if (v.promotion_flags(side, k, s) & MustPromote) b->promotion_forced_[side * kinds + k] |= bit<B>(s);
        if (v.promotion_flags(side, k, s) & PromotesLeaving) b->promotion_leaving_[side * kinds + k] |= bit<B>(s);
        B reach = 0;  // every point it could capture on, on an empty board
        B leap_points = 0;
        const Span leaps = v.leaps(side, k, s);
        m.special_begin = std::uint16_t(b->specials_.size());
        for (std::uint32_t i = leaps.begin; i < leaps.end; ++i) {
          const LeapTarget& t = v.leap(i);
          leap_points |= bit<B>(t.to);
          b->reads_[cell] |= bit<B>(t.to) | points_of<B>({t.blocks, t.blocks + t.block_count});
          if (t.modes & CanCapture) reach |= bit<B>(t.to);
          if (t.block_count || (t.flags & LeavesGhost)) {
            b->specials_.push_back(t);
            b->special_blocks_.push_back(points_of<B>({t.blocks, t.blocks + t.block_count}));
            if (t.modes & CanCapture) traits |= SpecialCaptures;
            continue;
          }
          if (t.modes & CanMove) m.leap_move |= bit<B>(t.to);
          if (t.modes & CanCapture) m.leap_capture |= bit<B>(t.to);
          if ((t.flags & TakesGhost) && (t.modes & CanCapture)) {
            b->takes_ghost_[cell] |= bit<B>(t.to);
            traits |= TakesGhosts;
          }
        }
        if (b->specials_.size() > UINT16_MAX) return nullptr;
        m.special_end = std::uint16_t(b->specials_.size());

        // A piece's slides along one direction share their line: the longest holds the others.
        // Its hops along a direction make one line too, one hop a direction.
        std::vector<Point> lines[DirectionCount], hop_lines[DirectionCount];
        int after_screen[DirectionCount] = {};
        B ray_points = 0, slide_landings = 0;
        const Span rays = v.rays(side, k, s);
        for (std::uint32_t i = rays.begin; i < rays.end; ++i) {
          const Ray& ray = v.ray(i);
          const RayPoint* points = v.ray_points(ray);
          if (ray.hop) {
            if (!hop_lines[ray.direction].empty()) return nullptr;
            after_screen[ray.direction] = ray.after_screen;
            for (std::uint32_t p = 0; p < ray.length; ++p) {
              hop_lines[ray.direction].push_back(points[p].square);
              if (points[p].modes & CanMove) b->hop_move_[cell] |= bit<B>(points[p].square);
              if (points[p].modes & CanCapture) b->hop_capture_[cell] |= bit<B>(points[p].square);
            }
            continue;
          }
          std::vector<Point>& line = lines[ray.direction];
          for (std::uint32_t p = 0; p < ray.length; ++p) {
            if (p < line.size()) {
              if (line[p] != points[p].square) return nullptr;
            } else {
              line.push_back(points[p].square);
            }
            if (points[p].modes) slide_landings |= bit<B>(points[p].square);
            if (points[p].modes & CanMove) slide_move |= bit<B>(points[p].square);
            if (points[p].modes & CanCapture) slide_capture |= bit<B>(points[p].square);
          }
        }
        for (int d = 0; d < DirectionCount; ++d) {
          const B on_line = points_of<B>(lines[d]);
          // A point two slides reach would be two moves in the mailbox tables; the compiler leaves a
          // point a slide and a leap both land on to one of them (Variant's CellMoves).
          if ((on_line & ray_points) || (on_line & slide_landings & leap_points)) return nullptr;
          ray_points |= on_line;
        }
        if ((slide_move & slide_capture) != ray_points) traits |= SlidesLandSome;
        reach |= slide_capture;
        for (int group = 0; group < SliderGroups<B>; ++group) {
          std::vector<std::vector<Point>> group_lines;
          for (int d = group; d < DirectionCount; d += SliderGroups<B>)
            if (!lines[d].empty()) group_lines.push_back(lines[d]);
          if (group_lines.empty()) continue;
          if ((m.slider[group] = b->add_lookup(group_lines)) < 0) return nullptr;
        }
        // A hop lands past the first piece on its line, a slide before or on it: along one line the
        // two never reach one point at once, but a hop and a leap may.
        Span& hops = b->hop_spans_[cell];
        hops.begin = std::uint32_t(b->hop_lines_.size());
        for (int d = 0; d < DirectionCount; ++d) {
          if (hop_lines[d].empty()) continue;
          if (points_of<B>(hop_lines[d]) & (b->hop_move_[cell] | b->hop_capture_[cell]) & leap_points) return nullptr;
          b->reads_[cell] |= points_of<B>(hop_lines[d]);
          HopLine h;
          h.reach = b->add_lookup({hop_lines[d]}, LineWalk::Hop, after_screen[d]);
          if (b->refused_screens_[k]) h.screen = b->add_lookup({hop_lines[d]});
          if (h.reach < 0 || (b->refused_screens_[k] && h.screen < 0)) return nullptr;
          b->hop_lines_.push_back(h);
          traits |= Hops;
          b->hops_ = true;
        }
        hops.end = std::uint32_t(b->hop_lines_.size());
        reach |= b->hop_capture_[cell];
        if (ray_points || (traits & (SpecialCaptures | Hops))) b->direct_[side * kinds + k] = 0;
        for (B r = reach; r;) b->capturers_[(std::size_t(side) * kinds + k) * PointsIn<B> + pop_point(r)] |= bit<B>(s);
      }
  b->shift_steps_.resize(std::size_t(SideCount) * kinds);
  b->shift_step_counts_.assign(std::size_t(SideCount) * kinds, 0);
  for (Side side = First; side < SideCount; ++side)
    for (Kind k = Kind(0); k < kinds; ++k) b->compile_shift_steps(v, side, k);
  b->legal_by_pins_ = b->legal_by_pins_ && !b->hops_;
  for (Side side = First; side < SideCount; ++side)
    for (Kind k = Kind(0); k < kinds; ++k) {
      if (!b->look_up_leaps(side, k)) return nullptr;
      std::uint8_t& traits = b->traits_[side * kinds + k];
      bool listed = false;  // a leap kept apart as a special, not looked up with the others
      for (Point s = Point(0); s < squares; ++s) {
        const BitboardMoves<B>& m = b->moves_[b->cell(side, k, s)];
        listed = listed || (m.special_begin != m.special_end && !(traits & LeapsLookedUp));
      }
      if (!(traits & TakesGhosts) && !listed && !b->promotion_arrival_[side * kinds + k] &&
          !b->promotion_leaving_[side * kinds + k])
        traits |= PlainOnly;
    }
  b->refused_.assign(kinds, 0);
  for (Kind k = Kind(0); k < kinds; ++k)
    if (v.rules().pieces[k].royal) b->royal_kinds_ |= 1u << k;
  for (Kind k = Kind(0); k < kinds; ++k)
    for (Kind victim = Kind(0); victim < kinds; ++victim)
      if (!v.may_capture(k, victim)) b->refused_[k] |= 1u << victim;
  for (const CompoundMove& c : v.compound_moves()) b->compound_empty_.push_back(points_of<B>(c.must_be_empty));
  b->lookup_of_lines_.clear();
  return b;
}

template class BasicBitboards<Bitboard>;
template class BasicBitboards<WideBitboard>;

}  // namespace palace
