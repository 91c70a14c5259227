// Move generation and attack tests from the bitboard tables (compiler/bitboards.h), for the
// variants that have them: the same moves, in another order, and the same answers as the mailbox
// walk in movegen.cpp, which calls these once per position where Variant::bitboards() is set.
#pragma once

#include "compiler/bitboards.h"
#include "core/point_set.h"
#include "core/types.h"
#include "position/position.h"

namespace palace {

// The moves of the side to move's pieces by their movement (generate_pseudo_legal's first part).
void generate_bitboard_moves(const Position& pos, const Bitboards& b, MoveList& list);

// Whether a piece of `by` could capture a piece of kind `victim_kind` standing on `target`.
bool bitboard_attacked(const Position& pos, const Bitboards& b, Point target, Side by, Kind victim_kind);

// Whether a plain move `m` of the side to move's royal (no promotion, no ghost, nothing explodes,
// royals may face) leaves it out of the other side's reach: the test of leaves_royal_safe without
// making the move.
bool bitboard_royal_move_safe(const Position& pos, const Bitboards& b, Move m);

// The points whose change of occupant could expose `royal` to `them`: the points leaps aimed at it
// must pass, and each piece of the royal's side alone between it and a slider aimed at it.
PointSet bitboard_exposure(const Position& pos, const Bitboards& b, Point royal, Side them);

// movegen.cpp's: adds a move of `kind`, with every promotion choice the rules give it there.
void add_move_with_promotions(const Position& pos, MoveList& list, Side us, Kind kind, Point from, Point to);

}  // namespace palace
