// Shogi's square numbering, which KIF, KI2, CSA and USI share, and USI's moves ("7g7f", "8h2b+",
// "P*5e"). A variant uses it where its `notation:` section says `squares: shogi`: file 1 is on the
// first side's right and rank 1 at the far end from it, so Palace's c3 is shogi's 7g ("７七").
#pragma once

#include <string>
#include <string_view>

#include "loader/rule_set.h"

namespace palace {

// The square at shogi's `file` and `rank` (from 1), or NoPoint off the board.
Point shogi_square(const BoardDef& board, int file, int rank);
int shogi_file(const BoardDef& board, Point s);
int shogi_rank(const BoardDef& board, Point s);

// A USI move in Palace's coordinates ("7g7f" -> "c3c4", "8h2b+" -> "b2h8+", "P*5e" -> "P@e5"), or ""
// when `text` is no USI move of this board.
std::string usi_to_coordinates(const BoardDef& board, std::string_view text);

// A move in Western shogi notation ("P-7f", "Bx2b+", "S7g-6f", "+Bx3c", "Bx2b=") with its points as
// Palace names them ("P-c4", "Bxh8+", "Sc3-d4", "+Bxg7", "Bxh8="): a piece letter, perhaps after the
// "+" of a promoted piece, the origin where it is given, "-" or "x", the destination and its marks;
// "" when `text` is no such move of this board.
std::string western_points_to_palace(const BoardDef& board, std::string_view text);

// USI's positions (SFEN: "lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b - 1") and
// Palace's FEN of the same ("...[] w - - 0 1"): the first side is USI's b(lack), hands are counted
// ("2Pp"), and the move counter counts plies. The board passes through for set_fen to judge; a
// side, hand or counter of the wrong form throws FenError.
std::string sfen_from_fen(const std::string& fen);
std::string fen_from_sfen(const std::string& sfen);

}  // namespace palace
