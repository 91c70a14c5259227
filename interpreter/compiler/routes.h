// Where one part of a piece's movement reaches from a point, and through which points: the one
// walk of the movement geometry. The move tables are built from it, and the slow paths that
// reason about a single move (explanations, the path a runtime hook is shown) ask it the same way.
#pragma once

#include <algorithm>
#include <span>
#include <vector>

#include "compiler/variant.h"
#include "loader/rule_set.h"

namespace palace {

struct RouteStep {
  Point to;
  int direction;                   // the board direction of a step, slide or hop; -1 for a leap
  std::span<const Point> between;  // a leap's blocking points, or the points a slide or hop passes
};

// A ride's points along each of its leaps, each reached over the points its earlier leaps landed
// on: a leap with those points to pass, so that the move and attack tables need nothing else.
template <class Visit>
void for_each_ride(const Variant& v, int right, int forward, const MovePart& part, Point from, Visit&& visit) {
  for (const LeapShape& shape : part.leaps) {
    Point passed[MaxLeapBlocks + 1];
    std::size_t count = 0;
    for (Point at = from; count <= MaxLeapBlocks && (!part.range || int(count) < part.range);) {
      at = v.offset(at, shape.file * right, shape.rank * forward);
      if (at == NoPoint) break;
      visit(RouteStep{at, -1, {passed, count}});
      passed[count++] = at;
    }
  }
}

// Calls visit(RouteStep) for every point `part` reaches from `from` for `side` on the bare board,
// before zones, occupants and modes are considered: a slide's or hop's points in order along each
// direction, up to its range. A leap whose blocking point lies off the board is no route.
template <class Visit>
void for_each_route(const Variant& v, Side side, const MovePart& part, Point from, Visit&& visit) {
  const int forward = v.rules().sides[side].forward, right = v.rules().sides[side].right;
  switch (part.kind) {
    case PartKind::Step:
      for (const int d : part.directions) {
        const int dir = v.orient(d, side);
        if (const Point to = v.step(from, dir); to != NoPoint) visit(RouteStep{to, dir, {}});
      }
      break;
    case PartKind::Leap:
      if (part.rides) {
        for_each_ride(v, right, forward, part, from, visit);
        break;
      }
      for (const LeapShape& shape : part.leaps) {
        const Point to = v.offset(from, shape.file * right, shape.rank * forward);
        if (to == NoPoint) continue;
        Point blocks[MaxLeapBlocks];
        std::size_t count = 0;
        for (const auto& [file, rank] : shape.blocks) blocks[count++] = v.offset(from, file * right, rank * forward);
        if (std::find(blocks, blocks + count, NoPoint) == blocks + count) visit(RouteStep{to, -1, {blocks, count}});
      }
      break;
    case PartKind::Slide:
    case PartKind::Hop:
      for (const int d : part.directions) {
        const int dir = v.orient(d, side);
        const Span line = v.line(from, dir);
        std::uint32_t length = line.end - line.begin;
        if (part.range) length = std::min<std::uint32_t>(length, std::uint32_t(part.range));
        const Point* points = v.line_points(line);
        for (std::uint32_t i = 0; i < length; ++i) visit(RouteStep{points[i], dir, {points, i}});
      }
      break;
  }
}

// One way a part reaches `to` from `from`, with the points it passes.
struct Route {
  const MovePart* part;
  std::vector<Point> between;
};

// Every way the movement of `kind` reaches `to` from `from` for `side`, in the order its parts are
// written: what an explanation checks, and what a runtime hook is shown as the move's path.
std::vector<Route> routes_between(const Variant& v, Side side, Kind kind, Point from, Point to);

}  // namespace palace
