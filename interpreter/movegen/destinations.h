// The points a piece could move to by its movement alone, walked from the compiled leap and ray
// tables: the one walk behind both move generation and the engine's mobility count.
#pragma once

#include "position/position.h"

namespace palace {

inline bool path_clear(const Position& pos, const Square* blocks, int count) {
  for (int b = 0; b < count; ++b)
    if (pos.at(blocks[b])) return false;
  return true;
}

// Calls visit(Move) once per point `us`'s piece on `from` could move to, before promotion choices,
// king safety and runtime hooks: Move(from, to) for a plain move or capture, or a CaptureGhost or
// LeaveGhost move where the leap says so. A template, so that each caller's visit inlines.
template <typename Visit>
void for_each_destination(const Position& pos, Side us, Square from, Visit&& visit) {
  const Variant& v = pos.variant();
  const int kind = kind_of(pos.at(from));

  const Span leaps = v.leaps(us, kind, from);
  for (std::uint32_t i = leaps.begin; i < leaps.end; ++i) {
    const LeapTarget& t = v.leap(i);
    if (!path_clear(pos, t.blocks, t.block_count)) continue;
    const Piece occupant = pos.at(t.to);
    if (!occupant) {
      if ((t.flags & TakesGhost) && (t.modes & CanCapture) && pos.is_ghost(t.to)) {
        if (v.may_capture(kind, kind_of(pos.at(pos.state().ghost_victim)))) visit(Move(from, t.to, MoveType::CaptureGhost));
      } else if (t.modes & CanMove) {
        visit((t.flags & LeavesGhost) ? Move(from, t.to, MoveType::LeaveGhost, t.blocks[0]) : Move(from, t.to));
      }
    } else if (side_of(occupant) != us && (t.modes & CanCapture) && v.may_capture(kind, kind_of(occupant))) {
      visit(Move(from, t.to));
    }
  }

  const Span rays = v.rays(us, kind, from);
  for (std::uint32_t i = rays.begin; i < rays.end; ++i) {
    const Ray& ray = v.ray(i);
    const RayPoint* point = v.ray_points(ray);
    const RayPoint* end = point + ray.length;
    if (ray.hop) {
      // Find the screen, then every point behind it up to and including the next piece.
      while (point < end && !pos.at(point->square)) ++point;
      if (point == end || !v.may_screen(kind, kind_of(pos.at(point->square)))) continue;
      ++point;
      if (ray.after_screen && point + ray.after_screen < end) end = point + ray.after_screen;
    }
    for (; point < end; ++point) {
      const Piece occupant = pos.at(point->square);
      if (!occupant) {
        if (point->modes & CanMove) visit(Move(from, point->square));
        continue;
      }
      if (side_of(occupant) != us && (point->modes & CanCapture) && v.may_capture(kind, kind_of(occupant)))
        visit(Move(from, point->square));
      break;
    }
  }
}

}  // namespace palace
