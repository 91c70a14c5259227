#include "movetext/usi.h"

#include <algorithm>
#include <cctype>
#include <sstream>
#include <vector>

#include "core/text.h"
#include "position/position.h"

namespace palace {

Point shogi_square(const BoardDef& board, int file, int rank) {
  if (file < 1 || file > board.files || rank < 1 || rank > board.ranks) return NoPoint;
  return board.square(board.files - file, board.ranks - rank);
}

int shogi_file(const BoardDef& board, Point s) { return board.files - board.file_of(s); }
int shogi_rank(const BoardDef& board, Point s) { return board.ranks - board.rank_of(s); }

namespace {

// USI's square: the file digit, then the rank as a letter from 'a'.
Point usi_square(const BoardDef& board, char file, char rank) {
  if (file < '1' || file > '9' || rank < 'a' || rank > 'z') return NoPoint;
  return shogi_square(board, file - '0', rank - 'a' + 1);
}

}  // namespace

std::string usi_to_coordinates(const BoardDef& board, std::string_view text) {
  if (text.size() == 4 && text[1] == '*' && text[0] >= 'A' && text[0] <= 'Z') {
    const Point to = usi_square(board, text[2], text[3]);
    return to == NoPoint ? "" : std::string(1, text[0]) + "@" + board.point_name(to);
  }
  const bool promotes = text.size() == 5 && text[4] == '+';
  if (text.size() != 4 && !promotes) return "";
  const Point from = usi_square(board, text[0], text[1]), to = usi_square(board, text[2], text[3]);
  if (from == NoPoint || to == NoPoint) return "";
  return board.point_name(from) + board.point_name(to) + (promotes ? "+" : "");
}

std::string western_points_to_palace(const BoardDef& board, std::string_view text) {
  std::size_t at = text.substr(0, 1) == "+" ? 1 : 0;
  if (at >= text.size() || !std::isupper(static_cast<unsigned char>(text[at]))) return "";
  std::string out(text.substr(0, at + 1));
  ++at;
  // A point is the file's digit and the rank's letter; a move names one or two, with "-" or "x"
  // before the last, or the destination alone ("P7f").
  auto point = [&]() {
    const Point s = at + 1 < text.size() ? usi_square(board, text[at], text[at + 1]) : NoPoint;
    if (s != NoPoint) out += board.point_name(s), at += 2;
    return s != NoPoint;
  };
  const bool first = point();
  const bool separated = at < text.size() && (text[at] == '-' || text[at] == 'x');
  if (separated) out += text[at++];
  if (!point() && (separated || !first)) return "";
  const std::string_view marks = text.substr(at);
  if (marks.find_first_not_of("+=#!?") != std::string_view::npos) return "";
  return out + std::string(marks);
}

namespace {

std::vector<std::string> fields_of(const std::string& text) {
  std::istringstream in(text);
  std::vector<std::string> fields;
  for (std::string field; in >> field;) fields.push_back(field);
  return fields;
}

bool all_digits(const std::string& text) {
  return !text.empty() && text.size() < 9 &&
         std::all_of(text.begin(), text.end(), [](char c) { return std::isdigit(static_cast<unsigned char>(c)); });
}

}  // namespace

std::string sfen_from_fen(const std::string& fen) {
  const std::vector<std::string> fields = fields_of(fen);
  if (fields.size() < 2) throw FenError("FEN " + quote(fen, 80) + " has no side to move");
  std::string board = fields[0], held;
  if (const auto open = board.find('['); open != std::string::npos && board.back() == ']') {
    held = board.substr(open + 1, board.size() - open - 2);
    board.resize(open);
  }
  // Each piece once, with its count before it when there are several.
  std::string hands;
  for (std::size_t i = 0; i < held.size();) {
    std::size_t run = 1;
    while (i + run < held.size() && held[i + run] == held[i]) ++run;
    hands += (run > 1 ? std::to_string(run) : "") + held[i];
    i += run;
  }
  const bool first_to_move = fields[1] == "w";
  const int fullmove = all_digits(fields.back()) ? std::stoi(fields.back()) : 1;
  const int plies = 2 * (fullmove - 1) + (first_to_move ? 0 : 1);
  return board + (first_to_move ? " b " : " w ") + (hands.empty() ? "-" : hands) + " " + std::to_string(plies + 1);
}

std::string fen_from_sfen(const std::string& sfen) {
  const std::vector<std::string> fields = fields_of(sfen);
  if (fields.size() < 3 || fields.size() > 4)
    throw FenError("SFEN " + quote(sfen, 80) + " needs a board, a side to move, hands and a move number");
  if (fields[1] != "b" && fields[1] != "w") throw FenError("SFEN side to move must be b or w, not " + quote(fields[1]));
  std::string held;
  if (fields[2] != "-") {
    int count = 0;
    for (const char c : fields[2]) {
      if (std::isdigit(static_cast<unsigned char>(c))) {
        count = count * 10 + (c - '0');
        if (count > 99) throw FenError("SFEN hands: more than 99 of one piece");
      } else if (std::isalpha(static_cast<unsigned char>(c))) {
        held.append(count ? count : 1, c);
        count = 0;
      } else {
        throw FenError("SFEN hands: " + quote(std::string(1, c)) + " is neither a count nor a piece");
      }
    }
    if (count) throw FenError("SFEN hands " + quote(fields[2]) + " end in a count");
  }
  const std::string& number = fields.size() == 4 ? fields[3] : "1";
  if (!all_digits(number) || std::stoi(number) < 1)
    throw FenError("SFEN move number must be a number from 1, not " + quote(number));
  const int fullmove = (std::stoi(number) - 1) / 2 + 1;
  return fields[0] + "[" + held + "] " + (fields[1] == "b" ? "w" : "b") + " - - 0 " + std::to_string(fullmove);
}

}  // namespace palace
