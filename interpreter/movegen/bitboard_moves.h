// Move generation and attack tests from the bitboard tables (compiler/bitboards.h), for the
// variants that have them: the same moves, in another order, and the same answers as the mailbox
// walk in movegen.cpp, which calls these once per position where Variant::bitboards() or
// Variant::wide_bitboards() is set. Each serves both widths (B: Bitboard or WideBitboard).
#pragma once

#include "compiler/bitboards.h"
#include "core/point_set.h"
#include "core/types.h"
#include "movegen/movegen.h"
#include "position/position.h"

namespace palace {

// The moves of the side to move's pieces by their movement (generate_pseudo_legal's first part).
// With `captures_only`, the plain moves that neither capture nor may promote are left out. The
// pieces `known` gives are not walked again.
template <typename B>
void generate_bitboard_moves(const Position& pos, const BasicBitboards<B>& b, MoveList& list, bool captures_only = false,
                             const KnownMoves<B>& known = {});

// generate_bitboard_moves on perft's last ply where a LegalityTest judges the moves (Bitboards::
// legal_by_pins is false): the plain moves that neither leave nor land on a point of `tried` (the
// royal's and those a move could expose it by) need no trial, and are added to `counted`; every
// other move is listed, for the test.
template <typename B>
void count_bitboard_moves(const Position& pos, const BasicBitboards<B>& b, MoveList& list, B tried, std::uint64_t& counted);

// The same moves less those that leave the mover's royal attacked, in the same order, where
// Bitboards::legal_by_pins: found from the checks and pins of the position, not by making each
// move. Only ghost captures, the royal's moves other than plain steps, and the moves of a piece
// standing on a point a leap aimed at the royal must pass are still tried on the board. Where
// `counted` is given, the plain moves are added to it instead of listed (perft's last ply). Returns
// whether the side to move is in check.
template <typename B>
bool generate_bitboard_legal(Position& pos, const BasicBitboards<B>& b, MoveList& list, std::uint64_t* counted = nullptr);

// Whether a piece of `by` could capture a piece of kind `victim_kind` standing on `target`.
template <typename B>
bool bitboard_attacked(const Position& pos, const BasicBitboards<B>& b, Point target, Side by, Kind victim_kind);

// The same with the points of `lifted` empty.
template <typename B>
bool bitboard_attacked_past(const Position& pos, const BasicBitboards<B>& b, Point target, Side by, Kind victim_kind,
                            B lifted);

// cheapest_attacker (movegen.h) from the tables, the points of `gone` emptied.
template <typename B>
Attacker bitboard_cheapest_attacker(const Position& pos, const BasicBitboards<B>& b, Point target, Side by, Kind victim_kind,
                                    B gone, const int* worth);

// Whether a plain move `m` of the side to move's royal (no promotion, no ghost, nothing explodes,
// royals may come to face) leaves it out of the other side's reach: the test of leaves_royal_safe
// without making the move.
template <typename B>
bool bitboard_royal_move_safe(const Position& pos, const BasicBitboards<B>& b, Move m);

// The points whose change of occupant could expose `royal` to `them`: the points leaps aimed at it
// must pass, and each piece of the royal's side alone between it and a slider aimed at it. Only
// where no piece hops (Bitboards::hops).
template <typename B>
PointSet bitboard_exposure(const Position& pos, const BasicBitboards<B>& b, Point royal, Side them);

// The points whose change of occupant could open or close an attack of `by`'s pieces on `target`:
// those between it and each piece whose slides, hops or leaps that pass points are aimed at it, and
// every point that piece's leaps and hops read (CheckFilter).
template <typename B>
B bitboard_attack_lines(const Position& pos, const BasicBitboards<B>& b, Point target, Side by);

// movegen.cpp's: adds the move `m` of `kind` (plain, or a leap leaving a ghost), with every
// promotion choice the rules give it there; a move that promotes leaves no ghost.
void add_move_with_promotions(const Position& pos, MoveList& list, Side us, Kind kind, Move m);

// movegen.cpp's: keeps the moves of the list from `first` on that leave the mover's royal safe, in order.
void keep_royal_safe(Position& pos, MoveList& list, int first);

}  // namespace palace
