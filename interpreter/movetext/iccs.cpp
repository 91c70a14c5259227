#include "movetext/iccs.h"

#include <cctype>

namespace palace {

namespace {

// One ICCS square, "h2": false when it is none of `board`'s.
bool parse_point(const BoardDef& board, char file, char rank, Point& s) {
  if (!std::isalpha(static_cast<unsigned char>(file)) || !std::isdigit(static_cast<unsigned char>(rank))) return false;
  const int f = std::tolower(static_cast<unsigned char>(file)) - 'a', r = rank - '0';
  if (f >= board.files || r >= board.ranks) return false;
  s = board.square(f, r);
  return true;
}

// "h2e2" or "H2-E2": its squares; false when it is no ICCS move of `board`.
bool parse_iccs(const BoardDef& board, std::string_view text, Point& from, Point& to) {
  const bool dashed = text.size() == 5 && text[2] == '-';
  if (text.size() != 4 && !dashed) return false;
  const std::size_t second = dashed ? 3 : 2;
  return parse_point(board, text[0], text[1], from) && parse_point(board, text[second], text[second + 1], to);
}

}  // namespace

std::string iccs_move(const BoardDef& board, Move m) {
  std::string text;
  for (const Point s : {m.from(), m.to()}) {
    text += char('a' + board.file_of(s));
    text += char('0' + board.rank_of(s));
  }
  return text;
}

std::string iccs_to_coordinates(const BoardDef& board, std::string_view text) {
  Point from = NoPoint, to = NoPoint;
  if (!parse_iccs(board, text, from, to)) return "";
  return board.point_name(from) + board.point_name(to);
}

bool iccs_names_rank_zero(const BoardDef& board, std::string_view text) {
  Point from = NoPoint, to = NoPoint;
  return parse_iccs(board, text, from, to) && (board.rank_of(from) == 0 || board.rank_of(to) == 0);
}

}  // namespace palace
