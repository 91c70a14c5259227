// The endgame count (ends.endgame_count; Makruk's board's and pieces' honour): once none of the
// count's `blocked_by` kinds stands on the board, a side counts its moves, and the game is drawn when the
// count runs past its limit without a mate. The count lives in the position's state records, in
// plies, as the reference engine writes it in a FEN: the limit in place of the en passant field and
// the plies counted in place of the half-move clock.
#pragma once

#include "position/position.h"

namespace palace {

// Whether a blocker of the endgame count stands on the board (false where the variant has no count).
bool count_blocked(const Position& pos);

// The limit in plies of a count `side` would start now, or 0 where it may not count: while a
// blocker stands on the board, or the other side has nothing besides its royal.
int count_limit_plies(const Position& pos, Side side);

// After a move (`pos` has the other side to move, `st` is its new record): advances a running count,
// or starts one for the side to move where none runs, or afresh where the move left it a bare
// royal; a bare royal that took the last blocker starts its own count at once.
void advance_endgame_count(const Position& pos, StateRecord& st);

// Whether the count in `st` has run past its limit.
inline bool count_ran_out(const StateRecord& st) { return st.count_limit && st.count_plies > st.count_limit; }

}  // namespace palace
