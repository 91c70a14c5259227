#include "notation/csa.h"

#include <algorithm>
#include <cctype>

#include "core/text.h"
#include "movetext/usi.h"
#include "notation/encoding.h"
#include "notation/replay.h"
#include "notation/shogi_record.h"

namespace palace {

namespace {

constexpr const char* PositionTag = "CsaPosition";  // the position lines, ";" between them, until set up
constexpr std::pair<const char*, const char*> InfoNames[] = {{"EVENT", "Event"}, {"SITE", "Site"}, {"START_TIME", "Date"}};
constexpr char SideSigns[SideCount] = {'+', '-'};

bool is_digit(char c) { return std::isdigit(static_cast<unsigned char>(c)); }

bool is_move(std::string_view text) {
  return text.size() == 7 && (text[0] == '+' || text[0] == '-') && std::all_of(text.begin() + 1, text.begin() + 5, is_digit) &&
         std::isupper(static_cast<unsigned char>(text[5])) && std::isupper(static_cast<unsigned char>(text[6]));
}

struct CsaReader {
  std::vector<GameRecord> games;
  GameRecord game;
  std::string position;
  int first = 0;  // the side to move at the start
  bool any = false;

  int to_move() const { return int((game.moves.size() + std::size_t(first)) % 2); }

  void statement(std::string text, int line) {
    while (!text.empty() && std::isspace(static_cast<unsigned char>(text.back()))) text.pop_back();
    if (text.empty() || text[0] == '\'' || text[0] == 'T' || text[0] == 'V') return;
    any = true;
    if (text.size() >= 2 && text[0] == 'N' && (text[1] == '+' || text[1] == '-')) {
      game.set_tag(text[1] == '+' ? "White" : "Black", text.substr(2));
    } else if (text[0] == '$') {
      const std::size_t colon = text.find(':');
      std::string key = text.substr(1, colon == std::string::npos ? std::string::npos : colon - 1);
      std::string value = colon == std::string::npos ? "" : text.substr(colon + 1);
      for (const auto& [csa, pgn] : InfoNames)
        if (key == csa) key = pgn;
      if (key == "Date" && value.size() >= 10) std::replace(value.begin(), value.begin() + 10, '/', '.');
      if (game.tags.size() >= MaxHeaderTags && !game.tag(key)) {
        if (game.problem.empty()) game.problem = "line " + std::to_string(line) + ": more than " + std::to_string(MaxHeaderTags) + " header lines";
        return;
      }
      game.set_tag(key, key == "Date" ? value.substr(0, 10) : value);
    } else if (text[0] == 'P' || ((text == "+" || text == "-") && game.moves.empty())) {
      if (text == "+" || text == "-") first = text == "-";
      position += (position.empty() ? "" : ";") + text;
    } else if (is_move(text)) {
      if (!game.terminated) game.moves.push_back(text);
    } else if (text[0] == '%') {
      if (game.terminated) return;
      const ShogiEnding* ending = ending_by_csa(text);
      if (text == "%+ILLEGAL_ACTION" || text == "%-ILLEGAL_ACTION") {
        game.result = text[1] == '+' ? "0-1" : "1-0";
        game.set_tag("Termination", "illegal move");
      } else if (ending) {
        game.result = ending_result(*ending, to_move());
        game.set_tag("Termination", ending->name);
      } else if (game.problem.empty()) {
        game.problem = "line " + std::to_string(line) + ": " + quote(text) + " is no CSA ending";
      }
      game.terminated = true;
    } else if (game.problem.empty()) {
      game.problem = "line " + std::to_string(line) + ": " + quote(text) + " is no CSA statement";
    }
  }

  void finish(int next_line) {
    if (any) {
      if (!position.empty()) game.set_tag(PositionTag, position);
      game.set_tag("Format", "CSA");
      games.push_back(std::move(game));
    }
    game = GameRecord();
    game.line = next_line;
    position.clear();
    first = 0;
    any = false;
  }
};

}  // namespace

std::vector<GameRecord> read_csa(std::string_view bytes) {
  const std::string text = utf8_text(bytes, {"cp932", "euc-jp"});
  CsaReader r;
  int number = 0;
  std::size_t start = 0;
  while (start < text.size()) {
    std::size_t end = text.find('\n', start);
    if (end == std::string::npos) end = text.size();
    std::string line = text.substr(start, end - start);
    start = end + 1;
    ++number;
    while (!line.empty() && std::isspace(static_cast<unsigned char>(line.back()))) line.pop_back();
    if (line == "/") {
      r.finish(number + 1);
      continue;
    }
    // Several statements may share a line ("+7776FU,T12"), except comments and information.
    if (line.empty() || line[0] == '\'' || line[0] == '$' || line[0] == 'N' || line[0] == 'P') {
      r.statement(line, number);
      continue;
    }
    std::size_t from = 0;
    while (from <= line.size()) {
      std::size_t comma = line.find(',', from);
      if (comma == std::string::npos) comma = line.size();
      r.statement(line.substr(from, comma - from), number);
      from = comma + 1;
    }
  }
  r.finish(number + 1);
  return std::move(r.games);
}

namespace {

Point csa_square(const BoardDef& board, char file, char rank) { return shogi_square(board, file - '0', rank - '0'); }

}  // namespace

Move csa_move(const Game& game, std::string_view text, std::string& why) {
  const Position& pos = game.position();
  const Variant& variant = game.variant();
  const BoardDef& board = variant.board();
  const Side side = pos.side_to_move();
  if (!is_move(text)) {
    why = quote(text) + " is not a CSA move";
    return Move();
  }
  if (text[0] != SideSigns[side]) {
    why = quote(text) + " is " + variant.side_name(opponent(side)) + "'s move, but " + variant.side_name(side) + " is to move";
    return Move();
  }
  const Kind kind = kind_by_csa(variant, text.substr(5, 2));
  const bool drop = text.substr(1, 2) == "00";
  const Point from = drop ? NoPoint : csa_square(board, text[1], text[2]);
  const Point to = csa_square(board, text[3], text[4]);
  if (kind < 0 || to == NoPoint || (!drop && from == NoPoint)) {
    why = quote(text) + (kind < 0 ? " names no piece of " + variant.rules().name + " (notation: csa:)" : " names no square of this board");
    return Move();
  }
  for (const Move m : game.board_moves()) {
    if (m.is_pass() || m.to() != to) continue;
    if (drop ? m.drop_kind() == kind
             : m.type() != MoveType::Drop && m.from() == from &&
                   (m.promotion_kind() >= 0 ? m.promotion_kind() : kind_of(pos.at(from))) == kind)
      return m;
  }
  why = quote(text) + " is not a legal move here";
  return Move();
}

std::string csa_start(const GameRecord& record, const std::shared_ptr<const Variant>& variant_ptr) {
  const Variant& variant = *variant_ptr;
  const std::string* lines = record.tag(PositionTag);
  if (!lines) return "";
  const BoardDef& board = variant.board();
  const Position set_up(variant_ptr);
  ShogiSetup setup = empty_setup(variant);
  auto piece = [&](std::string_view code) {
    const Kind kind = kind_by_csa(variant, code);
    if (kind < 0) throw RecordError(quote(code) + " is no piece of " + variant.rules().name + " (notation: csa:)");
    return kind;
  };
  auto at = [&](int file, int rank) -> Piece& {
    if (file < 1 || file > board.files || rank < 1 || rank > board.ranks)
      throw RecordError("the position names a square off the board");
    return setup.squares[std::size_t((rank - 1) * board.files + file - 1)];
  };
  std::size_t start = 0;
  while (start <= lines->size()) {
    std::size_t end = lines->find(';', start);
    if (end == std::string::npos) end = lines->size();
    const std::string line = lines->substr(start, end - start);
    start = end + 1;
    if (line == "+" || line == "-") {
      setup.to_move = Side(line == "-");
    } else if (line.rfind("PI", 0) == 0) {
      setup = position_setup(set_up);
      for (std::size_t i = 2; i + 4 <= line.size(); i += 4) {
        Piece& p = at(line[i] - '0', line[i + 1] - '0');
        if (p == NoPiece || kind_of(p) != piece(line.substr(i + 2, 2))) throw RecordError(quote(line) + " takes away a piece the set-up does not have");
        p = NoPiece;
      }
    } else if (line.size() >= 2 && (line[1] == '+' || line[1] == '-')) {
      const Side side = Side(line[1] == '-');
      for (std::size_t i = 2; i + 4 <= line.size(); i += 4) {
        const std::string code = line.substr(i + 2, 2);
        if (code == "AL") throw RecordError(quote(line) + ": \"AL\" (every piece left) is not read");
        if (line.substr(i, 2) == "00")
          setup.hands[side].push_back(piece(code));
        else
          at(line[i] - '0', line[i + 1] - '0') = make_piece(side, piece(code));
      }
    } else if (line.size() >= 2 && is_digit(line[1])) {
      const int rank = line[1] - '0';
      std::string row = line;  // its last empty square " * " may have lost its trailing space
      row.resize(std::max(row.size(), std::size_t(2 + 3 * board.files)), ' ');
      for (int file = board.files, i = 2; file >= 1; --file, i += 3) {
        const std::string cell = row.substr(std::size_t(i), 3);
        if (cell != " * " && cell[0] != '+' && cell[0] != '-') throw RecordError(quote(line) + " has " + quote(cell) + ", no CSA square");
        if (cell[0] == '+' || cell[0] == '-') at(file, rank) = make_piece(Side(cell[0] == '-'), piece(cell.substr(1)));
      }
    } else {
      throw RecordError(quote(line) + " is no CSA position line");
    }
  }
  const std::string fen = setup_fen(variant, setup);
  return fen == setup_fen(variant, position_setup(set_up)) ? "" : fen;
}

std::string write_csa(const GameRecord& record, const Game& game) {
  const Variant& variant = game.variant();
  const BoardDef& board = variant.board();
  std::string out = "V2.2\n";
  auto line = [&](const std::string& head, const std::string* value) {
    if (value && !value->empty() && *value != "?") out += head + *value + "\n";
  };
  line("N+", record.tag("White"));
  line("N-", record.tag("Black"));
  line("$EVENT:", record.tag("Event"));
  line("$SITE:", record.tag("Site"));
  if (const std::string* date = record.tag("Date")) {
    std::string d = *date;
    std::replace(d.begin(), d.end(), '.', '/');
    if (d.find('?') == std::string::npos) line("$START_TIME:", &d);
  }
  Position start(game.variant_ptr());
  const std::string setup = start.fen();
  start.set_fen(game.start_fen());
  const ShogiSetup s = position_setup(start);
  if (start.fen() == setup) {
    out += "PI\n";
  } else {
    for (int rank = 1; rank <= board.ranks; ++rank) {
      out += "P" + std::to_string(rank);
      for (int file = board.files; file >= 1; --file) {
        const Piece p = s.squares[std::size_t((rank - 1) * board.files + file - 1)];
        out += p == NoPiece ? " * " : SideSigns[side_of(p)] + csa_name(variant, kind_of(p));
      }
      out += "\n";
    }
    for (Side side = First; side < SideCount; ++side) {
      if (s.hands[side].empty()) continue;
      out += std::string("P") + SideSigns[side];
      for (const Kind kind : s.hands[side]) out += "00" + csa_name(variant, kind);
      out += "\n";
    }
  }
  out += std::string(1, SideSigns[s.to_move]) + "\n";
  Game replay(game.variant_ptr());
  replay.set_fen(game.start_fen());
  for (const Move m : game.history()) {
    const Position& pos = replay.position();
    const bool drop = m.type() == MoveType::Drop;
    const Kind kind = drop ? m.drop_kind() : m.promotion_kind() >= 0 ? m.promotion_kind() : kind_of(pos.at(m.from()));
    auto square = [&](Point sq) { return std::to_string(shogi_file(board, sq)) + std::to_string(shogi_rank(board, sq)); };
    out += SideSigns[pos.side_to_move()] + (drop ? std::string("00") : square(m.from())) + square(m.to()) + csa_name(variant, kind) + "\n";
    replay.play_on(pos.move_text(m));
  }
  if (const ShogiEnding* ending = ending_of(record, game)) {
    if (*ending->csa)
      out += std::string(ending->csa) + "\n";
    else if (std::string_view(ending->name) == "illegal move by the opponent")
      out += std::string("%") + SideSigns[1 - game.side_to_move()] + "ILLEGAL_ACTION\n";
  }
  return out;
}

}  // namespace palace
