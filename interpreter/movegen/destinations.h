// The points a piece could move to by its movement alone, walked from the compiled leap and ray
// tables: the one walk behind both move generation and the engine's mobility count.
#pragma once

#include "compiler/bitboards.h"
#include "position/position.h"

namespace palace {

// Whether none of the points a leap passes holds a piece, the board read through `at` (a point's
// piece, or NoPiece): the position's, or as an exchange leaves it.
template <typename Board>
bool path_clear(const Board& at, const Point* blocks, int count) {
  for (int b = 0; b < count; ++b)
    if (at(blocks[b])) return false;
  return true;
}
inline bool path_clear(const Position& pos, const Point* blocks, int count) {
  return path_clear([&pos](Point s) { return pos.at(s); }, blocks, count);
}

// Calls visit(to, type, extra) once per point `us`'s piece on `from` could move to, before
// promotion choices, king safety and runtime hooks: type Normal for a plain move or capture, or
// CaptureGhost, or LeaveGhost with the first point skipped as `extra` (0 otherwise), where the
// leap says so. The parts come apart rather than as a Move, so that a caller's visit sees them as
// they are known here (a packed Move hides them from the compiler: chess perft cost 2.5% more),
// and a template, so that each visit inlines. guard(to) is called for each point held by a piece of
// `us` that the piece could capture on were it an enemy's: the points it defends.
struct NoGuard {
  void operator()(Point) const {}
};
// One leap target of for_each_destination whose points to pass are empty: the bitboard back end
// lands its leaps with points to pass or a ghost to leave this way too (movegen/bitboard_moves.cpp).
template <typename Visit, typename Guard>
[[gnu::always_inline]] inline void visit_leap_landing(const Position& pos, Side us, Kind kind, const LeapTarget& t, Visit&& visit, Guard&& guard) {
  const Variant& v = pos.variant();
  const Piece occupant = pos.at(t.to);
  if (!occupant) {
    if ((t.flags & TakesGhost) && (t.modes & CanCapture) && pos.is_ghost(t.to)) {
      if (v.may_capture(kind, kind_of(pos.at(pos.state().ghost_victim)))) visit(t.to, MoveType::CaptureGhost, Point(0));
    } else if (t.modes & CanMove) {
      if (t.flags & LeavesGhost) visit(t.to, MoveType::LeaveGhost, t.blocks[0]);
      else visit(t.to, MoveType::Normal, Point(0));
    }
  } else if (t.modes & CanCapture) {
    if (side_of(occupant) == us) guard(t.to);
    else if (v.may_capture(kind, kind_of(occupant))) visit(t.to, MoveType::Normal, Point(0));
  }
}

// The pieces of `them` a piece of `kind` may capture.
template <typename B>
B capturable(const Position& pos, const BasicBitboards<B>& b, Side them, Kind kind) {
  B targets = pos.occupied_by<B>(them);
  for (std::uint32_t refused = b.refused_victims(kind); refused; refused &= refused - 1)
    targets &= ~pos.pieces<B>(make_piece(them, Kind(std::countr_zero(refused))));
  return targets;
}

// The points the hops of the piece of `side` and `kind` on `from` reach over `occupied`: along each
// line, past its screen up to and including the next piece; none along a line whose screen the
// kind may not hop over. The screen's kind is the position's: a caller's `occupied` adds at most
// the point it asks about, which screens only points past itself, so what it refuses is never
// asked about (and where the position has no piece, nothing is refused).
template <SliderIndexing I, typename B>
B hop_reach(const Position& pos, const BasicBitboards<B>& b, Side side, Kind kind, Point from, B occupied) {
  B reach = 0;
  for (const HopLine& h : b.hop_lines(side, kind, from)) {
    if (h.screen >= 0)
      if (const B screen = b.template lookup<I>(h.screen, occupied) & occupied)
        if (const Piece p = pos.at(first_point(screen)); p && (b.refused_screens(kind) >> kind_of(p) & 1)) continue;
    reach |= b.template lookup<I>(h.reach, occupied);
  }
  return reach;
}

// A piece's plain moves and captures as sets: where it may land, and the points of its own side it
// could capture on were they the other's (those it defends); and where its slides reach, the first
// piece on each line included, before what they may land on is asked.
template <typename B>
struct PlainDestinations {
  B moves, defended, slides;
};

// The walk of for_each_destination from the bitboard tables but for its plain moves and captures,
// returned as a set for the caller to walk or count: ghosts taken and special leaps (those that pass
// points or leave a ghost) are visited first. Only moves landing in `allowed` are found, ghosts
// taken aside: a legal generator's answer to a check or a pin.
template <SliderIndexing I, typename B, typename Visit, typename Guard>
[[gnu::always_inline]] inline PlainDestinations<B> bitboard_destinations(const Position& pos, const BasicBitboards<B>& b,
                                                                         Side us, Kind kind, Point from, B allowed,
                                                                         Visit&& visit, Guard&& guard) {
  const Variant& v = pos.variant();
  const B occupied = pos.occupied<B>();
  const BitboardMoves<B>& m = b.moves(us, kind, from);
  const std::uint8_t traits = b.traits(us, kind);
  const B slides = b.template slides<I>(m, occupied);
  B slide_move = slides, slide_capture = slides;
  if (traits & SlidesLandSome) [[unlikely]] {
    slide_move &= b.slide_move(us, kind, from);
    slide_capture &= b.slide_capture(us, kind, from);
  }
  B quiet = (m.leap_move | slide_move) & ~occupied;
  B reach = m.leap_capture | slide_capture;
  if (traits & Hops) [[unlikely]] {
    const B hops = hop_reach<I>(pos, b, us, kind, from, occupied);
    quiet |= hops & b.hop_move(us, kind, from) & ~occupied;
    reach |= hops & b.hop_capture(us, kind, from);
  }
  // A ghost point is taken, not moved to, by a leap that takes ghosts.
  if (pos.state().ghost != NoPoint && (traits & TakesGhosts))
    for (B g = b.takes_ghost(us, kind, from) & ~occupied; g;) {
      const Point to = pop_point(g);
      if (!pos.is_ghost(to)) continue;
      quiet &= ~bit<B>(to);
      if (v.may_capture(kind, kind_of(pos.at(pos.state().ghost_victim)))) visit(to, MoveType::CaptureGhost, Point(0));
    }
  if (traits & LeapsLookedUp) {
    if (const std::int16_t t = b.leap_lookup(us, kind, from); t >= 0) {
      const B leaps = b.template lookup<I>(t, occupied);
      quiet |= leaps & b.lookup_move(us, kind, from) & ~occupied;
      reach |= leaps & b.lookup_capture(us, kind, from);
    }
  } else {
    for (std::uint32_t s = m.special_begin; s < m.special_end; ++s)
      if (!(occupied & b.special_blocks(s)))
        visit_leap_landing(pos, us, kind, b.special(s), [&](Point to, MoveType type, Point extra) {
          if (type == MoveType::CaptureGhost || (allowed & bit<B>(to))) visit(to, type, extra);
        }, guard);
  }
  return {(quiet | (reach & capturable(pos, b, opponent(us), kind))) & allowed, reach & pos.occupied_by<B>(us), slides};
}

// for_each_destination from the bitboard tables: the same points, in another order.
template <typename B, typename Visit, typename Guard>
void for_each_bitboard_destination(const Position& pos, const BasicBitboards<B>& b, Side us, Kind kind, Point from,
                                   Visit&& visit, Guard&& guard) {
  b.with_indexing([&]<SliderIndexing I>() {
    const PlainDestinations<B> d = bitboard_destinations<I>(pos, b, us, kind, from, ~B(0), visit, guard);
    for (B t = d.moves; t;) visit(pop_point(t), MoveType::Normal, Point(0));
    for (B t = d.defended; t;) guard(pop_point(t));
  });
}

// for_each_destination from the mailbox tables, for a caller that knows the variant has no
// bitboards and so need not ask for each piece. With CapturesOnly, only captures (of a piece or a
// ghost) are visited, in the same order: a leap's empty landing is passed over before its path is
// read, and a ray's empty points are not visited.
template <bool CapturesOnly = false, typename Visit, typename Guard>
void for_each_mailbox_destination(const Position& pos, Side us, Kind kind, Point from, Visit&& visit, Guard&& guard) {
  const Variant& v = pos.variant();
  const Span leaps = v.leaps(us, kind, from);
  const auto visit_leap = [&](Point to, MoveType type, Point extra) {
    if (!CapturesOnly || type == MoveType::CaptureGhost || pos.at(to)) visit(to, type, extra);
  };
  for (std::uint32_t i = leaps.begin; i < leaps.end; ++i) {
    const LeapTarget& t = v.leap(i);
    if (CapturesOnly && !pos.at(t.to) && !(t.flags & TakesGhost)) continue;
    if (path_clear(pos, t.blocks, t.block_count)) visit_leap_landing(pos, us, kind, t, visit_leap, guard);
  }

  const Span rays = v.rays(us, kind, from);
  for (std::uint32_t i = rays.begin; i < rays.end; ++i) {
    const Ray& ray = v.ray(i);
    const RayPoint* point = v.ray_points(ray);
    const RayPoint* end = point + ray.length;
    if (ray.hop) {
      // Find the screen, then every point behind it up to and including the next piece.
      while (point < end && !pos.at(point->square)) ++point;
      if (point == end || !v.may_jump(kind, kind_of(pos.at(point->square)))) continue;
      ++point;
      if (ray.after_screen && point + ray.after_screen < end) end = point + ray.after_screen;
    }
    for (; point < end; ++point) {
      const Piece occupant = pos.at(point->square);
      if (!occupant) {
        if (!CapturesOnly && (point->modes & CanMove)) visit(point->square, MoveType::Normal, Point(0));
        continue;
      }
      if (point->modes & CanCapture) {
        if (side_of(occupant) == us) guard(point->square);
        else if (v.may_capture(kind, kind_of(occupant))) visit(point->square, MoveType::Normal, Point(0));
      }
      break;
    }
  }
}

template <typename Visit, typename Guard = NoGuard>
void for_each_destination(const Position& pos, Side us, Point from, Visit&& visit, Guard&& guard = {}) {
  const Kind kind = kind_of(pos.at(from));
  if (const Bitboards* b = pos.variant().bitboards()) for_each_bitboard_destination(pos, *b, us, kind, from, visit, guard);
  else if (const WideBitboards* w = pos.variant().wide_bitboards()) for_each_bitboard_destination(pos, *w, us, kind, from, visit, guard);
  else for_each_mailbox_destination(pos, us, kind, from, visit, guard);
}

// Calls f(index, move) for each compound move (castling) of the side to move whose right it holds
// and whose piece stands on its start: what both generators then test, each its own way.
template <typename F>
void for_each_compound_move(const Position& pos, F&& f) {
  const Side us = pos.side_to_move();
  const auto& compounds = pos.variant().compound_moves();
  for (const Variant::CompoundStart& start : pos.variant().compound_starts(us)) {
    // A castling right shared by every start of the piece (Chess960) needs the piece on this one.
    if (pos.at(start.from) != make_piece(us, start.kind)) continue;
    for (const std::uint8_t i : start.moves)
      // A right held says the partner has not moved.
      if (pos.state().rights & (1u << compounds[i].right)) f(i, compounds[i]);
  }
}

}  // namespace palace
