#include "game/game.h"

#include <algorithm>
#include <cctype>

#include "core/text.h"
#include "game/evaluator.h"
#include "game/explain.h"
#include "movegen/movegen.h"
#include "movetext/notation.h"

namespace palace {

Game::Game(std::shared_ptr<const Variant> variant)
    : position_(variant), move_example_(example_move(variant)), start_fen_(position_.fen()) {
  work_out_ply();
}

void Game::set_fen(const std::string& fen, FenRights rights) {
  set_played_fen(position_, fen, rights);
  start_fen_ = position_.fen();
  history_.clear();
  last_refusal_.clear();
  work_out_ply();
}

void Game::work_out_ply() {
  MoveList list;
  generate_legal(position_, list);
  // Movegen does not know the rules about the game's history: a move they refuse is not legal.
  legal_.clear();
  for (const Move m : list)
    if (!judge_move(position_, m).refused) legal_.push_back(m);
  state_ = judge(position_, int(legal_.size()));
  claimed_ = false;
  // Movegen does not know every end (repetition, move limit, ...): a finished game has no moves.
  if (state_.finished()) legal_.clear();
}

bool Game::claim_draw() {
  if (state_.claimable == Termination::None) return false;
  const Termination claimed = state_.claimable;
  state_ = Verdict{};
  state_.termination = claimed;
  legal_.clear();
  claimed_ = true;
  return true;
}

MoveVerdict Game::refuse(std::string reason) {
  // An empty reason would read as an acceptance; explain() only returns one for a legal move.
  last_refusal_ = reason.empty() ? UnexplainedRefusal : std::move(reason);
  return {false, last_refusal_};
}

MoveVerdict Game::try_move(Point from, Point to, Kind promotion_kind) {
  if (state_.finished()) return refuse("the game is over: " + verdict());
  const bool passing = from == to;
  for (const Move m : legal_) {
    const bool match = passing ? m.is_pass()
                               : !m.is_pass() && m.from() == from && m.to() == to && m.promotion_kind() == promotion_kind;
    if (match) return play_legal(m);
  }
  return refuse(explain_move(position_, from, to, promotion_kind));
}

MoveVerdict Game::play_legal(Move m) {
  if (state_.finished()) return refuse("the game is over: " + verdict());
  position_.do_move(m);
  history_.push_back(m);
  last_refusal_.clear();
  work_out_ply();
  return {true, ""};
}

// "p@e4", lower-cased: a drop movegen did not offer, refused with the rule it breaks.
MoveVerdict Game::try_drop(const std::string& text) {
  if (state_.finished()) return refuse("the game is over: " + verdict());
  const Point to = variant().board().parse_point(text.substr(2));
  const Kind kind = variant().rules().kind_by_letter(char(std::toupper(static_cast<unsigned char>(text[0]))));
  if (!variant().has_hands()) return refuse("this variant has no drops");
  if (kind < 0 || to == NoPoint) return refuse(quote(text) + " is not a drop (expected a piece letter, @ and a point, like P@e4)");
  return refuse(explain_drop(position_, kind, to));
}

bool Game::make_move(Point from, Point to, Kind promotion_kind) { return try_move(from, to, promotion_kind).accepted; }

bool Game::pass() { return try_move(NoPoint, NoPoint, NoKind).accepted; }

MoveVerdict Game::play(const std::string& move_text) {
  // Any notation names a move (movetext/notation.h); coordinates are parsed below only to say why
  // text that names no legal move is refused.
  const MoveNotation notation(variant());
  std::string why;
  MoveNotation::Unread unread = MoveNotation::Unread::NoMove;
  if (const Move m = notation.read(position_, move_text, why, &unread)) {
    if (m.type() == MoveType::Drop) return play_legal(m);  // read() returns legal moves only
    return m.is_pass() ? try_move(NoPoint, NoPoint, NoKind) : try_move(m.from(), m.to(), m.promotion_kind());
  }
  if (unread == MoveNotation::Unread::Ambiguous) return refuse(state_.finished() ? "the game is over: " + verdict() : why);
  // A move of the side not to move is refused for that, before any reading of its points would
  // blame the piece on them.
  if (unread == MoveNotation::Unread::WrongTurn && !state_.finished()) return refuse(why);
  Point intended_from = NoPoint, intended_to = NoPoint;
  if (notation.intended(position_, move_text, intended_from, intended_to)) {
    if (state_.finished()) return try_move(intended_from, intended_to, NoKind);  // which says so
    const std::string reason = explain_move(position_, intended_from, intended_to);
    return refuse(reason.empty() ? why : reason);  // empty: that move is legal, the text was not ("Nd2" of two)
  }

  std::string text;
  for (const char c : move_text)
    if (!std::isspace(static_cast<unsigned char>(c))) text += char(std::tolower(static_cast<unsigned char>(c)));
  if (notation.names_pass(move_text)) {
    // A null move ("--") where no pass is legal: said as a pass, so the reason reads as one.
    const MoveVerdict verdict = try_move(NoPoint, NoPoint, NoKind);
    return verdict.accepted || text == "pass" ? verdict : refuse(quote(move_text) + " is a pass: " + verdict.reason);
  }
  // Drops, and promotions told apart only by their text ("e7e8+", or a kind sharing a letter).
  for (const Move m : legal_) {
    std::string legal_text = position_.move_text(m);
    for (char& c : legal_text) c = char(std::tolower(static_cast<unsigned char>(c)));
    if (legal_text == text) return play_legal(m);
  }
  if (text.size() > 2 && text[1] == '@' && std::isalpha(static_cast<unsigned char>(text[0]))) return try_drop(text);

  const BoardDef& board = variant().board();
  std::size_t i = 0;
  bool well_formed = true;
  std::string off_board;
  // A square is a file letter and a rank number; the digits run until the next letter.
  auto read_square = [&]() -> Point {
    const std::size_t start = i;
    if (i < text.size() && std::isalpha(static_cast<unsigned char>(text[i]))) ++i;
    const std::size_t digits = i;
    while (i < text.size() && std::isdigit(static_cast<unsigned char>(text[i]))) ++i;
    if (digits == start || i == digits) {
      well_formed = false;
      return NoPoint;
    }
    const Point s = board.parse_point(text.substr(start, i - start));
    if (s == NoPoint && off_board.empty()) off_board = text.substr(start, i - start);
    return s;
  };
  const Point from = read_square();
  const Point to = read_square();
  Kind promotion_kind = NoKind;
  if (i + 1 == text.size() && text[i] == '+' && from != NoPoint && position_.at(from)) {
    for (const Kind k : variant().promotion_kinds(kind_of(position_.at(from))))
      if (variant().promotion_suffix(k) == "+") promotion_kind = k;
    well_formed = well_formed && promotion_kind >= 0;
  } else if (i + 1 == text.size()) {
    promotion_kind = variant().rules().kind_by_letter(char(std::toupper(static_cast<unsigned char>(text[i]))));
    well_formed = well_formed && promotion_kind >= 0;
  } else if (i != text.size()) {
    well_formed = false;
  }
  if (!well_formed) {
    const bool may_pass = variant().move_rules().pass != PassRule::Never;
    return refuse(quote(move_text) + " is not a move (expected squares like " + move_example_ + (may_pass ? ", or pass)" : ")"));
  }
  if (!off_board.empty()) return refuse(quote(off_board) + " is not a point of this board");
  return try_move(from, to, promotion_kind);
}

std::vector<Move> Game::board_moves() const {
  MoveList list;
  generate_legal(position_, list);
  return {list.begin(), list.end()};
}

MoveVerdict Game::play_on(const std::string& move_text) {
  std::vector<Move> board = board_moves();
  if (board.empty()) return play(move_text);
  const std::vector<Move> legal = legal_;
  const Verdict state = state_;
  // The board's moves, none held back for the history, and no ruling in the way.
  legal_ = std::move(board);
  state_ = Verdict{};
  const MoveVerdict verdict = play(move_text);
  if (!verdict.accepted) {
    legal_ = legal;
    state_ = state;
  }
  return verdict;
}

bool Game::undo() {
  if (history_.empty()) return false;
  position_.undo_move();
  history_.pop_back();
  work_out_ply();
  return true;
}

std::vector<std::string> Game::history_texts() const {
  std::vector<std::string> texts;
  for (const Move m : history_) texts.push_back(position_.move_text(m));
  return texts;
}

std::string Game::verdict() const {
  const std::string why = explanation();
  return state_.str(variant()) + (why.empty() ? "" : " (" + why + ")");
}

bool Game::is_in_check(Side side) const { return royal_attacked(position_, side); }

std::vector<Point> Game::destinations(Point from) const {
  std::vector<Point> out;
  for (const Move m : legal_moves())
    if (!m.is_pass() && m.type() != MoveType::Drop && m.from() == from && std::find(out.begin(), out.end(), m.to()) == out.end())
      out.push_back(m.to());
  std::sort(out.begin(), out.end());
  return out;
}

std::string Game::explain(Point from, Point to, Kind promotion_kind) const {
  if (state_.finished()) return "the game is over: " + verdict();
  return explain_move(position_, from, to, promotion_kind);
}

}  // namespace palace
