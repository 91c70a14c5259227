// A set of points of a board, a bit per point: a word of 64 bits for a board of at most 64 points
// (the chess family), two for one of at most 128 (shogi, capablanca, grand). What the bitboard back
// end (compiler/bitboards.h) reads and Position keeps for it; every helper here serves both widths.
#pragma once

#include <bit>
#include <cstdint>

#include "core/types.h"

namespace palace {

using Bitboard = std::uint64_t;
__extension__ typedef unsigned __int128 WideBitboard;  // GCC's and Clang's; -Wpedantic asks to be told

// The points a set of type B can hold.
template <typename B>
constexpr int PointsIn = int(sizeof(B) * 8);
constexpr int BitboardPoints = PointsIn<Bitboard>;

// The bit of `s`, none for a point the set cannot hold.
template <typename B = Bitboard>
constexpr B bit(Point s) {
  return s < PointsIn<B> ? B(1) << s : B(0);
}

// The set's two 64-bit halves (a Bitboard's high half is empty).
template <typename B>
constexpr std::uint64_t low_word(B b) {
  return std::uint64_t(b);
}
template <typename B>
constexpr std::uint64_t high_word(B b) {
  if constexpr (PointsIn<B> > 64) return std::uint64_t(b >> 64);
  (void)b;
  return 0;
}

// Whether `set` holds the point `s`, a point of the board: a test of one word, where `set & bit(s)`
// would build a two-word mask.
template <typename B>
constexpr bool holds(B set, Point s) {
  if constexpr (PointsIn<B> > 64) return ((s < 64 ? low_word(set) >> s : high_word(set) >> (s - 64)) & 1) != 0;
  return (set >> s & 1) != 0;
}

// The lowest point of a non-empty set.
template <typename B>
inline Point first_point(B b) {
  if constexpr (PointsIn<B> > 64)
    if (!low_word(b)) return Point(64 + std::countr_zero(high_word(b)));
  return Point(std::countr_zero(low_word(b)));
}

// The lowest point of a non-empty set, removed from it.
template <typename B>
inline Point pop_point(B& b) {
  const Point s = first_point(b);
  b &= b - 1;
  return s;
}

// Whether the set holds exactly one point.
template <typename B>
constexpr bool single_point(B b) {
  return b && !(b & (b - 1));
}

// The number of points in a word. A portable build calls a library routine for std::popcount (chess
// perft spent 14% of its time there), so where the caller knows the processor has the POPCNT
// instruction (Bitboards::popcnt) it asks for it.
template <bool Popcnt>
inline int count_word(std::uint64_t b) {
#if defined(__x86_64__)
  if constexpr (Popcnt) {
    std::uint64_t n;
    asm("popcntq %1, %0" : "=r"(n) : "r"(b));
    return int(n);
  }
#endif
  return std::popcount(b);
}

// The number of points in a set.
template <bool Popcnt, typename B>
inline int count_points(B b) {
  if constexpr (PointsIn<B> > 64) return count_word<Popcnt>(low_word(b)) + count_word<Popcnt>(high_word(b));
  return count_word<Popcnt>(low_word(b));
}

}  // namespace palace
