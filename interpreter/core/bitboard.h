// A set of points of a board of at most 64 points, a bit per point: what the bitboard back end
// (compiler/bitboards.h) reads and Position keeps for it.
#pragma once

#include <bit>
#include <cstdint>

#include "core/types.h"

namespace palace {

using Bitboard = std::uint64_t;
constexpr int BitboardPoints = 64;

// The bit of `s`, none for a point a bitboard cannot hold.
constexpr Bitboard bit(Point s) { return s < BitboardPoints ? Bitboard(1) << s : 0; }

// The lowest point of a non-empty set, removed from it.
inline Point pop_point(Bitboard& b) {
  const Point s = Point(std::countr_zero(b));
  b &= b - 1;
  return s;
}

// The number of points in a set. A portable build calls a library routine for std::popcount (chess
// perft spent 14% of its time there), so where the caller knows the processor has the POPCNT
// instruction (Bitboards::popcnt) it asks for it.
template <bool Popcnt>
inline int count_points(Bitboard b) {
#if defined(__x86_64__)
  if constexpr (Popcnt) {
    Bitboard n;
    asm("popcntq %1, %0" : "=r"(n) : "r"(b));
    return int(n);
  }
#endif
  return std::popcount(b);
}

}  // namespace palace
