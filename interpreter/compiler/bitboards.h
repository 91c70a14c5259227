// The bitboard back end: a variant's move tables again, as sets of points, for a board of at most
// 64 points (a set is one word, Bitboard) or 128 (two, WideBitboard) whose pieces step, leap, slide
// and hop. Compiled from the Variant's own tables at load time, never from a game's name: steps
// and leaps become a set per point, slides and hops a lookup indexed by the occupancy of their
// lines (PEXT where the processor has it, else a magic multiply), and the points a leap must pass a
// mask. The mailbox tables stay the reference and run everything else (movegen/bitboard_moves.h
// uses these).
#pragma once

#include <array>
#include <cstdint>
#include <map>
#include <memory>
#include <span>
#include <vector>

#include "compiler/variant.h"
#include "core/bitboard.h"
#include "core/types.h"

namespace palace {

// N copies of `value`: a table member's default.
template <int N>
constexpr std::array<std::int16_t, N> filled(std::int16_t value) {
  std::array<std::int16_t, N> a{};
  a.fill(value);
  return a;
}

// How a lookup's piece goes along each of its lines: up to the first piece, past the first piece
// (the screen) up to the next, or to the line's last point if the others are empty.
enum class LineWalk : std::uint8_t { Slide, Hop, Leap };

// How a slide lookup turns the occupied points of its lines into an index of its table.
enum class SliderIndexing : std::uint8_t { Pext, Magic };

// The indexing this processor runs fastest: PEXT where it has BMI2.
SliderIndexing best_slider_indexing();

// Whether this processor has the POPCNT instruction.
bool processor_has_popcnt();

// The points whose occupants can stop a group of slides, screen or stop a hop, or block a leap,
// from one point (the last point of a line cannot), and where its attack sets start in Bitboards'
// table. Two words are indexed as one: PEXT of each, the high one's bits above the low one's; or
// each word's own magic multiply, folded.
template <typename B>
struct SliderTable {
  B mask = 0;
  B magic = 0;
  std::uint8_t shift = 63;    // magic indexing: the index is the product's top 64 - shift bits
  std::uint8_t low_bits = 0;  // PEXT of two words: the bits of the mask's low word
  std::uint32_t offset = 0;
};

// The lookups a piece's slides from one point take: lines of opposite directions (DirFile, DirRank)
// share one, and on a board of one word so do files and ranks, and the two diagonals. A board of
// two words looks each line up alone: a rook's files and ranks together on a grand board would
// index 16 points, a megabyte of table for each corner.
template <typename B>
constexpr int SliderGroups = PointsIn<B> > 64 ? 4 : 2;

// What a piece of one side and kind reaches from one point: read for every piece of every
// position generated, so kept to 24 bytes for a board of one word; what few kinds need is in
// Bitboards' other tables.
template <typename B>
struct BitboardMoves {
  B leap_move = 0, leap_capture = 0;  // steps and leaps with no point to pass and no ghost to leave
  std::array<std::int16_t, SliderGroups<B>> slider = filled<SliderGroups<B>>(-1);  // its slides, a lookup a group (-1: none)
  std::uint16_t special_begin = 0, special_end = 0;  // its other leaps, into Bitboards::special
};

// What a kind of one side has beyond plain steps, leaps and slides.
enum KindTraits : std::uint8_t {
  TakesGhosts = 1,         // a step or leap of it takes a ghost (Bitboards::takes_ghost)
  SlidesLandSome = 2,      // its slides may not land, or not capture, everywhere they pass
  SpecialCaptures = 4,     // a leap of it that passes points may capture
  Hops = 8,                // it hops (Bitboards::hop_lines)
  LeapsLookedUp = 16,      // its special leaps pass points, leave no ghost: Bitboards::leap_lookup
  PlainOnly = 32,          // every move of it is a plain move or capture of the sets: no ghost, no
                           // leap listed apart, no promotion
};

// One line of a piece's hops from a point: the lookup of where it lands over the line's occupants,
// and, where its kind may not hop over some kinds (Bitboards::refused_screens), the lookup of the
// line's slides, whose first piece met is the screen (-1: none).
struct HopLine {
  std::int16_t reach = -1, screen = -1;
};

// One direction of a kind's steps as a shift of the whole set of its pieces: from every point of
// `from` the piece reaches the point `shift` further on (in point numbers) with `modes`, where the
// point `block` further on is empty (0: none to pass). Perft's last ply counts a kind's moves so,
// all its free pieces at once (movegen/bitboard_moves.cpp).
template <typename B>
struct ShiftStep {
  B from = 0;
  std::int8_t shift = 0, block = 0;
  std::uint8_t modes = 0;
};
// More steps than this and counting piece by piece costs less (a knight's eight, a king's); a
// pawn that double-steps from two ranks has five: a step, two captures and the two double steps.
constexpr int MaxShiftSteps = 6;

// Bitboards, the tables of a board of one word, and WideBitboards, of two (compiler/variant.h).
template <typename B>
class BasicBitboards {
 public:
  // The tables of `v`, or null where one of its features is not theirs: a board over PointsIn<B>
  // points, a runtime hook, two slides or two hops of one piece along one line, a leap landing where
  // a slide or a hop does.
  static std::unique_ptr<const BasicBitboards> compile(const Variant& v, SliderIndexing indexing);

  SliderIndexing indexing() const { return indexing_; }
  // `f.template operator()<I>()` with this table's indexing as I: each caller's loop is compiled
  // once for each indexing, so that no lookup asks which.
  template <typename F>
  [[gnu::always_inline]] decltype(auto) with_indexing(F&& f) const {
    if (indexing_ == SliderIndexing::Pext) return f.template operator()<SliderIndexing::Pext>();
    return f.template operator()<SliderIndexing::Magic>();
  }
  // Whether a move's legality follows from the checks and pins of the position before it: no
  // capture explodes, royals may face and no piece hops (a piece put between a hopper and the royal
  // checks it), so a move endangers its own royal only by opening a line or a leap to it, by leaving
  // a check unanswered, or by the royal's own step (movegen/bitboard_moves.h's
  // generate_bitboard_legal).
  bool legal_by_pins() const { return legal_by_pins_; }
  // Whether this processor counts points with one instruction (core/bitboard.h's count_points).
  bool popcnt() const { return popcnt_; }
  // The number of points in `set`, by that instruction where the processor has it.
  int count(B set) const { return popcnt_ ? count_points<true>(set) : count_points<false>(set); }
  const BitboardMoves<B>& moves(Side side, Kind kind, Point s) const { return moves_[cell(side, kind, s)]; }
  // Its special leaps, in order. Where the kind's LeapsLookedUp, the generator and the attack test
  // read leap_lookup() instead; the legality tests still read these for the points each passes.
  const LeapTarget& special(std::uint32_t i) const { return specials_[i]; }
  // The points special(i) must find empty.
  B special_blocks(std::uint32_t i) const { return special_blocks_[i]; }
  std::uint8_t traits(Side side, Kind kind) const { return traits_[std::size_t(side) * kinds_ + kind]; }
  // Its steps and leaps of moves() that take a ghost lying there (TakesGhosts).
  B takes_ghost(Side side, Kind kind, Point s) const { return takes_ghost_[cell(side, kind, s)]; }
  // Where its slides may land moving, and capturing (SlidesLandSome; else wherever they reach).
  B slide_move(Side side, Kind kind, Point s) const { return slide_move_[cell(side, kind, s)]; }
  B slide_capture(Side side, Kind kind, Point s) const { return slide_capture_[cell(side, kind, s)]; }
  // Where its special leaps land over the pieces on the points they pass (LeapsLookedUp): a lookup
  // (-1: none), and where they may land moving, and capturing.
  std::int16_t leap_lookup(Side side, Kind kind, Point s) const { return leap_lookup_[cell(side, kind, s)]; }
  B lookup_move(Side side, Kind kind, Point s) const { return lookup_move_[cell(side, kind, s)]; }
  B lookup_capture(Side side, Kind kind, Point s) const { return lookup_capture_[cell(side, kind, s)]; }
  // The points besides its slides' reach whose occupants can change where a piece of `side` and
  // `kind` on `s` lands: its leaps' landings and the points they pass, and its hops' lines. With the
  // slides' reach over a board, every point a walk of its destinations reads there (the
  // evaluation's memo, search/eval.h).
  B reads(Side side, Kind kind, Point s) const { return reads_[cell(side, kind, s)]; }
  // Whether a kind of some side hops: the mailbox walk then says which points a move exposes.
  bool hops() const { return hops_; }
  // The lines of its hops (Hops), and where they may land moving, and capturing.
  std::span<const HopLine> hop_lines(Side side, Kind kind, Point s) const {
    const Span span = hop_spans_[cell(side, kind, s)];
    return {hop_lines_.data() + span.begin, span.end - span.begin};
  }
  B hop_move(Side side, Kind kind, Point s) const { return hop_move_[cell(side, kind, s)]; }
  B hop_capture(Side side, Kind kind, Point s) const { return hop_capture_[cell(side, kind, s)]; }
  // Kinds (a bit each) that `kind` may not hop over.
  std::uint32_t refused_screens(Kind kind) const { return refused_screens_[std::size_t(kind)]; }

  // Where a slide or hop lookup's attack set for the occupied points `occupied` is in the table.
  template <SliderIndexing I>
  static std::size_t slider_index(const SliderTable<B>& t, B occupied);
  // The attack set of lookup `t` (a BitboardMoves::slider, a HopLine's, a leap_lookup) over `occupied`.
  template <SliderIndexing I>
  B lookup(std::int16_t t, B occupied) const { return attacks_[slider_index<I>(sliders_[std::size_t(t)], occupied)]; }
  // The points the slides of `m` reach over `occupied`, the first piece on each line included.
  template <SliderIndexing I>
  B slides(const BitboardMoves<B>& m, B occupied) const {
    B reach = 0;
    for (const std::int16_t t : m.slider)
      if (t >= 0) reach |= lookup<I>(t, occupied);
    return reach;
  }
  // The points from which a piece of `by` and `kind` could capture on `target` on an empty board;
  // exact whatever the occupants where the kind only steps and leaps over nothing (`direct`).
  B capturers(Side by, Kind kind, Point target) const { return capturers_[(std::size_t(by) * kinds_ + kind) * PointsIn<B> + target]; }
  bool direct(Side by, Kind kind) const { return direct_[std::size_t(by) * kinds_ + kind]; }
  // Kinds (a bit each) that `kind` may not capture.
  std::uint32_t refused_victims(Kind kind) const { return refused_[std::size_t(kind)]; }
  // Where a piece of `side` and `kind` may promote on arriving, and from where on leaving.
  B promotion_arrival(Side side, Kind kind) const { return promotion_arrival_[std::size_t(side) * kinds_ + kind]; }
  B promotion_leaving(Side side, Kind kind) const { return promotion_leaving_[std::size_t(side) * kinds_ + kind]; }
  // The points of promotion_arrival where the piece must promote.
  B promotion_forced(Side side, Kind kind) const { return promotion_forced_[std::size_t(side) * kinds_ + kind]; }
  // All the moves of a piece of `side` and `kind` as at most MaxShiftSteps shifts; none where its
  // moves are not so simple: it slides, captures by a leap that passes a point, promotes on
  // leaving or only to a lost kind.
  const ShiftStep<B>* shift_steps(Side side, Kind kind) const { return shift_steps_[std::size_t(side) * kinds_ + kind].data(); }
  int shift_step_count(Side side, Kind kind) const { return shift_step_counts_[std::size_t(side) * kinds_ + kind]; }
  // The kinds (a bit each) the rule file calls royal, whether or not check protects them.
  std::uint32_t royal_kinds() const { return royal_kinds_; }
  // Variant::drop_points as a set.
  B drop_points(Side side, Kind kind) const { return drop_points_[std::size_t(side) * kinds_ + kind]; }
  // The points Variant::compound_moves()[i] needs empty.
  B compound_empty(std::size_t i) const { return compound_empty_[i]; }
  // The points a slide passes from `from` to `to` along a line, none where no line joins them.
  B between(Point from, Point to) const { return between_[from * PointsIn<B> + to]; }

 private:
  std::size_t cell(Side side, Kind kind, Point s) const { return (std::size_t(side) * kinds_ + kind) * PointsIn<B> + s; }
  // The lookup of slides along `lines`, of hops along them landing at most `after_screen` points past
  // their screen (0: anywhere), or of leaps each to its line's last point over the points before it;
  // -1 where the table is full.
  std::int16_t add_lookup(const std::vector<std::vector<Point>>& lines, LineWalk walk = LineWalk::Slide, int after_screen = 0);

  SliderIndexing indexing_ = SliderIndexing::Magic;
  bool legal_by_pins_ = false;
  bool popcnt_ = false;
  int kinds_ = 0;
  std::vector<BitboardMoves<B>> moves_;
  std::vector<std::uint8_t> traits_;
  std::vector<B> takes_ghost_, slide_move_, slide_capture_, reads_;
  bool hops_ = false;
  std::vector<Span> hop_spans_;
  std::vector<HopLine> hop_lines_;
  std::vector<B> hop_move_, hop_capture_;
  std::vector<std::int16_t> leap_lookup_;
  std::vector<B> lookup_move_, lookup_capture_;
  std::vector<std::uint32_t> refused_screens_;
  std::vector<LeapTarget> specials_;
  std::vector<SliderTable<B>> sliders_;
  std::vector<B> attacks_;
  std::vector<B> capturers_;
  std::vector<std::uint8_t> direct_;
  std::vector<std::uint32_t> refused_;
  std::uint32_t royal_kinds_ = 0;
  void compile_shift_steps(const Variant& v, Side side, Kind kind);
  bool look_up_leaps(Side side, Kind kind);

  std::vector<B> promotion_arrival_, promotion_leaving_, promotion_forced_, drop_points_;
  std::vector<std::array<ShiftStep<B>, MaxShiftSteps>> shift_steps_;
  std::vector<std::uint8_t> shift_step_counts_;
  std::vector<B> special_blocks_;
  std::vector<B> compound_empty_;
  std::vector<B> between_;
  // While compiling: the lookup of each set of lines, slides (-1), leaps (-2) or hops (their after_screen).
  std::map<std::pair<int, std::vector<std::vector<Point>>>, std::int16_t> lookup_of_lines_;
};

// Parallel bit extract, as the BMI2 instruction does; only called where the processor has it.
inline std::uint64_t pext(std::uint64_t value, std::uint64_t mask) {
#if defined(__x86_64__)
  std::uint64_t result;
  asm("pextq %2, %1, %0" : "=r"(result) : "r"(value), "r"(mask));
  return result;
#else
  (void)value, (void)mask;
  return 0;  // unreachable: best_slider_indexing() never chooses PEXT here
#endif
}

template <typename B>
template <SliderIndexing I>
std::size_t BasicBitboards<B>::slider_index(const SliderTable<B>& t, B occupied) {
  if constexpr (I == SliderIndexing::Pext) {
    std::size_t i = pext(low_word(occupied), low_word(t.mask));
    if constexpr (PointsIn<B> > 64) i |= std::size_t(pext(high_word(occupied), high_word(t.mask))) << t.low_bits;
    return t.offset + i;
  }
  const B stops = occupied & t.mask;
  std::uint64_t product = low_word(stops) * low_word(t.magic);
  if constexpr (PointsIn<B> > 64) product ^= high_word(stops) * high_word(t.magic);
  return t.offset + std::size_t(product >> t.shift);
}

extern template class BasicBitboards<Bitboard>;
extern template class BasicBitboards<WideBitboard>;

}  // namespace palace
