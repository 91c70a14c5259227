#include "cli/board_view.h"

#include <cctype>
#include <sstream>

#include "game/evaluator.h"

namespace palace::cli {

namespace {

// A point every four columns: the point, then "---" to the next one. Between two ranks a row of
// "|" under the points, with a diagonal line's / or \ (or X where two cross) halfway between.
constexpr int Pitch = 4;
constexpr const char* Dim = "\x1b[2m";
constexpr const char* Reset = "\x1b[0m";

// The SGR code for a colour a side's YAML names; an unknown name is drawn bold.
std::string sgr(const std::string& colour) {
  static const std::pair<const char*, const char*> codes[] = {
      {"black", "1;90"}, {"red", "1;31"},     {"green", "1;32"}, {"yellow", "1;33"},
      {"blue", "1;34"},  {"magenta", "1;35"}, {"cyan", "1;36"},  {"white", "1;97"},
  };
  for (const auto& [name, code] : codes)
    if (colour == name) return std::string("\x1b[") + code + "m";
  return "\x1b[1m";
}

std::string upper(std::string word) {
  for (char& c : word) c = char(std::toupper(static_cast<unsigned char>(c)));
  return word;
}

class Painter {
 public:
  Painter(const Position& pos, bool colour) : pos_(pos), v_(pos.variant()), board_(v_.board()), colour_(colour) {
    label_width_ = int(std::to_string(board_.ranks).size());
  }

  std::string draw() {
    // The first side at the bottom, file a on its left: rank 1 at the bottom, or at the top where
    // the ranks are numbered from the other side's edge (BoardDef::ranks_from_top).
    const bool top_down = board_.ranks_from_top;
    const Side top = (v_.rules().sides[0].forward < 0) != top_down ? First : Second;
    files_line(top);
    for (int row = 0; row < board_.ranks; ++row) {
      const int rank = top_down ? row : board_.ranks - 1 - row;
      points_line(rank);
      if (row + 1 < board_.ranks) lines_between(rank, top_down ? 1 : -1);
    }
    files_line(opponent(top));
    return out_.str();
  }

 private:
  void margin() { out_ << std::string(label_width_ + 2, ' '); }

  void lines(const std::string& text) {
    if (colour_ && text.find_first_not_of(' ') != std::string::npos)
      out_ << Dim << text << Reset;
    else
      out_ << text;
  }

  // File letters, then the points of the side whose home edge this is.
  void files_line(Side side) {
    margin();
    for (int file = 0; file < board_.files; ++file) out_ << (file ? "   " : "") << char('a' + file);
    std::ostringstream score;
    score << points(pos_, side);
    out_ << "     " << upper(v_.side_name(side)) << ": " << score.str();
    if (v_.has_hands()) {
      std::string held;
      for (Kind k : v_.hand_kinds()) held.append(pos_.in_hand(side, k), v_.letter(make_piece(side, k)));
      out_ << "   in hand: " << (held.empty() ? "-" : held);
    }
    out_ << "\n";
  }

  void points_line(int rank) {
    const std::string label = std::to_string(rank + 1);
    out_ << std::string(label_width_ - label.size(), ' ') << label;
    // A piece written in two characters ("+P", "Q~") takes one from the gap on its marker's side.
    bool marked_after = false;
    for (int file = 0; file < board_.files; ++file) {
      const Piece p = pos_.at(board_.square(file, rank));
      const bool hole = board_.is_hole(board_.square(file, rank));
      const std::string text = p ? v_.written(p) : hole ? " " : "+";
      const bool marked_before = text.size() == 2 && text[0] == '+';
      // No line runs to a hole: it is drawn as a gap in the board.
      const bool joined = file && !hole && !board_.is_hole(board_.square(file - 1, rank));
      const std::string gap = !file ? "  " : joined ? "---" : "   ";
      lines(gap.substr(0, gap.size() - marked_before - marked_after));
      marked_after = text.size() == 2 && text[1] == '~';
      if (!p)
        lines(text);
      else if (colour_)
        out_ << sgr(v_.rules().sides[side_of(p)].colour) << text << Reset;
      else
        out_ << text;
    }
    out_ << (marked_after ? " " : "  ") << label << "\n";
  }

  // The lines from `rank` to the rank drawn below it, `down` ranks away.
  void lines_between(int rank, int down) {
    std::string row((board_.files - 1) * Pitch + 1, ' ');
    for (int file = 0; file < board_.files; ++file) {
      if (!board_.is_hole(board_.square(file, rank)) && !board_.is_hole(board_.square(file, rank + down))) row[file * Pitch] = '|';
      if (file + 1 == board_.files || board_.all_diagonals) continue;  // every diagonal drawn is noise
      const bool falling = diagonal(board_.square(file, rank), 1, down);      // towards the lower right
      const bool rising = diagonal(board_.square(file + 1, rank), -1, down);  // towards the lower left
      if (falling || rising) row[file * Pitch + Pitch / 2] = falling && rising ? 'X' : falling ? '\\' : '/';
    }
    margin();
    lines(row);
    out_ << "\n";
  }

  // Whether a line runs from `s` one rank `down` (-1 or 1) and `file_step` across.
  bool diagonal(Point s, int file_step, int down) const {
    for (int dir = 0; dir < DirectionCount; ++dir)
      if (DirFile[dir] == file_step && DirRank[dir] == down) return v_.step(s, dir) != NoPoint;
    return false;
  }

  const Position& pos_;
  const Variant& v_;
  const BoardDef& board_;
  bool colour_;
  int label_width_ = 1;
  std::ostringstream out_;
};

}  // namespace

std::string draw_board(const Position& pos, bool colour) { return Painter(pos, colour).draw(); }

}  // namespace palace::cli
