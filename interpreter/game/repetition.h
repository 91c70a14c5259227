// What a game's history says about the position just reached: how far back it occurred before, and
// whom a repetition blames (the side that checked, or chased one piece, with every move of the
// cycle; the side that moved one piece back and forth too long). judge() asks these only where the
// variant has the rule, and the costly ones (unwinding the cycle) only once a repetition is found.
#pragma once

#include "position/position.h"

namespace palace {

// Plies back to the occurrence of the current position that makes it the n-th, or 0 when it is not
// there yet.
int repetition_span(const Position& pos, int count);

// The side that gave check with every one of its moves over the last `span` plies, if exactly one
// did; NoSide otherwise.
int perpetual_checker(const Position& pos, int span);

// The side that chased one and the same enemy piece with every one of its moves over the last `span`
// plies, if exactly one did, and where that piece stands now (the lowest point, should it have
// chased several with every move); side NoSide otherwise. A move chases a piece when, after it, the
// mover could legally capture that piece and the variant's chase tables count the capture (always,
// or when nobody could legally capture back and, for some pairs, the victim could not capture the
// attacker either; some kinds only in a zone), and either that attack is new (made by the moved piece or uncovered by the move) or the piece's
// protector could capture back before the move and cannot now (rules/README.md, "What a move chases").
struct Chaser {
  int side = NoSide;
  Point victim = NoPoint;
};
Chaser perpetual_chaser(const Position& pos, int span);

// Whether the move that led here is its side's n-th move in a row of one piece back and forth
// between the same two points, none of them a capture or made in check.
bool moved_back_and_forth(const Position& pos, int moves);

// Whether the move that led here makes `moves` moves in a row of one piece back and forth between
// the same two points after the move that brought it to the first of them (a pass of its side just
// before the last one is skipped), as the reference engine's `moveRepetitionIllegal` has it: its
// side was in check before none of those moves, nobody captured from that arrival on (the arrival
// included), and the piece may enter the area where the other side's royal piece may stand.
bool shuttled_after_arriving(const Position& pos, int moves);

}  // namespace palace
