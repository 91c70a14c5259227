#include "movegen/bitboard_moves.h"

#include "movegen/destinations.h"

namespace palace {

namespace {

template <SliderIndexing I>
void generate(const Position& pos, const Bitboards& b, MoveList& list) {
  const Variant& v = pos.variant();
  const Side us = pos.side_to_move();
  // Kind by kind, so that a piece's tables are found without reading the board.
  for (Kind kind = Kind(0); kind < v.kinds(); ++kind)
    for (Bitboard pieces = pos.pieces(make_piece(us, kind)); pieces;) {
      const Point from = pop_point(pieces);
      const Bitboard promoting = (b.promotion_leaving(us, kind) & bit(from)) ? ~Bitboard(0) : b.promotion_arrival(us, kind);
      for_each_bitboard_destination<I>(pos, b, us, kind, from, [&](Point to, MoveType type, Point extra) {
        if (type != MoveType::Normal) list.add(Move(from, to, type, extra));
        else if (promoting & bit(to)) add_move_with_promotions(pos, list, us, kind, from, to);
        else list.add(Move(from, to));
      }, NoGuard{});
    }
}

// Whether the piece of `by` and `kind` on `from` could capture on `target`, its slides and its
// leaps that pass points stopped by the pieces on the board.
template <SliderIndexing I>
bool captures_on(const Bitboards& b, Side by, Kind kind, Point from, Point target, Bitboard occupied) {
  const BitboardMoves& m = b.moves(by, kind, from);
  if ((m.leap_capture | (b.slides<I>(m, occupied) & b.slide_capture(by, kind, from))) & bit(target)) return true;
  if (b.traits(by, kind) & SpecialCaptures)
    for (std::uint32_t s = m.special_begin; s < m.special_end; ++s) {
      const LeapTarget& t = b.special(s);
      if (t.to == target && (t.modes & CanCapture) && !(occupied & b.special_blocks(s))) return true;
    }
  return false;
}

// Whether a piece of `by` other than on `taken` could capture on `target` with `occupied` occupied.
template <SliderIndexing I>
bool attacked_with(const Position& pos, const Bitboards& b, Point target, Side by, Kind victim_kind, Bitboard occupied,
                   Bitboard taken) {
  const Variant& v = pos.variant();
  for (Kind kind = Kind(0); kind < v.kinds(); ++kind) {
    Bitboard from = b.capturers(by, kind, target) & pos.pieces(make_piece(by, kind)) & ~taken;
    if (!from || !v.may_capture(kind, victim_kind)) continue;
    if (b.direct(by, kind)) return true;
    while (from)
      if (captures_on<I>(b, by, kind, pop_point(from), target, occupied)) return true;
  }
  return false;
}

}  // namespace

void generate_bitboard_moves(const Position& pos, const Bitboards& b, MoveList& list) {
  if (b.indexing() == SliderIndexing::Pext) generate<SliderIndexing::Pext>(pos, b, list);
  else generate<SliderIndexing::Magic>(pos, b, list);
}

bool bitboard_attacked(const Position& pos, const Bitboards& b, Point target, Side by, Kind victim_kind) {
  const Bitboard occupied = pos.occupied();
  return b.indexing() == SliderIndexing::Pext ? attacked_with<SliderIndexing::Pext>(pos, b, target, by, victim_kind, occupied, 0)
                                              : attacked_with<SliderIndexing::Magic>(pos, b, target, by, victim_kind, occupied, 0);
}

bool bitboard_royal_move_safe(const Position& pos, const Bitboards& b, Move m) {
  const Side us = pos.side_to_move();
  const Kind kind = kind_of(pos.at(m.from()));
  const Bitboard occupied = (pos.occupied() & ~bit(m.from())) | bit(m.to());
  return b.indexing() == SliderIndexing::Pext
             ? !attacked_with<SliderIndexing::Pext>(pos, b, m.to(), opponent(us), kind, occupied, bit(m.to()))
             : !attacked_with<SliderIndexing::Magic>(pos, b, m.to(), opponent(us), kind, occupied, bit(m.to()));
}

PointSet bitboard_exposure(const Position& pos, const Bitboards& b, Point royal, Side them) {
  const Variant& v = pos.variant();
  const Bitboard occupied = pos.occupied(), ours = pos.occupied_by(opponent(them));
  PointSet exposed;
  for (Kind kind = Kind(0); kind < v.kinds(); ++kind) {
    if (b.direct(them, kind)) continue;
    for (Bitboard from = b.capturers(them, kind, royal) & pos.pieces(make_piece(them, kind)); from;) {
      const Point s = pop_point(from);
      const BitboardMoves& m = b.moves(them, kind, s);
      if (b.slide_capture(them, kind, s) & bit(royal)) {
        const Bitboard shields = b.between(s, royal) & occupied;
        if (std::has_single_bit(shields) && (shields & ours)) exposed.set(std::countr_zero(shields));
      }
      for (std::uint32_t i = m.special_begin; i < m.special_end; ++i) {
        const LeapTarget& t = b.special(i);
        if (t.to == royal && (t.modes & CanCapture))
          for (int block = 0; block < t.block_count; ++block) exposed.set(t.blocks[block]);
      }
    }
  }
  return exposed;
}

}  // namespace palace
