#include "movetext/notation.h"

#include <algorithm>
#include <cctype>
#include <cstdlib>
#include <vector>

#include "core/text.h"
#include "movegen/movegen.h"
#include "movetext/iccs.h"
#include "movetext/usi.h"

namespace palace {

namespace {

bool is_space(char c) { return std::isspace(static_cast<unsigned char>(c)); }
bool is_digit(char c) { return std::isdigit(static_cast<unsigned char>(c)); }
bool is_lower(char c) { return std::islower(static_cast<unsigned char>(c)); }
bool is_upper(char c) { return std::isupper(static_cast<unsigned char>(c)); }

std::string lower(std::string_view text) {
  std::string out(text);
  for (char& c : out) c = char(std::tolower(static_cast<unsigned char>(c)));
  return out;
}

bool ends_with(std::string_view text, std::string_view tail) {
  return text.size() >= tail.size() && text.substr(text.size() - tail.size()) == tail;
}

// A castling-like move: the royal piece carrying a partner along. SAN names it by the side of the
// board it goes to, whatever the partner.
bool is_castling(const Position& pos, Move m) {
  return m.type() == MoveType::Compound && pos.variant().rules().pieces[std::size_t(kind_of(pos.at(m.from())))].royal;
}

// Full-width forms, U+FF01 to U+FF5E, as the ASCII they stand for: East Asian records type
// "Ｃ２＝５" and "马８进７". In UTF-8 they are EF BC 81..BF and EF BD 80..9E.
std::string narrow_full_width(std::string_view text) {
  std::string out;
  for (std::size_t i = 0; i < text.size(); ++i) {
    const auto byte = [&](std::size_t k) { return static_cast<unsigned char>(text[k]); };
    if (i + 2 < text.size() && byte(i) == 0xEF && byte(i + 1) == 0xBC && byte(i + 2) >= 0x81 && byte(i + 2) <= 0xBF) {
      out += char(byte(i + 2) - 0x60);
      i += 2;
    } else if (i + 2 < text.size() && byte(i) == 0xEF && byte(i + 1) == 0xBD && byte(i + 2) >= 0x80 && byte(i + 2) <= 0x9E) {
      out += char(byte(i + 2) - 0x20);
      i += 2;
    } else {
      out += text[i];
    }
  }
  return out;
}

}  // namespace

// Western shogi notation ("P-7f", "Bx2b+", "+Bx3c") where the board numbers its points as shogi
// does: the SAN on Palace's points it stands for, a promoted piece ("+B") by its own letter; "" for
// other text.
std::string MoveNotation::western_san(std::string_view text) const {
  if (!rules_.shogi_squares) return "";
  std::string san = western_points_to_palace(variant_.board(), text);
  if (san.size() < 2 || san[0] != '+') return san;
  const Kind base = variant_.rules().kind_by_letter(san[1]);
  if (base < 0 || variant_.rules().pieces[std::size_t(base)].promotion_kinds.size() != 1) return "";
  return letter(variant_.rules().pieces[std::size_t(base)].promotion_kinds.front()) + san.substr(2);
}

// What a SAN text says: the piece (or -1 when it gives no letter), the origin's file and rank
// where it gives them (or -1), the destination and the promotion; or a castling side.
struct MoveNotation::SanParts {
  Kind kind = NoKind;
  int from_file = -1, from_rank = -1;
  Point to = NoPoint;
  int promotion = -1;
  int castling = 0;  // +1 towards higher files (O-O), -1 towards lower (O-O-O)
  bool promotes = false;  // promoting without naming the kind: a "+" where "+" writes a promotion
};

MoveNotation::MoveNotation(const Variant& variant) : variant_(variant), rules_(variant.rules().notation) {
  for (Kind k = Kind(0); k < variant.kinds(); ++k) plus_promotes_ = plus_promotes_ || variant.promotion_suffix(k) == "+";
}

std::string MoveNotation::letter(Kind kind) const { return std::string(1, rules_.letters[std::size_t(kind)]); }

// Kinds SAN letters alike are one piece to it, as to the reference library: a crazyhouse queen that
// was a pawn is a Q, a shogi tokin a G like the gold it moves as.
bool MoveNotation::same_san_piece(int a, int b) const { return rules_.letters[std::size_t(a)] == rules_.letters[std::size_t(b)]; }

// The kind with SAN letter `c`, or else the kind with that FEN letter; NoKind if none.
Kind MoveNotation::kind_by_san(char c) const {
  for (std::size_t k = 0; k < rules_.letters.size(); ++k)
    if (rules_.letters[k] == c) return Kind(k);
  return variant_.rules().kind_by_letter(c);
}

// WXF numbers files from each player's right hand: for the side moving up the board, the last
// file is 1.
int MoveNotation::file_from_right(Side side, int file) const {
  const bool up = variant_.rules().sides[side].forward > 0;
  return up ? variant_.board().files - file : file + 1;
}

std::string MoveNotation::wxf_file(Side side, int file) const { return std::to_string(file_from_right(side, file)); }

// The Janggi square: rank digit (10 written 0), then file digit.
std::string MoveNotation::numeric_square(Point s) const {
  const BoardDef& board = variant_.board();
  return std::to_string((board.rank_of(s) + 1) % 10) + std::to_string(board.file_of(s) + 1);
}

std::string MoveNotation::check_mark(Position& pos, Move m) const {
  pos.do_move(m);
  std::string mark;
  if (in_check(pos)) {
    MoveList replies;
    mark.push_back(generate_legal(pos, replies) ? '+' : '#');
  }
  pos.undo_move();
  return mark;
}

std::string MoveNotation::san(const Position& pos, Move m, const MoveList& legal, bool long_form) const {
  if (m.is_pass()) return "pass";
  if (is_castling(pos, m)) return m.to() > m.from() ? "O-O" : "O-O-O";
  const BoardDef& board = variant_.board();
  const Point from = m.from();
  const Kind kind = kind_of(pos.at(from));
  const bool capture = is_capture(pos, m);
  std::string text = kind == rules_.unlettered ? "" : letter(kind);

  // The least that tells this piece from the others of its kind that can go to the same point.
  bool other = false, same_file = false, same_rank = false;
  for (const Move o : legal)
    if (!o.is_pass() && o.type() != MoveType::Drop && o.to() == m.to() && o.from() != from &&
        same_san_piece(kind_of(pos.at(o.from())), kind)) {
      other = true;
      same_file = same_file || board.file_of(o.from()) == board.file_of(from);
      same_rank = same_rank || board.rank_of(o.from()) == board.rank_of(from);
    }
  const std::string square = board.point_name(from);
  if (long_form)
    text += square;
  else if (kind == rules_.unlettered && capture)
    text += square[0];
  else if (other && !same_file)
    text += square[0];
  else if (other && !same_rank)
    text += square.substr(1);
  else if (other)
    text += square;

  if (capture)
    text += 'x';
  else if (long_form)
    text += '-';
  text += board.point_name(m.to());
  if (m.promotion_kind() >= 0) {
    text += '=';
    text += letter(m.promotion_kind());
  }
  return text;
}

bool MoveNotation::partner_could_move_alike(const Position& pos, Move m, Point partner) const {
  const BoardDef& board = variant_.board();
  const int df = board.file_of(m.to()) - board.file_of(m.from()), dr = board.rank_of(m.to()) - board.rank_of(m.from());
  const int file = board.file_of(partner) + df, rank = board.rank_of(partner) + dr;
  const int zone = variant_.rules().pieces[std::size_t(kind_of(pos.at(m.from())))].stay_in;
  return file >= 0 && file < board.files && rank >= 0 && rank < board.ranks &&
         (zone < 0 || variant_.rules().sides[pos.side_to_move()].zones[std::size_t(zone)][board.square(file, rank)]);
}

std::string MoveNotation::wxf(const Position& pos, Move m, bool official) const {
  if (m.is_pass()) return "pass";
  const BoardDef& board = variant_.board();
  const Side side = pos.side_to_move();
  const int forward = variant_.rules().sides[side].forward;
  const Point from = m.from(), to = m.to();
  const Kind kind = kind_of(pos.at(from));
  const int file = board.file_of(from);

  // The same pieces of this side on this file: how many, and how many stand ahead of this one.
  int on_file = 0, ahead = 0;
  Point partner = NoPoint;
  for (int r = 0; r < board.ranks; ++r) {
    const Point s = board.square(file, r);
    if (pos.at(s) != pos.at(from)) continue;
    ++on_file;
    if (s == from) continue;
    partner = s;
    if ((r - board.rank_of(from)) * forward > 0) ++ahead;
  }

  std::string text;
  if (on_file > 2 && !official) {
    // Three or more on a file (soldiers only, in practice): counted from the front.
    text = std::to_string(ahead + 1) + wxf_file(side, file);
  } else if (on_file > 2) {
    // The federation's rule: the foremost and rearmost "+"/"-" (doubled when four or more, where
    // the second ones take the single sign), a middle one by its file.
    const int behind = on_file - 1 - ahead;
    const int second = on_file > 3 ? 1 : 0;  // where the single sign goes
    if (second && ahead == 0)
      text = "++";
    else if (second && behind == 0)
      text = "--";
    else if (ahead == second)
      text = letter(kind) + "+";
    else if (behind == second)
      text = letter(kind) + "-";
    else
      text = letter(kind) + wxf_file(side, file);
  } else {
    text = letter(kind);
    // Two on a file are told apart as front and rear, where the other could make the same move.
    const bool tandem = on_file == 2 && partner_could_move_alike(pos, m, partner);
    // Where another file holds two of the piece too, "P+" would name either pair's front one: the
    // piece is counted from the front instead, as three on a file are.
    bool pair_elsewhere = false;
    for (int f = 0; f < board.files && tandem && !official && !pair_elsewhere; ++f) {
      int same = 0;
      for (int r = 0; r < board.ranks; ++r) same += f != file && pos.at(board.square(f, r)) == pos.at(from);
      pair_elsewhere = same > 1;
    }
    if (pair_elsewhere)
      text = std::to_string(ahead + 1) + wxf_file(side, file);
    else
      text += tandem ? (ahead ? "-" : "+") : wxf_file(side, file);
  }

  const int advance = (board.rank_of(to) - board.rank_of(from)) * forward;
  text += advance == 0 ? '=' : advance > 0 ? '+' : '-';
  text += board.file_of(to) == file ? std::to_string(std::abs(advance)) : wxf_file(side, board.file_of(to));
  return text;
}

std::string MoveNotation::plain_wxf(const Position& pos, Move m) const {
  if (m.is_pass() || m.type() == MoveType::Drop) return "";
  const BoardDef& board = variant_.board();
  const Side side = pos.side_to_move();
  const int file = board.file_of(m.from());
  const int advance = (board.rank_of(m.to()) - board.rank_of(m.from())) * variant_.rules().sides[side].forward;
  std::string text = letter(kind_of(pos.at(m.from()))) + wxf_file(side, file);
  text += advance == 0 ? '=' : advance > 0 ? '+' : '-';
  text += board.file_of(m.to()) == file ? std::to_string(std::abs(advance)) : wxf_file(side, board.file_of(m.to()));
  return text;
}

std::string MoveNotation::ambiguity(const Position& pos, std::string_view text, const std::vector<Move>& found,
                                    const std::vector<std::string>& spellings, bool by_file,
                                    std::string (*own_name)(const BoardDef&, Point)) const {
  const BoardDef& board = variant_.board();
  const Side side = pos.side_to_move();
  std::vector<Point> from;
  for (const Move m : found)
    if (m.type() != MoveType::Drop && !m.is_pass() && std::find(from.begin(), from.end(), m.from()) == from.end())
      from.push_back(m.from());
  auto said = [&](const std::string& who, const std::vector<std::string>& ways) {
    return quote(text) + " is ambiguous: " + who + " can " + (found.size() == 2 ? "both" : "all") + " make it; write " +
           listed(ways, "or");
  };
  if (from.size() != found.size())  // one piece's moves (a promotion or not, say)
    return quote(text) + " is ambiguous: it names " + std::to_string(found.size()) + " moves; write " + listed(spellings, "or");
  bool one_kind = true, one_file = true;
  for (const Point s : from) {
    one_kind = one_kind && kind_of(pos.at(s)) == kind_of(pos.at(from.front()));
    one_file = one_file && board.file_of(s) == board.file_of(from.front());
  }
  std::string pieces = "pieces";
  if (one_kind) {
    pieces = variant_.rules().pieces[std::size_t(kind_of(pos.at(from.front())))].name + "s";
    std::replace(pieces.begin(), pieces.end(), '-', ' ');
  }
  if (by_file && one_file && from.size() <= 3) {
    const std::vector<std::string> places =
        from.size() == 2 ? std::vector<std::string>{"front", "rear"} : std::vector<std::string>{"front", "middle", "rear"};
    // Front first, as the places are named.
    const int forward = variant_.rules().sides[side].forward;
    std::vector<std::size_t> order(found.size());
    for (std::size_t i = 0; i < order.size(); ++i) order[i] = i;
    std::sort(order.begin(), order.end(), [&](std::size_t a, std::size_t b) {
      return board.rank_of(found[a].from()) * forward > board.rank_of(found[b].from()) * forward;
    });
    std::vector<std::string> sorted;
    for (const std::size_t i : order) sorted.push_back(spellings[i]);
    return said("the " + listed(places, "and") + " " + pieces + " on file " + wxf_file(side, board.file_of(from.front())), sorted);
  }
  std::vector<std::string> points;
  for (const Point s : from) points.push_back(own_name ? own_name(board, s) + " (" + board.point_name(s) + ")" : board.point_name(s));
  return said("the " + pieces + " on " + listed(points, "and"), spellings);
}

std::string MoveNotation::numeric(const Position& pos, Move m, bool korean) const {
  if (m.is_pass()) return "pass";
  const Kind kind = kind_of(pos.at(m.from()));
  if (korean) {
    const std::string& name = rules_.names[std::size_t(kind)][pos.side_to_move()];
    return numeric_square(m.from()) + (name.empty() ? letter(kind) : name) + numeric_square(m.to());
  }
  return letter(kind) + numeric_square(m.from()) + (is_capture(pos, m) ? "x" : "-") + numeric_square(m.to());
}

void MoveNotation::require(NotationStyle style) const {
  std::string why;
  if (!notation_offered(rules_, style, why))
    throw Error(variant_.rules().name + " has no " + notation_style_name(style) + " notation: " + why);
}

std::string MoveNotation::write(Position& pos, Move m, NotationStyle style) const {
  // A drop is written alike in every notation: the piece, @ and the point ("N@e4").
  const bool checks_marked = style == NotationStyle::San || style == NotationStyle::Lan;
  if (m.type() == MoveType::Drop) return pos.move_text(m) + (checks_marked ? check_mark(pos, m) : "");
  switch (style) {
    case NotationStyle::Coordinates:
      return pos.move_text(m);
    case NotationStyle::San:
    case NotationStyle::Lan: {
      MoveList legal;
      generate_legal(pos, legal);
      return san(pos, m, legal, style == NotationStyle::Lan) + check_mark(pos, m);
    }
    case NotationStyle::Wxf:
      return wxf(pos, m, false);
    case NotationStyle::Janggi:
      return numeric(pos, m, false) + (m.is_pass() ? "" : check_mark(pos, m));
    case NotationStyle::Korean:
      return numeric(pos, m, true);
    case NotationStyle::Iccs:
      return m.is_pass() ? "pass" : iccs_move(variant_.board(), m);
    case NotationStyle::Chinese:
    case NotationStyle::ChineseTraditional:
      return m.is_pass() ? "pass" : chinese(pos, m, style == NotationStyle::ChineseTraditional);
  }
  return pos.move_text(m);
}

bool MoveNotation::parse_san(std::string_view text, SanParts& parts) const {
  if (text == "O-O" || text == "0-0") return parts.castling = 1, true;
  if (text == "O-O-O" || text == "0-0-0") return parts.castling = -1, true;
  std::size_t begin = 0, end = text.size();
  if (end > 0 && is_upper(text[0])) {
    parts.kind = kind_by_san(text[0]);
    if (parts.kind < 0) return false;
    begin = 1;
  }
  // A "=" after the point declines promotion, as shogi players write it ("Bxh8="): no promotion is
  // what the text says without it too.
  if (end >= begin + 3 && text[end - 1] == '=' && is_digit(text[end - 2])) --end;
  // Promotion: "=Q" or "=q", or a capital after the rank ("e8Q"); "e7e8q" is coordinates.
  const bool marked = end >= begin + 3 && text[end - 2] == '=';
  if (end >= begin + 3 && (marked || is_upper(text[end - 1])) && is_digit(text[end - 2 - marked])) {
    parts.promotion = kind_by_san(char(std::toupper(static_cast<unsigned char>(text[end - 1]))));
    if (parts.promotion < 0) return false;
    end -= marked ? 2 : 1;
  }
  std::size_t digits = end;
  while (digits > begin && is_digit(text[digits - 1])) --digits;
  if (digits == end || digits == begin || !is_lower(text[digits - 1])) return false;
  const BoardDef& board = variant_.board();
  parts.to = board.parse_point(std::string(text.substr(digits - 1, end - digits + 1)));
  if (parts.to == NoPoint) return false;
  std::size_t middle = digits - 1;
  if (middle > begin && (text[middle - 1] == 'x' || text[middle - 1] == '-' || text[middle - 1] == ':')) --middle;
  std::size_t i = begin;
  if (i < middle && is_lower(text[i])) {
    parts.from_file = text[i] - 'a';
    if (parts.from_file >= board.files) return false;
    ++i;
  }
  if (i < middle) {
    int rank = 0;
    for (; i < middle; ++i) {
      if (!is_digit(text[i]) || rank > board.ranks) return false;
      rank = rank * 10 + (text[i] - '0');
    }
    if (rank < 1 || rank > board.ranks) return false;
    parts.from_rank = rank - 1;
  }
  return true;
}

// Whether a piece of `kind` is the one the text names: the same SAN piece, or, where the text gives
// no letter, the unlettered kind (any kind in a game that letters every piece).
bool MoveNotation::kind_fits(Kind kind, const SanParts& parts) const {
  return parts.kind >= 0 ? same_san_piece(kind, parts.kind) : rules_.unlettered < 0 || kind == rules_.unlettered;
}

// A drop is read by its own spelling ("P@e5"), never as SAN: its origin holds no piece to letter.
bool MoveNotation::san_matches(const Position& pos, Move m, const SanParts& parts) const {
  if (m.is_pass() || m.type() == MoveType::Drop) return false;
  if (parts.castling) return is_castling(pos, m) && (m.to() > m.from()) == (parts.castling > 0);
  const BoardDef& board = variant_.board();
  const Kind promoted = m.promotion_kind();
  const bool promotion_ok = parts.promotion < 0 ? (promoted >= 0) == parts.promotes : promoted >= 0 && same_san_piece(promoted, parts.promotion);
  return kind_fits(kind_of(pos.at(m.from())), parts) && m.to() == parts.to && promotion_ok &&
         (parts.from_file < 0 || board.file_of(m.from()) == parts.from_file) &&
         (parts.from_rank < 0 || board.rank_of(m.from()) == parts.from_rank);
}

// The ways WXF records differ from the reference's spelling, undone: "." for sideways ("C2.5"),
// the tandem sign before the letter ("+C+1") or as f/r ("rC+1"), and the FEN's letters ("N2+3").
std::string MoveNotation::wxf_spelling(std::string_view text) const {
  std::string out(text);
  for (char& c : out)
    if (c == '.') c = '=';
  if (out.size() > 2 && (out[0] == 'f' || out[0] == 'r') && is_upper(out[1])) out = std::string(1, out[1]) + (out[0] == 'f' ? '+' : '-') + out.substr(2);
  if (out.size() > 2 && (out[0] == '+' || out[0] == '-') && is_upper(out[1])) std::swap(out[0], out[1]);
  if (!out.empty() && is_upper(out[0])) {
    const Kind kind = variant_.rules().kind_by_letter(out[0]);
    const bool notation_letter = std::find(rules_.letters.begin(), rules_.letters.end(), out[0]) != rules_.letters.end();
    if (kind >= 0 && !notation_letter) out[0] = rules_.letters[std::size_t(kind)];
  }
  return out;
}

bool MoveNotation::names_pass(std::string_view text) const {
  while (!text.empty() && is_space(text.front())) text.remove_prefix(1);
  while (!text.empty() && is_space(text.back())) text.remove_suffix(1);
  // PGN's "--", ChessBase's "Z0", UCI's "0000" and WinBoard's "@@@@": a null move, a pass.
  constexpr std::string_view NullMoves[] = {"--", "Z0", "0000", "@@@@"};
  if (lower(text) == "pass" || std::find(std::begin(NullMoves), std::end(NullMoves), text) != std::end(NullMoves)) return true;
  return std::find(rules_.pass_names.begin(), rules_.pass_names.end(), text) != rules_.pass_names.end();
}

Move MoveNotation::read(Position& pos, std::string_view input, std::string& why, Unread* unread) const {
  bool named_several = false;
  const Move m = find(pos, input, why, named_several);
  Unread reason = named_several ? Unread::Ambiguous : Unread::NoMove;
  if (!m && !named_several)
    if (std::string turn = wrong_turn(pos, input); !turn.empty()) {
      why = std::move(turn);
      reason = Unread::WrongTurn;
    }
  if (unread) *unread = reason;
  return m;
}

std::string MoveNotation::wrong_turn(const Position& pos, std::string_view text) const {
  // The same board with the other side to move; a FEN that cannot stand so (the side to move could
  // take a royal) names no move of it.
  std::string fen = pos.fen();
  const std::size_t side = fen.find(' ') + 1;  // the side-to-move field, "w" or "b"
  if (side == 0 || side >= fen.size()) return "";
  fen[side] = fen[side] == 'w' ? 'b' : 'w';
  Position other(pos.variant_ptr());
  try {
    other.set_fen(fen, FenRights::DropUnmet);
  } catch (const FenError&) {
    return "";
  }
  // A pass is either side's, so it tells nothing of whose turn was meant.
  std::string ignored;
  bool several = false;
  if (const Move m = find(other, text, ignored, several); !m || m.is_pass()) return "";
  const Side us = pos.side_to_move();
  return "it is " + capitalised(variant_.side_name(us)) + "'s turn: " + quote(text) + " is a move of " +
         capitalised(variant_.side_name(opponent(us)));
}

Move MoveNotation::find(Position& pos, std::string_view input, std::string& why, bool& ambiguous) const {
  ambiguous = false;
  const std::string narrowed = narrow_full_width(input);
  std::string_view text = narrowed;
  while (!text.empty() && is_space(text.front())) text.remove_prefix(1);
  while (!text.empty() && is_space(text.back())) text.remove_suffix(1);
  // Annotations and check marks say nothing about which move it is. A move gives check once (or
  // twice, as some write a double check) and is annotated with two marks at most ("?!"): more is
  // no move text.
  int checks = 0, annotations = 0;
  for (bool trimmed = true; trimmed;) {
    trimmed = false;
    for (const std::string& word : rules_.check_words)
      if (!word.empty() && ends_with(text, word)) text.remove_suffix(word.size()), trimmed = true, ++checks;
    while (!text.empty() && (text.back() == '!' || text.back() == '?' || (text.back() == '+' && !plus_promotes_) ||
                             text.back() == '#')) {
      ++(text.back() == '!' || text.back() == '?' ? annotations : checks);
      text.remove_suffix(1), trimmed = true;
    }
    if (checks > 2 || annotations > 2) {
      why = quote(input) + (checks > 2 ? " has more than two check marks" : " has more than two annotation marks");
      return Move();
    }
  }
  const std::string wxf_text = wxf_spelling(text);
  // "E44xP72": the Janggi notation may name the piece taken.
  std::string numeric_text(text);
  const std::size_t x = numeric_text.find('x');
  if (x != std::string::npos && x + 2 < numeric_text.size() && is_upper(numeric_text[x + 1]) && is_digit(numeric_text[x + 2]))
    numeric_text.erase(x + 1, 1);

  // Chinese is WXF in words, and records write WXF's front and rear ("C-+5") as the Chinese do:
  // for any two on a file, not only where the other could make the same move; where two files hold
  // several soldiers, the federation puts the file for the letter ("7+.6"), as the Chinese do.
  std::string chinese_text = chinese_key(text);
  if (wxf_text.size() == 4 && (is_upper(wxf_text[0]) || is_digit(wxf_text[0])) && (wxf_text[1] == '+' || wxf_text[1] == '-'))
    chinese_text = std::string(1, wxf_text[1] == '+' ? 'f' : 'r') + wxf_text[0] + wxf_text.substr(2);

  MoveList legal;
  generate_legal(pos, legal);
  const std::string lowered = lower(text);
  const bool passing = names_pass(text);

  // USI ("7g7f", "P*5e") where the board numbers its squares as shogi does: digits first, so no
  // other notation reads alike.
  if (rules_.shogi_squares) {
    const std::string usi = usi_to_coordinates(variant_.board(), text);
    if (!usi.empty()) {
      for (const Move m : legal)
        if (pos.move_text(m) == usi) return m;
      why = quote(input) + " is not a legal move here";
      return Move();
    }
  }
  // Coordinates name one move, whatever else the text could be read as; in other letter cases
  // ("E2E4") only where the text is no SAN ("G9g8" is a gold's move, not g9g8).
  for (const Move m : legal)
    if (!passing && pos.move_text(m) == text) return m;
  const std::string western = western_san(text);
  std::string_view san_text = western.empty() ? text : std::string_view(western);
  // A SAN text names its piece ("Bxc3=H+", "S@a7+"): its "+" marks are taken off, letterless
  // coordinates keep theirs ("e7e8+").
  int plus_marks = 0;
  if (!san_text.empty() && is_upper(san_text.front()))
    for (; plus_marks < 2 && !san_text.empty() && san_text.back() == '+'; ++plus_marks) san_text.remove_suffix(1);
  const std::string drop_text = lower(san_text);
  SanParts parts;
  const bool san_like = parse_san(san_text, parts);
  // Where coordinates promote with a "+", a SAN text's "+" promotes too where the move it names may
  // promote, as shogi players write it: always in Western notation ("Bx2b+"), which marks no
  // checks; on Palace's points ("Bxh8+") unless the move unpromoted gives check, which SAN marks so
  // (the reference writes "Bxe3+" for it, and "Bxe3=H+" for the promotion that checks).
  if (san_like && plus_promotes_ && plus_marks > 0 && parts.promotion < 0) {
    SanParts promoting = parts;
    promoting.promotes = true;
    const auto named = [&](const SanParts& p) {
      std::vector<Move> found;
      for (const Move m : legal)
        if (san_matches(pos, m, p)) found.push_back(m);
      return found;
    };
    const std::vector<Move> unpromoted = western.empty() ? named(parts) : std::vector<Move>{};
    const bool checks = std::any_of(unpromoted.begin(), unpromoted.end(), [&](Move m) { return !check_mark(pos, m).empty(); });
    parts.promotes = !checks && !named(promoting).empty();
  }
  // The notation a legal move is named in, if any: an ambiguity is answered in the text's own.
  auto named_in = [&](Move m, NotationStyle& style) {
    if (passing || m.type() == MoveType::Drop)  // drops have no SAN, WXF or numeric spelling of their own
      return passing ? m.is_pass() : lower(pos.move_text(m)) == drop_text;
    if (m.is_pass()) return false;
    style = NotationStyle::Coordinates;
    if (!san_like && pos.move_text(m) == lowered) return true;
    style = NotationStyle::San;
    if (san_like && san_matches(pos, m, parts)) return true;
    style = NotationStyle::Wxf;
    if (wxf(pos, m, false) == wxf_text || wxf(pos, m, true) == wxf_text) return true;
    style = NotationStyle::Janggi;
    if (numeric(pos, m, false) == numeric_text) return true;
    style = NotationStyle::Korean;
    if (korean_matches(pos, m, text)) return true;
    style = traditional_script(text) ? NotationStyle::ChineseTraditional : NotationStyle::Chinese;
    return !chinese_text.empty() && chinese_matches(pos, m, chinese_text);
  };
  // Failing every spelling, WXF and Chinese text naming a piece by its file, where another like it
  // stands there too ("C5+5" for the front or the rear cannon): the legal moves tell which.
  auto named_by_file = [&](Move m, NotationStyle& style) {
    if (passing || m.is_pass() || m.type() == MoveType::Drop) return false;
    const std::string plain = plain_wxf(pos, m);
    style = traditional_script(text) ? NotationStyle::ChineseTraditional : NotationStyle::Chinese;
    if (!chinese_text.empty() && plain == chinese_text) return true;
    style = NotationStyle::Wxf;
    return plain == wxf_text;
  };
  std::vector<Move> found;
  NotationStyle style = NotationStyle::Coordinates;
  for (int by_file = 0; by_file < 2 && found.empty(); ++by_file)
    for (const Move m : legal)
      if (NotationStyle named = NotationStyle::Coordinates; by_file ? named_by_file(m, named) : named_in(m, named)) {
        if (found.empty()) style = named;
        found.push_back(m);
      }
  if (found.size() == 1) return found.front();
  if (found.size() > 1) {
    std::vector<std::string> spellings;
    for (const Move m : found) spellings.push_back(write(pos, m, style));
    const bool by_file = style == NotationStyle::Wxf || style == NotationStyle::Chinese || style == NotationStyle::ChineseTraditional;
    why = ambiguity(pos, input, found, spellings, by_file);
    ambiguous = true;
    return Move();
  }
  why = quote(input) + (san_like || passing || !chinese_text.empty() ? " is not a legal move here" : " is not a move");
  return Move();
}

// "73졸74" with any of the piece's names, hanja included ("79卒78"), as records write it: the mover's
// side word may stand before the name ("41漢兵42"), the piece taken after the destination, with or
// without a capture word ("66馬78卒", "09차49타졸"), and squares may be written as a file letter and a
// rank counted from 0 at the first side's back rank ("i3卒h3").
bool MoveNotation::korean_matches(const Position& pos, Move m, std::string_view text) const {
  std::size_t at = 0;
  if (!take_square(text, at, m.from())) return false;
  const std::size_t name_begin = at;
  if (at < text.size() && is_upper(text[at]))
    ++at;  // a piece letter
  else
    while (at < text.size() && static_cast<unsigned char>(text[at]) >= 0x80) ++at;
  const std::string_view name = text.substr(name_begin, at - name_begin);
  if (!take_square(text, at, m.to())) return false;
  const Side us = pos.side_to_move();
  if (!names_piece(name, kind_of(pos.at(m.from())), us)) return false;
  std::string_view taken = text.substr(at);
  if (taken.empty()) return true;
  for (const std::string& word : rules_.capture_words)
    if (!word.empty() && taken.substr(0, word.size()) == word) taken.remove_prefix(word.size());
  const Piece victim = pos.at(m.to());
  return victim != NoPiece && names_piece(taken, kind_of(victim), opponent(us));
}

// Reads the square `s` at text[at] in the Korean numeric notation ("79", 10 written 0) or as a file
// letter and a rank from 0 ("i3"), and moves `at` past it.
bool MoveNotation::take_square(std::string_view text, std::size_t& at, Point s) const {
  if (at + 2 > text.size() || !is_digit(text[at + 1])) return false;
  const std::string_view square = text.substr(at, 2);
  if (square != (is_digit(square[0]) ? numeric_square(s) : zero_based_square(s))) return false;
  at += 2;
  return true;
}

std::string MoveNotation::zero_based_square(Point s) const {
  const BoardDef& board = variant_.board();
  const bool up = variant_.rules().sides[0].forward > 0;
  const int rank = up ? board.rank_of(s) : board.ranks - 1 - board.rank_of(s);
  std::string out(1, char('a' + board.file_of(s)));  // appended, not added: GCC 12 warns falsely (-Wrestrict)
  out += std::to_string(rank % 10);
  return out;
}

// Whether `name` names a piece of `kind` of `side`: one of its names or its letter, perhaps after
// one of the side's words.
bool MoveNotation::names_piece(std::string_view name, Kind kind, Side side) const {
  const auto& names = rules_.names[std::size_t(kind)];
  auto is_name = [&](std::string_view n) {
    if (n.empty()) return false;
    if (n == names[0] || n == names[1] || (n.size() == 1 && n[0] == rules_.letters[std::size_t(kind)])) return true;
    for (const auto& [also, k] : rules_.also_names)
      if (k == kind && n == also) return true;
    return false;
  };
  if (is_name(name)) return true;
  for (const std::string& word : rules_.side_words[std::size_t(side)])
    if (!word.empty() && name.substr(0, word.size()) == word && is_name(name.substr(word.size()))) return true;
  return false;
}

// The points a Korean numeric text ("12馬34", "i3卒h3") names, whatever else it says.
bool MoveNotation::korean_points(std::string_view text, Point& from, Point& to) const {
  const BoardDef& board = variant_.board();
  auto point = [&](std::size_t& at) {
    for (int f = 0; f < board.files; ++f)
      for (int r = 0; r < board.ranks; ++r) {
        std::size_t after = at;
        if (take_square(text, after, board.square(f, r))) {
          at = after;
          return board.square(f, r);
        }
      }
    return NoPoint;
  };
  std::size_t at = 0;
  from = point(at);
  if (from == NoPoint) return false;
  const std::size_t name = at;
  while (at < text.size() && static_cast<unsigned char>(text[at]) >= 0x80) ++at;
  if (at == name) return false;
  to = point(at);
  return to != NoPoint;
}

bool MoveNotation::intended(const Position& pos, std::string_view text, Point& from, Point& to) const {
  if (const std::string key = chinese_key(narrow_full_width(text)); !key.empty()) return chinese_intended(pos, key, from, to);
  if (korean_points(text, from, to)) return true;
  SanParts parts;
  // Without a piece letter only the unlettered kind is meant: a pawn's move, from its own file
  // unless the text says which. Letterless text in other games is coordinates, explained elsewhere.
  if (!parse_san(text, parts) || parts.castling || (parts.kind < 0 && rules_.unlettered < 0)) return false;
  const BoardDef& board = variant_.board();
  if (parts.kind < 0 && parts.from_file < 0) parts.from_file = board.file_of(parts.to);
  const Side us = pos.side_to_move();
  to = parts.to;
  from = NoPoint;
  for (int i = 0; i < pos.piece_count(us) && from == NoPoint; ++i) {
    const Point s = pos.piece_square(us, i);
    if (kind_fits(kind_of(pos.at(s)), parts) && (parts.from_file < 0 || board.file_of(s) == parts.from_file) &&
        (parts.from_rank < 0 || board.rank_of(s) == parts.from_rank))
      from = s;
  }
  return from != NoPoint;
}

}  // namespace palace
