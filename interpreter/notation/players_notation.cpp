#include "notation/players_notation.h"

#include <algorithm>

#include "movegen/movegen.h"
#include "movetext/usi.h"
#include "notation/kif.h"
#include "notation/shogi_record.h"

namespace palace {

namespace {

bool any_named(const std::vector<std::vector<std::string>>& names) {
  return std::any_of(names.begin(), names.end(), [](const auto& n) { return !n.empty(); });
}

bool any_named(const std::vector<std::array<std::string, 2>>& names) {
  return std::any_of(names.begin(), names.end(), [](const auto& n) { return !n[0].empty() || !n[1].empty(); });
}

bool ascii(std::string_view text) {
  return std::all_of(text.begin(), text.end(), [](char c) { return static_cast<unsigned char>(c) < 0x80; });
}

}  // namespace

PlayersNotation::PlayersNotation(const Variant& variant) : variant_(variant), notation_(variant) {
  const NotationRules& rules = variant.rules().notation;
  japanese_ = rules.shogi_squares && any_named(rules.kif_names);
  style_ = any_named(rules.chinese_traditional) ? NotationStyle::ChineseTraditional
           : any_named(rules.names)            ? NotationStyle::Korean
                                               : rules.native;
}

std::string PlayersNotation::name() const { return japanese_ ? "kif" : notation_style_name(style_); }

std::string PlayersNotation::write(Position& pos, Move m) const {
  if (japanese_ && !m.is_pass()) {
    MoveList list;
    generate_legal(pos, list);
    const std::vector<Move> legal(list.begin(), list.end());
    const Move last = pos.plies_recorded() > 0 ? pos.state().move : Move();
    const Point previous_to = last && !last.is_pass() ? last.to() : NoPoint;
    return (pos.side_to_move() == First ? "☗" : "☖") + kif_move_text(pos, legal, previous_to, m);
  }
  const std::string text = notation_.write(pos, m, style_);
  return style_ == NotationStyle::Korean ? korean_by_face(pos, m, text) : text;
}

std::string PlayersNotation::korean_by_face(const Position& pos, Move m, std::string text) const {
  // The text is the origin's two digits, the piece's name, the destination's two digits.
  if (m.is_pass() || m.type() == MoveType::Drop || text.size() < 5) return text;
  const Piece piece = pos.at(m.from());
  const std::string& face = variant_.rules().pieces[std::size_t(kind_of(piece))].face[side_of(piece)];
  const auto& also = variant_.rules().notation.also_names;
  const bool read = std::any_of(also.begin(), also.end(), [&](const auto& a) { return a.first == face && a.second == kind_of(piece); });
  return read ? text.substr(0, 2) + face + text.substr(text.size() - 2) : text;
}

Move PlayersNotation::read(const Game& game, std::string_view text, std::string& why) const {
  if (!japanese_ || ascii(text)) return Move();
  return kif_move(game, text, why);
}

// Japanese boards number files from the first side's right and ranks in kanji from the far edge;
// the Korean numeric notation's squares are digits, files from the first side's left and ranks as
// the board counts them, 10 written 0.
std::vector<std::string> PlayersNotation::file_labels() const {
  const BoardDef& board = variant_.board();
  std::vector<std::string> labels;
  const bool korean = !japanese_ && style_ == NotationStyle::Korean;
  if ((!japanese_ && !korean) || board.files > 9) return labels;
  for (int f = 0; f < board.files; ++f) labels.push_back(std::to_string(japanese_ ? shogi_file(board, board.square(f, 0)) : f + 1));
  return labels;
}

std::vector<std::string> PlayersNotation::rank_labels() const {
  const BoardDef& board = variant_.board();
  std::vector<std::string> labels;
  const bool korean = !japanese_ && style_ == NotationStyle::Korean;
  if (japanese_ && board.ranks <= 9)
    for (int r = 0; r < board.ranks; ++r) labels.push_back(kanji_digit(shogi_rank(board, board.square(0, r))));
  if (korean && board.ranks <= 10)
    for (int r = 0; r < board.ranks; ++r) labels.push_back(std::to_string((r + 1) % 10));
  return labels;
}

std::vector<std::vector<std::string>> PlayersNotation::side_file_labels() const {
  const BoardDef& board = variant_.board();
  std::vector<std::vector<std::string>> labels;
  const bool chinese = style_ == NotationStyle::Chinese || style_ == NotationStyle::ChineseTraditional;
  if ((!chinese && style_ != NotationStyle::Wxf) || board.files > 9) return labels;
  for (Side side : {First, Second}) {
    labels.emplace_back();
    for (int f = 0; f < board.files; ++f)
      labels.back().push_back(chinese ? notation_.chinese_file(side, f) : std::to_string(notation_.file_from_right(side, f)));
  }
  return labels;
}

}  // namespace palace
