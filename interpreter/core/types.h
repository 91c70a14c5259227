// Vocabulary shared by every stage: points, sides, kinds, pieces and moves as small integers.
#pragma once

#include <cassert>
#include <concepts>
#include <cstdint>

namespace palace {

// Points, sides and kinds are enums in the Stockfish way: one reads as an int wherever arithmetic or
// an index needs it, at no cost, but an int becomes one only by an explicit Point(i), Side(i) or
// Kind(i), so a rank, a count or a kind cannot be passed where a point is meant, nor a point where
// a kind is.

// Boards up to 16 files by 16 ranks: 256 points and "no point" need more than a byte.
constexpr int MaxFiles = 16;
constexpr int MaxRanks = 16;
constexpr int MaxPoints = MaxFiles * MaxRanks;
enum Point : std::uint16_t { NoPoint = MaxPoints };

constexpr int SideCount = 2;
constexpr int NoSide = -1;  // a side index where none is meant (no side checked with every move)
enum Side : std::uint8_t { First, Second };
constexpr Side opponent(Side s) { return Side(s ^ 1); }

// A piece kind: its index among the variant's pieces. Kind's underlying type is int, as a bare kind
// was, so reading one, indexing by one and comparing with a count compile as before; a piece keeps
// it in five bits (make_piece).
enum Kind : int { NoKind = -1 };

// Only counting (loops over points, sides or kinds) is defined on them; any other arithmetic gives
// an int.
template <class T>
concept Counted = std::same_as<T, Point> || std::same_as<T, Side> || std::same_as<T, Kind>;
template <Counted T>
constexpr T& operator++(T& t) { return t = T(t + 1); }
template <Counted T>
constexpr T& operator--(T& t) { return t = T(t - 1); }

// A piece packs its side and kind: 0 is an empty point, otherwise (side << 5) | (kind + 1).
constexpr int MaxKinds = 31;
using Piece = std::uint8_t;
constexpr Piece NoPiece = 0;
constexpr Piece make_piece(Side s, Kind kind) { return Piece((s << 5) | (kind + 1)); }
constexpr Kind kind_of(Piece p) { return Kind((p & 31) - 1); }
constexpr Side side_of(Piece p) { return Side(p >> 5); }
constexpr int PieceCodes = 64;

// The eight unit directions a slide or step can take, as (file, rank) deltas seen from the
// first side. Index d and d ^ 4 are opposite directions.
constexpr int DirectionCount = 8;
constexpr int DirFile[DirectionCount] = {0, 1, 1, 1, 0, -1, -1, -1};
constexpr int DirRank[DirectionCount] = {1, 1, 0, -1, -1, -1, 0, 1};
constexpr int reverse_direction(int d) { return d ^ 4; }

// What a movement may do on arriving at a point: move there, capture there, or both.
enum ModeBits : std::uint8_t { CanMove = 1, CanCapture = 2 };

// A move in 32 bits: from, to and extra in 9 bits each (a point or "no square"; promotion kind + 1,
// 0 for none, or as the type says), then what kind of move it is.
enum class MoveType : std::uint8_t {
  Normal,
  Pass,
  CaptureGhost,   // lands on the point a leap skipped and removes the piece that made the leap
  LeaveGhost,     // a leap that leaves the point it skipped capturable for one ply
  Compound,       // carries a partner piece along
  Drop,           // puts a piece from the mover's hand on an empty point: from == to, extra = kind
};

class Move {
 public:
  constexpr Move() = default;
  constexpr Move(Point from, Point to, MoveType type = MoveType::Normal, std::uint32_t extra = 0)
      : bits_(std::uint32_t(from) | std::uint32_t(to) << 9 | extra << 18 | std::uint32_t(type) << 27) {
    assert(from <= NoPoint && to <= NoPoint && extra <= FieldMask);
  }
  static constexpr Move pass() { return Move(NoPoint, NoPoint, MoveType::Pass); }
  static constexpr Move promotion(Point from, Point to, Kind kind, MoveType type = MoveType::Normal) {
    return Move(from, to, type, std::uint32_t(kind + 1));
  }
  static constexpr Move drop(Kind kind, Point to) { return Move(to, to, MoveType::Drop, std::uint32_t(kind)); }

  constexpr Point from() const { return Point(bits_ & FieldMask); }
  constexpr Point to() const { return Point(bits_ >> 9 & FieldMask); }
  constexpr MoveType type() const { return MoveType(bits_ >> 27); }
  constexpr bool is_pass() const { return type() == MoveType::Pass; }
  // Kind a promotion turns the piece into, or NoKind.
  constexpr Kind promotion_kind() const { return type() == MoveType::Normal ? Kind(int(bits_ >> 18 & FieldMask) - 1) : NoKind; }
  // Kind a drop puts on the board, or NoKind.
  constexpr Kind drop_kind() const { return type() == MoveType::Drop ? Kind(bits_ >> 18 & FieldMask) : NoKind; }
  // LeaveGhost: the point left capturable. Compound: which compound move.
  constexpr int extra() const { return int(bits_ >> 18 & FieldMask); }
  constexpr std::uint32_t raw() const { return bits_; }
  constexpr bool operator==(const Move&) const = default;
  constexpr explicit operator bool() const { return bits_ != 0; }

 private:
  static constexpr std::uint32_t FieldMask = 0x1FF;
  static_assert(NoPoint <= FieldMask);
  std::uint32_t bits_ = 0;
};

// Fixed-capacity move list, so generating moves never allocates. A variant whose positions could
// hold more moves is refused when it loads, and a FEN that could, when it is read
// (Variant::most_moves), so `add` needs no bounds check. The bound is the reference engine's with
// every variant built in: games with drops on large boards (a 10x10 crazyhouse) pass 1,024. A list
// on the stack is made where the caller's depth is small (a perft's plies); the search, whose line
// is deep, keeps its lists on the heap (search/node_frames.h). The storage is left uninitialised
// and the count comes first: a list is made at every node and only its first `size` are touched.
constexpr int MaxMoves = 8192;
struct MoveList {
  int size = 0;
  union {
    Move moves[MaxMoves];  // a union member is not constructed, so not zeroed
  };
  MoveList() {}
  void add(Move m) {
    assert(size < MaxMoves);
    moves[size++] = m;
  }
  const Move* begin() const { return moves; }
  const Move* end() const { return moves + size; }
};

}  // namespace palace
