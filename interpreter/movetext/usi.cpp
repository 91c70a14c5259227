#include "movetext/usi.h"

namespace palace {

Square shogi_square(const BoardDef& board, int file, int rank) {
  if (file < 1 || file > board.files || rank < 1 || rank > board.ranks) return NoSquare;
  return board.square(board.files - file, board.ranks - rank);
}

int shogi_file(const BoardDef& board, Square s) { return board.files - board.file_of(s); }
int shogi_rank(const BoardDef& board, Square s) { return board.ranks - board.rank_of(s); }

namespace {

// USI's square: the file digit, then the rank as a letter from 'a'.
Square usi_square(const BoardDef& board, char file, char rank) {
  if (file < '1' || file > '9' || rank < 'a' || rank > 'z') return NoSquare;
  return shogi_square(board, file - '0', rank - 'a' + 1);
}

}  // namespace

std::string usi_to_coordinates(const BoardDef& board, std::string_view text) {
  if (text.size() == 4 && text[1] == '*' && text[0] >= 'A' && text[0] <= 'Z') {
    const Square to = usi_square(board, text[2], text[3]);
    return to == NoSquare ? "" : std::string(1, text[0]) + "@" + board.square_name(to);
  }
  const bool promotes = text.size() == 5 && text[4] == '+';
  if (text.size() != 4 && !promotes) return "";
  const Square from = usi_square(board, text[0], text[1]), to = usi_square(board, text[2], text[3]);
  if (from == NoSquare || to == NoSquare) return "";
  return board.square_name(from) + board.square_name(to) + (promotes ? "+" : "");
}

}  // namespace palace
