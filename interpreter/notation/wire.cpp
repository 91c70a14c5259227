#include "notation/wire.h"

#include <algorithm>
#include <cctype>
#include <filesystem>
#include <sstream>
#include <vector>

#include "core/text.h"
#include "loader/rule_set.h"
#include "movegen/movegen.h"
#include "movetext/usi.h"

namespace palace {

WireNotation::WireNotation(const Variant& variant, WireStyle style)
    : variant_(variant),
      style_(style),
      name_(variant.rules().uci.variant.empty() ? variant.rules().name : variant.rules().uci.variant),
      mirror_(variant.rules().uci.mirror_ranks),
      pass_(variant.rules().uci.pass) {}

const std::string& WireNotation::xboard_name() const {
  const std::string& xboard = variant_.rules().uci.xboard;
  return xboard.empty() ? name_ : xboard;
}

std::string WireNotation::square(Point s) const {
  const BoardDef& board = variant_.board();
  const int file = board.file_of(s), rank = mirror_ ? board.ranks - 1 - board.rank_of(s) : board.rank_of(s);
  switch (style_) {
    case WireStyle::Usi:
      return std::to_string(board.files - file) + char('a' + board.ranks - 1 - rank);
    case WireStyle::Iccs:
      return char('a' + file) + std::to_string(rank);
    case WireStyle::XBoard:
      return char('a' + file) + std::to_string(rank + (board.ranks == 10 ? 0 : 1));
    case WireStyle::Uci:
      break;
  }
  return board.point_name(board.square(file, rank));
}

Point WireNotation::parse_point(std::string_view text) const {
  const BoardDef& board = variant_.board();
  Point s = NoPoint;
  if (style_ == WireStyle::Uci) {
    s = board.parse_point(std::string(text));
  } else {
    // A file and a rank each, one of them a letter and the other a number.
    const bool usi = style_ == WireStyle::Usi;
    const std::string_view number = usi ? text.substr(0, text.size() - 1) : text.substr(1);
    const char letter = usi ? (text.empty() ? 0 : text.back()) : (text.empty() ? 0 : text.front());
    if (number.empty() || number.size() > 2 || letter < 'a' || letter > 'z' ||
        !std::all_of(number.begin(), number.end(), [](char c) { return c >= '0' && c <= '9'; }))
      return NoPoint;
    const int n = std::stoi(std::string(number));
    const int first = style_ == WireStyle::XBoard && board.ranks != 10 ? 1 : 0;
    const int file = usi ? board.files - n : letter - 'a';
    const int rank = usi ? board.ranks - 1 - (letter - 'a') : n - first;
    if (file < 0 || file >= board.files || rank < 0 || rank >= board.ranks) return NoPoint;
    s = board.square(file, rank);
  }
  if (s == NoPoint || !mirror_) return s;
  return board.square(board.file_of(s), board.ranks - 1 - board.rank_of(s));
}

std::string WireNotation::move(const Position& pos, Move m) const {
  if (m.is_pass()) {
    const Point royal = pos.royal(pos.side_to_move());
    return pass_ == WirePass::RoyalPoint && royal != NoPoint ? square(royal) + square(royal) : "0000";
  }
  const bool usi = style_ == WireStyle::Usi;
  if (m.type() == MoveType::Drop) {
    std::string text = variant_.drop_prefix(m.drop_kind());  // "P@"; USI writes "P*"
    if (usi) text.back() = '*';
    return text + square(m.to());
  }
  std::string text = square(m.from()) + square(m.to());
  if (m.promotion_kind() >= 0) text += usi ? "+" : variant_.promotion_suffix(m.promotion_kind());
  return text;
}

Move WireNotation::parse_move(Position& pos, std::string_view text, std::string& why) const {
  MoveList legal;
  generate_legal(pos, legal);
  // Drops and promotions to kinds that share a letter are told apart only by the whole text.
  for (const Move m : legal)
    if (!m.is_pass() && move(pos, m) == text) return m;
  // The other protocols' moves have one spelling each, so a text matching none of them is refused.
  if (style_ != WireStyle::Uci) {
    why = palace::quote(text) + " is not a legal move here";
    return Move();
  }
  // A square is a file letter and a rank number, so the from-square ends where the next letter starts.
  std::size_t split = 1;
  while (split < text.size() && std::isdigit(static_cast<unsigned char>(text[split]))) ++split;
  std::size_t end = split + 1;
  while (end < text.size() && std::isdigit(static_cast<unsigned char>(text[end]))) ++end;
  const bool null_move = text == "0000";
  const Point from = null_move ? NoPoint : parse_point(text.substr(0, split));
  const Point to = null_move || end > text.size() ? NoPoint : parse_point(text.substr(split, end - split));
  int promotion = -1;
  if (!null_move && end + 1 == text.size())
    promotion = variant_.rules().kind_by_letter(char(std::toupper(static_cast<unsigned char>(text[end]))));
  if (!null_move && (from == NoPoint || to == NoPoint || (end != text.size() && promotion < 0))) {
    why = palace::quote(text) + " is not a move";
    return Move();
  }
  // Nothing moves from a point to itself, so that spelling is free to mean a pass.
  const bool passing = null_move || from == to;
  for (const Move m : legal) {
    const bool match = passing ? m.is_pass()
                               : !m.is_pass() && m.from() == from && m.to() == to && m.promotion_kind() == promotion;
    if (match) return m;
  }
  why = palace::quote(text) + " is not a legal move here";
  return Move();
}

std::string WireNotation::fen(const std::string& fen) const {
  if (!mirror_) return fen;
  std::istringstream in(fen);
  std::vector<std::string> fields;
  for (std::string field; in >> field;) fields.push_back(field);
  if (fields.empty()) return fen;
  std::vector<std::string> ranks;
  std::istringstream board(fields[0]);
  for (std::string rank; std::getline(board, rank, '/');) ranks.push_back(rank);
  std::string mirrored;
  for (auto r = ranks.rbegin(); r != ranks.rend(); ++r) mirrored += (mirrored.empty() ? "" : "/") + *r;
  fields[0] = mirrored;
  // The en-passant point, where a variant has one, is a square like any other.
  if (fields.size() > 3 && fields[3] != "-") {
    const Point s = parse_point(fields[3]);
    if (s != NoPoint) fields[3] = variant_.board().point_name(s);
  }
  std::string out;
  for (const auto& f : fields) out += (out.empty() ? "" : " ") + f;
  return out;
}

std::string WireNotation::position_text(const std::string& palace_fen) const {
  return style_ == WireStyle::Usi ? sfen_from_fen(palace_fen) : fen(palace_fen);
}

std::string WireNotation::palace_fen(const std::string& text) const {
  return style_ == WireStyle::Usi ? fen_from_sfen(text) : fen(text);
}

std::vector<WireEntry> wire_catalogue(const std::string& folder, const std::string& own) {
  std::error_code error;
  std::vector<std::filesystem::path> files;
  for (const auto& entry : std::filesystem::directory_iterator(folder, error))
    if (entry.path().extension() == ".yaml") files.push_back(entry.path());
  std::sort(files.begin(), files.end());
  if (!own.empty()) files.insert(files.begin(), own);
  std::vector<WireEntry> entries;
  for (const auto& file : files) {
    try {
      const RuleSet rules = load_rules(file.string());
      const std::string name = rules.uci.variant.empty() ? rules.name : rules.uci.variant;
      entries.push_back({name, rules.uci.xboard.empty() ? name : rules.uci.xboard, file.string()});
    } catch (const Error&) {
    }
  }
  std::stable_sort(entries.begin(), entries.end(), [](const WireEntry& a, const WireEntry& b) { return a.name < b.name; });
  entries.erase(std::unique(entries.begin(), entries.end(), [](const WireEntry& a, const WireEntry& b) { return a.name == b.name; }),
                entries.end());
  return entries;
}

}  // namespace palace
