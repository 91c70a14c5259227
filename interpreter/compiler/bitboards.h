// The bitboard back end: a variant's move tables again, as sets of points, for a board of at most
// 64 points whose pieces only step, leap and slide. Compiled from the Variant's own tables at load
// time, never from a game's name: steps and leaps become a set per point, slides a lookup indexed
// by the occupancy of their lines (PEXT where the processor has it, else a magic multiply), and
// the points a leap must pass a mask. The mailbox tables stay the reference and run everything
// else (movegen/bitboard_moves.h uses these).
#pragma once

#include <array>
#include <cstdint>
#include <map>
#include <memory>
#include <vector>

#include "compiler/variant.h"
#include "core/bitboard.h"
#include "core/types.h"

namespace palace {

// How a slide lookup turns the occupied points of its lines into an index of its table.
enum class SliderIndexing : std::uint8_t { Pext, Magic };

// The indexing this processor runs fastest: PEXT where it has BMI2.
SliderIndexing best_slider_indexing();

// Whether this processor has the POPCNT instruction.
bool processor_has_popcnt();

// The points whose occupants can stop a group of slides from one point (the last point of a line
// cannot), and where its attack sets start in Bitboards' table.
struct SliderTable {
  Bitboard mask = 0;
  Bitboard magic = 0;
  std::uint8_t shift = 63;
  std::uint32_t offset = 0;
};

// What a piece of one side and kind reaches from one point: read for every piece of every
// position generated, so kept to 24 bytes; what few kinds need is in Bitboards' other tables.
struct BitboardMoves {
  Bitboard leap_move = 0, leap_capture = 0;  // steps and leaps with no point to pass and no ghost to leave
  std::int16_t slider[2] = {-1, -1};         // its slides along files and ranks, and along diagonals
  std::uint16_t special_begin = 0, special_end = 0;  // its other leaps, into Bitboards::special
};

// What a kind of one side has beyond plain steps, leaps and slides.
enum KindTraits : std::uint8_t {
  TakesGhosts = 1,         // a step or leap of it takes a ghost (Bitboards::takes_ghost)
  SlidesLandSome = 2,      // its slides may not land, or not capture, everywhere they pass
  SpecialCaptures = 4,     // a leap of it that passes points may capture
};

// One direction of a kind's steps as a shift of the whole set of its pieces: from every point of
// `from` the piece reaches the point `shift` further on (in point numbers) with `modes`, where the
// point `block` further on is empty (0: none to pass). Perft's last ply counts a kind's moves so,
// all its free pieces at once (movegen/bitboard_moves.cpp).
struct ShiftStep {
  Bitboard from = 0;
  std::int8_t shift = 0, block = 0;
  std::uint8_t modes = 0;
  bool promotes = false;  // its moves may promote (a step that leaves a ghost never does)
};
// More steps than this and counting piece by piece costs less (a knight's eight, a king's); a
// pawn that double-steps from two ranks has five: a step, two captures and the two double steps.
constexpr int MaxShiftSteps = 6;

class Bitboards {
 public:
  // The tables of `v`, or null where one of its features is not theirs: a board over 64 points, a
  // hop, a runtime hook, two slides of one piece crossing, a leap landing where a slide does.
  static std::unique_ptr<const Bitboards> compile(const Variant& v, SliderIndexing indexing);

  SliderIndexing indexing() const { return indexing_; }
  // Whether a move's legality follows from the checks and pins of the position before it: no
  // capture explodes and royals may face, so a move endangers its own royal only by opening a line
  // or a leap to it, by leaving a check unanswered, or by the royal's own step
  // (movegen/bitboard_moves.h's generate_bitboard_legal).
  bool legal_by_pins() const { return legal_by_pins_; }
  // Whether this processor counts points with one instruction (core/bitboard.h's count_points).
  bool popcnt() const { return popcnt_; }
  const BitboardMoves& moves(Side side, Kind kind, Point s) const { return moves_[cell(side, kind, s)]; }
  const LeapTarget& special(std::uint32_t i) const { return specials_[i]; }
  // The points special(i) must find empty.
  Bitboard special_blocks(std::uint32_t i) const { return special_blocks_[i]; }
  std::uint8_t traits(Side side, Kind kind) const { return traits_[std::size_t(side) * kinds_ + kind]; }
  // Its steps and leaps of moves() that take a ghost lying there (TakesGhosts).
  Bitboard takes_ghost(Side side, Kind kind, Point s) const { return takes_ghost_[cell(side, kind, s)]; }
  // Where its slides may land moving, and capturing (SlidesLandSome; else wherever they reach).
  Bitboard slide_move(Side side, Kind kind, Point s) const { return slide_move_[cell(side, kind, s)]; }
  Bitboard slide_capture(Side side, Kind kind, Point s) const { return slide_capture_[cell(side, kind, s)]; }

  // The points the slides of `m` reach over `occupied`, the first piece on each line included.
  template <SliderIndexing I>
  Bitboard slides(const BitboardMoves& m, Bitboard occupied) const {
    Bitboard reach = 0;
    for (const std::int16_t t : m.slider)
      if (t >= 0) reach |= attacks_[index<I>(sliders_[std::size_t(t)], occupied)];
    return reach;
  }
  // The points from which a piece of `by` and `kind` could capture on `target` on an empty board;
  // exact whatever the occupants where the kind only steps and leaps over nothing (`direct`).
  Bitboard capturers(Side by, Kind kind, Point target) const { return capturers_[(std::size_t(by) * kinds_ + kind) * BitboardPoints + target]; }
  bool direct(Side by, Kind kind) const { return direct_[std::size_t(by) * kinds_ + kind]; }
  // Kinds (a bit each) that `kind` may not capture.
  std::uint32_t refused_victims(Kind kind) const { return refused_[std::size_t(kind)]; }
  // Where a piece of `side` and `kind` may promote on arriving, and from where on leaving.
  Bitboard promotion_arrival(Side side, Kind kind) const { return promotion_arrival_[std::size_t(side) * kinds_ + kind]; }
  Bitboard promotion_leaving(Side side, Kind kind) const { return promotion_leaving_[std::size_t(side) * kinds_ + kind]; }
  // The points of promotion_arrival where the piece must promote.
  Bitboard promotion_forced(Side side, Kind kind) const { return promotion_forced_[std::size_t(side) * kinds_ + kind]; }
  // All the moves of a piece of `side` and `kind` as at most MaxShiftSteps shifts; none where its
  // moves are not so simple: it slides, captures by a leap that passes a point, promotes on
  // leaving or only to a lost kind.
  const ShiftStep* shift_steps(Side side, Kind kind) const { return shift_steps_[std::size_t(side) * kinds_ + kind].data(); }
  int shift_step_count(Side side, Kind kind) const { return shift_step_counts_[std::size_t(side) * kinds_ + kind]; }
  // The kinds (a bit each) the rule file calls royal, whether or not check protects them.
  std::uint32_t royal_kinds() const { return royal_kinds_; }
  // Variant::drop_points as a set.
  Bitboard drop_points(Side side, Kind kind) const { return drop_points_[std::size_t(side) * kinds_ + kind]; }
  // The points Variant::compound_moves()[i] needs empty.
  Bitboard compound_empty(std::size_t i) const { return compound_empty_[i]; }
  // The points a slide passes from `from` to `to` along a line, none where no line joins them.
  Bitboard between(Point from, Point to) const { return between_[from * BitboardPoints + to]; }

 private:
  std::size_t cell(Side side, Kind kind, Point s) const { return (std::size_t(side) * kinds_ + kind) * BitboardPoints + s; }
  template <SliderIndexing I>
  static std::size_t index(const SliderTable& t, Bitboard occupied);
  std::int16_t add_slider(const std::vector<std::vector<Point>>& lines);

  SliderIndexing indexing_ = SliderIndexing::Magic;
  bool legal_by_pins_ = false;
  bool popcnt_ = false;
  int kinds_ = 0;
  std::vector<BitboardMoves> moves_;
  std::vector<std::uint8_t> traits_;
  std::vector<Bitboard> takes_ghost_, slide_move_, slide_capture_;
  std::vector<LeapTarget> specials_;
  std::vector<SliderTable> sliders_;
  std::vector<Bitboard> attacks_;
  std::vector<Bitboard> capturers_;
  std::vector<std::uint8_t> direct_;
  std::vector<std::uint32_t> refused_;
  std::uint32_t royal_kinds_ = 0;
  void compile_shift_steps(const Variant& v, Side side, Kind kind);

  std::vector<Bitboard> promotion_arrival_, promotion_leaving_, promotion_forced_, drop_points_;
  std::vector<std::array<ShiftStep, MaxShiftSteps>> shift_steps_;
  std::vector<std::uint8_t> shift_step_counts_;
  std::vector<Bitboard> special_blocks_;
  std::vector<Bitboard> compound_empty_;
  std::vector<Bitboard> between_;
  std::map<std::vector<std::vector<Point>>, std::int16_t> slider_of_lines_;  // while compiling
};

// Parallel bit extract, as the BMI2 instruction does; only called where the processor has it.
inline Bitboard pext(Bitboard value, Bitboard mask) {
#if defined(__x86_64__)
  Bitboard result;
  asm("pextq %2, %1, %0" : "=r"(result) : "r"(value), "r"(mask));
  return result;
#else
  (void)value, (void)mask;
  return 0;  // unreachable: best_slider_indexing() never chooses PEXT here
#endif
}

template <SliderIndexing I>
std::size_t Bitboards::index(const SliderTable& t, Bitboard occupied) {
  if constexpr (I == SliderIndexing::Pext) return t.offset + pext(occupied, t.mask);
  return t.offset + std::size_t(((occupied & t.mask) * t.magic) >> t.shift);
}

}  // namespace palace
