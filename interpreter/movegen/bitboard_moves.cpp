#include "movegen/bitboard_moves.h"

#include "movegen/destinations.h"
#include "movegen/movegen.h"

namespace palace {

namespace {

template <typename B>
constexpr B Anywhere = ~B(0);

// Lists the moves of the piece of `kind` on `from` landing in `allowed` (ghosts taken aside, see
// bitboard_destinations) but its plain moves that do not promote, which it returns for the caller
// to list, test or count; a ghost taken and a special leap's move, promoting or not, go to other().
template <SliderIndexing I, typename B, typename Other>
[[gnu::always_inline]] inline B add_piece_moves(const Position& pos, const BasicBitboards<B>& b, MoveList& list, Side us,
                                                Kind kind, Point from, B allowed, Other&& other) {
  const B promoting = holds(b.promotion_leaving(us, kind), from) ? Anywhere<B> : b.promotion_arrival(us, kind);
  const B plain = bitboard_destinations<I>(pos, b, us, kind, from, allowed, [&](Point to, MoveType type, Point extra) {
    if (type != MoveType::CaptureGhost && (promoting & bit<B>(to))) add_move_with_promotions(pos, list, us, kind, Move(from, to, type, extra));
    else other(Move(from, to, type, extra));
  }, NoGuard{}).moves;
  if (!(plain & promoting)) [[likely]]
    return plain;
  // In point order, as the mailbox generator lists them.
  for (B t = plain; t;) add_move_with_promotions(pos, list, us, kind, Move(from, pop_point(t)));
  return 0;
}

// Where the plain moves found go: into the list, or, on perft's last ply, into a count (the other
// moves are still listed, the count being the list's size and this), by the processor's POPCNT
// instruction where it has one.
template <bool Count, bool Popcnt = false>
struct Found {
  static constexpr bool counts = Count, popcnt = Popcnt;
  MoveList& list;
  std::uint64_t counted = 0;
  void add(Move m) {
    if constexpr (Count) ++counted;
    else list.add(m);
  }
  template <typename B>
  void add_all(Point from, B targets) {
    if constexpr (Count) counted += std::uint64_t(count_points<Popcnt>(targets));
    else
      while (targets) list.add(Move(from, pop_point(targets)));
  }
};

template <typename B>
B shifted(B points, int by) { return by >= 0 ? points << by : points >> -by; }

// The number of moves of the pieces `pieces` of `kind` landing in `allowed`, all at once by the
// kind's shift steps (Bitboards::shift_steps), promotion choices each counted: add_piece_moves'
// plain moves and special leaps, none of which may take a ghost.
template <bool Popcnt, typename B>
std::uint64_t count_shift_steps(const Position& pos, const BasicBitboards<B>& b, Side us, Kind kind, B pieces,
                                B allowed) {
  const B empty = ~pos.occupied<B>() & allowed, victims = capturable(pos, b, opponent(us), kind) & allowed;
  const B promoting = b.promotion_arrival(us, kind), forced = b.promotion_forced(us, kind);
  const std::uint64_t choices = pos.variant().promotion_kinds(kind).size();
  const ShiftStep<B>* steps = b.shift_steps(us, kind);
  std::uint64_t n = 0;
  for (int i = 0; i < b.shift_step_count(us, kind); ++i) {
    const ShiftStep<B>& step = steps[i];
    B from = pieces & step.from;
    if (step.block) from &= shifted(~pos.occupied<B>(), -step.block);
    const B to = shifted(from, step.shift) & ((step.modes & CanMove ? empty : B(0)) | (step.modes & CanCapture ? victims : B(0)));
    n += std::uint64_t(count_points<Popcnt>(to));
    if (to & promoting) [[unlikely]]
      n += std::uint64_t(count_points<Popcnt>(to & promoting)) * choices - std::uint64_t(count_points<Popcnt>(to & forced));
  }
  return n;
}

// On perft's last ply, counts the moves of those of `pieces` (of `kind`) that shift steps can
// count, landing in `allowed`, and returns the others: those that might take the ghost there is.
template <typename B, typename Sink>
B count_by_shifts(const Position& pos, const BasicBitboards<B>& b, Sink& found, Side us, Kind kind, B pieces, B allowed) {
  if constexpr (Sink::counts) {
    if (!b.shift_step_count(us, kind)) return pieces;
    B counted = pieces;
    const StateRecord& st = pos.state();
    if (st.ghost != NoPoint && (b.traits(us, kind) & TakesGhosts)) {
      if (st.ghost_end != st.ghost) return pieces;  // a line of ghost points: the pieces' own walk
      counted &= ~b.capturers(us, kind, st.ghost);
    }
    found.counted += count_shift_steps<Sink::popcnt>(pos, b, us, kind, counted, allowed);
    return pieces & ~counted;
  }
  (void)pos, (void)b, (void)found, (void)us, (void)kind, (void)allowed;
  return pieces;
}

// `captures_only`: only the plain moves that capture or may promote are found, in the order of the
// full list (ghosts taken and special leaps landing on an enemy are found too). A sink that counts
// counts only the plain moves that neither leave nor land on a point of `tried`, and lists the rest.
template <SliderIndexing I, typename B, typename Sink>
void generate(const Position& pos, const BasicBitboards<B>& b, Sink& found, bool captures_only = false, B tried = 0,
              const KnownMoves<B>& known = {}) {
  const Variant& v = pos.variant();
  const Side us = pos.side_to_move();
  const B enemies = pos.occupied_by<B>(opponent(us));
  // Perft's counts never know their moves before.
  const bool knows = !Sink::counts && known.points != 0;
  // Kind by kind, so that a piece's tables are found without reading the board.
  for (Kind kind = Kind(0); kind < v.kinds(); ++kind) {
    // A piece of a kind whose moves are all plain is listed from its moves known, with no
    // promotion to offer.
    const B listed = knows && (b.traits(us, kind) & PlainOnly) ? known.points : B(0);
    for (B pieces = pos.pieces<B>(make_piece(us, kind)); pieces;) {
      const Point from = pop_point(pieces);
      if (knows && holds(listed, from)) {
        found.add_all(from, known.moves[from] & (captures_only ? enemies : Anywhere<B>));
        continue;
      }
      const B allowed = !captures_only || holds(b.promotion_leaving(us, kind), from)
                            ? Anywhere<B>
                            : enemies | b.promotion_arrival(us, kind);
      if constexpr (Sink::counts) {
        const B untried = holds(tried, from) ? B(0) : ~tried;
        // A special leap's plain move is counted as the others are; ghosts and promotions are listed.
        const B plain = add_piece_moves<I>(pos, b, found.list, us, kind, from, allowed, [&](Move m) {
          if (m.type() == MoveType::Normal && holds(untried, m.to())) found.add(m);
          else found.list.add(m);
        });
        found.add_all(from, plain & untried);
        for (B t = plain & ~untried; t;) found.list.add(Move(from, pop_point(t)));
      } else {
        found.add_all(from, add_piece_moves<I>(pos, b, found.list, us, kind, from, allowed, [&](Move m) { found.add(m); }));
      }
    }
  }
}

// Whether the piece of `by` and `kind` on `from` could capture on `target`, its slides, hops and
// leaps that pass points stopped or screened by the pieces of `occupied`.
template <SliderIndexing I, typename B>
bool captures_on(const Position& pos, const BasicBitboards<B>& b, Side by, Kind kind, Point from, Point target, B occupied) {
  const BitboardMoves<B>& m = b.moves(by, kind, from);
  if ((m.leap_capture | (b.template slides<I>(m, occupied) & b.slide_capture(by, kind, from))) & bit<B>(target)) return true;
  if ((b.traits(by, kind) & Hops) && (hop_reach<I>(pos, b, by, kind, from, occupied) & b.hop_capture(by, kind, from) & bit<B>(target)))
    return true;
  if (b.traits(by, kind) & LeapsLookedUp) {
    const std::int16_t t = b.leap_lookup(by, kind, from);
    return t >= 0 && (b.template lookup<I>(t, occupied) & b.lookup_capture(by, kind, from) & bit<B>(target));
  }
  if (b.traits(by, kind) & SpecialCaptures)
    for (std::uint32_t s = m.special_begin; s < m.special_end; ++s) {
      const LeapTarget& t = b.special(s);
      if (t.to == target && (t.modes & CanCapture) && !(occupied & b.special_blocks(s))) return true;
    }
  return false;
}

// Calls visit(from, kind) for the pieces of `by` other than on `taken` that could capture on
// `target` with `occupied` occupied, kind by kind (`from` the set of a kind's attackers, or of one
// of them), until it returns true; returns whether one did.
template <SliderIndexing I, typename B, typename Visit>
bool visit_attackers_with(const Position& pos, const BasicBitboards<B>& b, Point target, Side by, Kind victim_kind,
                          B occupied, B taken, Visit&& visit) {
  const Variant& v = pos.variant();
  for (Kind kind = Kind(0); kind < v.kinds(); ++kind) {
    B from = b.capturers(by, kind, target) & pos.pieces<B>(make_piece(by, kind)) & ~taken;
    if (!from || !v.may_capture(kind, victim_kind)) continue;
    if (b.direct(by, kind)) {
      if (visit(from, kind)) return true;
      continue;
    }
    while (from) {
      const Point s = pop_point(from);
      if (captures_on<I>(pos, b, by, kind, s, target, occupied) && visit(bit<B>(s), kind)) return true;
    }
  }
  return false;
}

// Whether a piece of `by` other than on `taken` could capture on `target` with `occupied` occupied.
template <SliderIndexing I, typename B>
bool attacked_with(const Position& pos, const BasicBitboards<B>& b, Point target, Side by, Kind victim_kind, B occupied,
                   B taken) {
  return visit_attackers_with<I>(pos, b, target, by, victim_kind, occupied, taken, [](B, Kind) { return true; });
}

// What the side to move's royal asks of the moves of its other pieces in one position.
template <typename B>
struct RoyalGuard {
  B checkers = 0;
  B evasions = Anywhere<B>;  // where a move must land to answer every check: on the attacker or a point it passes
  B tried = 0;            // pieces standing on a point a leap aimed at the royal must pass
  B pinned = 0;           // pieces alone between the royal and a slider aimed at it
  int pins = 0;
  Point pinned_on[DirectionCount];
  B pin_line[DirectionCount];  // where such a piece still shields: the points between, and the slider's

  void attack(Point from, B passes) {
    checkers |= bit<B>(from);
    evasions &= bit<B>(from) | passes;
  }
  // A piece shields the royal from one slider at most: each line from the royal holds one pin.
  void pin(Point piece, B line) {
    pinned |= bit<B>(piece);
    pinned_on[pins] = piece;
    pin_line[pins++] = line;
  }
  B line_of(Point piece) const {
    int i = 0;
    while (pinned_on[i] != piece) ++i;
    return pin_line[i];
  }
};

// The checks on the side to move's royal on `royal` and the pins against it.
template <SliderIndexing I, typename B>
RoyalGuard<B> guard_of(const Position& pos, const BasicBitboards<B>& b, Point royal) {
  const Variant& v = pos.variant();
  const Side them = opponent(pos.side_to_move());
  const Kind royal_kind = kind_of(pos.at(royal));
  const B occupied = pos.occupied<B>(), ours = pos.occupied_by<B>(pos.side_to_move());
  RoyalGuard<B> g;
  for (Kind kind = Kind(0); kind < v.kinds(); ++kind) {
    B from = b.capturers(them, kind, royal) & pos.pieces<B>(make_piece(them, kind));
    if (!from || !v.may_capture(kind, royal_kind)) continue;
    if (b.direct(them, kind)) {
      g.checkers |= from;
      g.evasions &= single_point(from) ? from : 0;
      continue;
    }
    while (from) {
      const Point s = pop_point(from);
      const BitboardMoves<B>& m = b.moves(them, kind, s);
      if (m.leap_capture & bit<B>(royal)) {
        g.attack(s, 0);
      } else if (b.slide_capture(them, kind, s) & bit<B>(royal)) {
        const B passes = b.between(s, royal), shields = passes & occupied;
        if (!shields) g.attack(s, passes);
        else if (single_point(shields) && (shields & ours)) g.pin(first_point(shields), passes | bit<B>(s));
      }
      if (!(b.traits(them, kind) & SpecialCaptures)) continue;
      // A leap that passes points: whether the pieces on them would shield the royal elsewhere is
      // the board's to say.
      for (std::uint32_t i = m.special_begin; i < m.special_end; ++i) {
        const LeapTarget& t = b.special(i);
        if (t.to != royal || !(t.modes & CanCapture)) continue;
        const B passes = b.special_blocks(i);
        if (passes & occupied) g.tried |= passes & ours;
        else g.attack(s, passes);
      }
    }
  }
  return g;
}

// The compound moves (castling) of the side to move that leave its royal safe, judged from the
// bitboards: its two pieces lifted and set down, nothing taken.
template <SliderIndexing I, typename B, typename Sink>
void add_compound_moves(const Position& pos, const BasicBitboards<B>& b, Sink& found) {
  const Side us = pos.side_to_move(), them = opponent(us);
  const Point royal = pos.royal(us);
  const B occupied = pos.occupied<B>();
  for_each_compound_move(pos, [&](std::uint8_t i, const CompoundMove& c) {
    if (occupied & b.compound_empty(i)) return;
    bool safe = true;
    for (const Point s : c.must_be_safe) {
      const Point lifted = lifted_on(c, s);
      safe = safe && !attacked_with<I>(pos, b, s, them, c.kind, lifted == NoPoint ? occupied : occupied & ~bit<B>(lifted), B(0));
    }
    if (safe && royal != NoPoint) {
      const Point after = royal == c.from ? c.to : royal == c.partner_from ? c.partner_to : royal;
      const B moved = (occupied & ~bit<B>(c.from) & ~bit<B>(c.partner_from)) | bit<B>(c.to) | bit<B>(c.partner_to);
      safe = !attacked_with<I>(pos, b, after, them, kind_of(pos.at(royal)), moved, B(0));
    }
    if (safe) found.add(Move(c.from, c.written_to, MoveType::Compound, i));
  });
}

template <SliderIndexing I, typename B, typename Sink>
bool generate_legal(Position& pos, const BasicBitboards<B>& b, Sink& found) {
  const Variant& v = pos.variant();
  const Side us = pos.side_to_move();
  const Point royal = pos.royal(us);
  if (royal == NoPoint) {  // nothing to keep safe: every move is legal
    generate<I>(pos, b, found);
    add_compound_moves<I>(pos, b, found);
    return false;
  }
  const RoyalGuard<B> g = guard_of<I>(pos, b, royal);
  MoveList& list = found.list;
  const auto add = [&](Move m) { list.add(m); };
  const auto add_if_safe = [&](Move m) {
    if (leaves_royal_safe(pos, m)) list.add(m);
  };
  // The pieces whose moves checks and pins limit no more than to the evasions.
  const B free = ~(bit<B>(royal) | g.tried | g.pinned);
  for (Kind kind = Kind(0); kind < v.kinds(); ++kind) {
    const B pieces_of_kind = pos.pieces<B>(make_piece(us, kind));
    if (!pieces_of_kind) continue;  // the shogi family has fourteen kinds, most of them absent
    const B uncounted = count_by_shifts(pos, b, found, us, kind, pieces_of_kind & free, g.evasions);
    for (B pieces = (pieces_of_kind & ~free) | uncounted; pieces;) {
      const Point from = pop_point(pieces);
      if (from == royal) {
        const int first = list.size;
        // A plain step is judged by the attackers of its landing point once the royal has left.
        const B vacated = pos.occupied<B>() & ~bit<B>(royal);
        for (B t = add_piece_moves<I>(pos, b, list, us, kind, from, Anywhere<B>, add_if_safe); t;) {
          const Point to = pop_point(t);
          if (!attacked_with<I>(pos, b, to, opponent(us), kind, vacated | bit<B>(to), bit<B>(to))) found.add(Move(from, to));
        }
        if (b.promotion_arrival(us, kind) | b.promotion_leaving(us, kind)) [[unlikely]]
          keep_royal_safe(pos, list, first);
      } else if (g.tried & bit<B>(from)) [[unlikely]] {
        const int first = list.size;
        for (B t = add_piece_moves<I>(pos, b, list, us, kind, from, Anywhere<B>, add); t;) list.add(Move(from, pop_point(t)));
        keep_royal_safe(pos, list, first);
      } else {
        B allowed = g.evasions;
        if (g.pinned & bit<B>(from)) [[unlikely]]
          allowed &= g.line_of(from);
        if (!allowed && pos.state().ghost == NoPoint) continue;
        // Taking a ghost removes a piece that is not on the landing point: the board says.
        found.add_all(from, add_piece_moves<I>(pos, b, list, us, kind, from, allowed, [&](Move m) {
          if (m.type() == MoveType::CaptureGhost) add_if_safe(m);
          else found.add(m);
        }));
      }
    }
  }
  add_compound_moves<I>(pos, b, found);
  return g.checkers != 0;
}

// `fill(found)` with a sink that counts into `counted`, by POPCNT where the processor has it.
template <typename B, typename Fill>
void counting(const BasicBitboards<B>& b, MoveList& list, std::uint64_t& counted, Fill&& fill) {
  const auto count = [&](auto found) {
    fill(found);
    counted += found.counted;
  };
  b.popcnt() ? count(Found<true, true>{list}) : count(Found<true, false>{list});
}

}  // namespace

template <typename B>
bool generate_bitboard_legal(Position& pos, const BasicBitboards<B>& b, MoveList& list, std::uint64_t* counted) {
  return b.with_indexing([&]<SliderIndexing I>() {
    if (!counted) {
      Found<false> found{list};
      return generate_legal<I>(pos, b, found);
    }
    bool checked = false;
    counting(b, list, *counted, [&](auto& found) { checked = generate_legal<I>(pos, b, found); });
    return checked;
  });
}

template <typename B>
void generate_bitboard_moves(const Position& pos, const BasicBitboards<B>& b, MoveList& list, bool captures_only,
                             const KnownMoves<B>& known) {
  Found<false> found{list};
  b.with_indexing([&]<SliderIndexing I>() { generate<I>(pos, b, found, captures_only, B(0), known); });
}

template <typename B>
void count_bitboard_moves(const Position& pos, const BasicBitboards<B>& b, MoveList& list, B tried, std::uint64_t& counted) {
  b.with_indexing([&]<SliderIndexing I>() {
    counting(b, list, counted, [&](auto& found) { generate<I>(pos, b, found, false, tried); });
  });
}

template <typename B>
bool bitboard_attacked_past(const Position& pos, const BasicBitboards<B>& b, Point target, Side by, Kind victim_kind,
                            B lifted) {
  const B occupied = pos.occupied<B>() & ~lifted;
  return b.with_indexing([&]<SliderIndexing I>() { return attacked_with<I>(pos, b, target, by, victim_kind, occupied, B(0)); });
}

template <typename B>
bool bitboard_attacked(const Position& pos, const BasicBitboards<B>& b, Point target, Side by, Kind victim_kind) {
  return bitboard_attacked_past(pos, b, target, by, victim_kind, B(0));
}

template <typename B>
Attacker bitboard_cheapest_attacker(const Position& pos, const BasicBitboards<B>& b, Point target, Side by, Kind victim_kind,
                                    B gone, const int* worth) {
  Attacker best;
  const auto cheaper = [&](B from, Kind kind) {
    if (best.from == NoPoint || worth[kind] < worth[best.kind]) best = {pop_point(from), kind};
    return false;
  };
  const B occupied = pos.occupied<B>() & ~gone;
  b.with_indexing([&]<SliderIndexing I>() { visit_attackers_with<I>(pos, b, target, by, victim_kind, occupied, gone, cheaper); });
  return best;
}

template <typename B>
bool bitboard_royal_move_safe(const Position& pos, const BasicBitboards<B>& b, Move m) {
  const Side us = pos.side_to_move();
  const Kind kind = kind_of(pos.at(m.from()));
  const B occupied = (pos.occupied<B>() & ~bit<B>(m.from())) | bit<B>(m.to());
  return !b.with_indexing(
      [&]<SliderIndexing I>() { return attacked_with<I>(pos, b, m.to(), opponent(us), kind, occupied, bit<B>(m.to())); });
}

namespace {

// Calls f(kind, s) for each piece of `by` that could capture on `target` on an empty board and
// whose reach depends on what stands between (its kind is not Bitboards::direct).
template <typename B, typename F>
void for_each_aimed_piece(const Position& pos, const BasicBitboards<B>& b, Point target, Side by, F&& f) {
  for (Kind kind = Kind(0); kind < pos.variant().kinds(); ++kind) {
    if (b.direct(by, kind)) continue;
    for (B from = b.capturers(by, kind, target) & pos.pieces<B>(make_piece(by, kind)); from;) f(kind, pop_point(from));
  }
}

}  // namespace

template <typename B>
PointSet bitboard_exposure(const Position& pos, const BasicBitboards<B>& b, Point royal, Side them) {
  const B occupied = pos.occupied<B>(), ours = pos.occupied_by<B>(opponent(them));
  PointSet exposed;
  for_each_aimed_piece(pos, b, royal, them, [&](Kind kind, Point s) {
    const BitboardMoves<B>& m = b.moves(them, kind, s);
    if (b.slide_capture(them, kind, s) & bit<B>(royal)) {
      const B shields = b.between(s, royal) & occupied;
      if (single_point(shields) && (shields & ours)) exposed.set(first_point(shields));
    }
    for (std::uint32_t i = m.special_begin; i < m.special_end; ++i) {
      const LeapTarget& t = b.special(i);
      if (t.to == royal && (t.modes & CanCapture))
        for (int block = 0; block < t.block_count; ++block) exposed.set(t.blocks[block]);
    }
  });
  return exposed;
}

// A slide or hop goes along a line of the board (compiler/routes.h), so what stands between it and
// its target is `between`; what its leaps and hops read besides is `reads`.
template <typename B>
B bitboard_attack_lines(const Position& pos, const BasicBitboards<B>& b, Point target, Side by) {
  B lines = 0;
  for_each_aimed_piece(pos, b, target, by, [&](Kind kind, Point s) { lines |= b.between(s, target) | b.reads(by, kind, s); });
  return lines;
}

#define PALACE_BITBOARD_BACK_END(B)                                                                                          \
  template bool generate_bitboard_legal(Position&, const BasicBitboards<B>&, MoveList&, std::uint64_t*);                    \
  template void generate_bitboard_moves(const Position&, const BasicBitboards<B>&, MoveList&, bool, const KnownMoves<B>&);  \
  template void count_bitboard_moves(const Position&, const BasicBitboards<B>&, MoveList&, B, std::uint64_t&);               \
  template bool bitboard_attacked(const Position&, const BasicBitboards<B>&, Point, Side, Kind);                            \
  template bool bitboard_attacked_past(const Position&, const BasicBitboards<B>&, Point, Side, Kind, B);                    \
  template Attacker bitboard_cheapest_attacker(const Position&, const BasicBitboards<B>&, Point, Side, Kind, B, const int*); \
  template bool bitboard_royal_move_safe(const Position&, const BasicBitboards<B>&, Move);                                  \
  template PointSet bitboard_exposure(const Position&, const BasicBitboards<B>&, Point, Side);                              \
  template B bitboard_attack_lines(const Position&, const BasicBitboards<B>&, Point, Side);
PALACE_BITBOARD_BACK_END(Bitboard)
PALACE_BITBOARD_BACK_END(WideBitboard)
#undef PALACE_BITBOARD_BACK_END

}  // namespace palace
