#include "notation/kif.h"

#include <algorithm>
#include <cctype>

#include "core/text.h"
#include "game/explain.h"
#include "movetext/notation.h"
#include "movetext/usi.h"
#include "notation/encoding.h"
#include "notation/replay.h"
#include "notation/shogi_record.h"

namespace palace {

namespace {

// Headers with a PGN name; the first of a side's names is written.
constexpr std::pair<const char*, const char*> TagNames[] = {
    {"棋戦", "Event"}, {"場所", "Site"}, {"先手", "White"}, {"下手", "White"}, {"後手", "Black"}, {"上手", "Black"},
};
constexpr std::string_view WideSpace = "　";
constexpr const char* SideMarks[] = {"▲", "△", "☗", "☖"};
constexpr const char* HandTags[SideCount][2] = {{"先手の持駒", "下手の持駒"}, {"後手の持駒", "上手の持駒"}};
constexpr const char* BoardTag = "KifBoard";  // the diagram's rows, "/" between them, until set up
constexpr const char* TurnTag = "KifTurn";    // "後手番" where the diagram's second side moves first

std::string trimmed(std::string_view text) {
  for (bool again = true; again;) {
    again = false;
    while (!text.empty() && std::isspace(static_cast<unsigned char>(text.front()))) text.remove_prefix(1), again = true;
    while (!text.empty() && std::isspace(static_cast<unsigned char>(text.back()))) text.remove_suffix(1), again = true;
    if (text.substr(0, WideSpace.size()) == WideSpace) text.remove_prefix(WideSpace.size()), again = true;
    if (text.size() >= WideSpace.size() && text.substr(text.size() - WideSpace.size()) == WideSpace)
      text.remove_suffix(WideSpace.size()), again = true;
  }
  return std::string(text);
}

bool starts_with(std::string_view text, std::string_view head) { return text.substr(0, head.size()) == head; }

// The record's lines, without CR.
std::vector<std::string> lines_of(const std::string& text) {
  std::vector<std::string> lines;
  std::size_t start = 0;
  while (start <= text.size()) {
    std::size_t end = text.find('\n', start);
    if (end == std::string::npos) end = text.size();
    std::string line = text.substr(start, end - start);
    if (!line.empty() && line.back() == '\r') line.pop_back();
    lines.push_back(std::move(line));
    start = end + 1;
  }
  return lines;
}

// KI2's (and KIF's) summary "まで76手で先手の勝ち", "まで3手で千日手": the result it states.
void read_summary(GameRecord& game, const std::string& line, int to_move) {
  if (game.terminated) return;
  const bool first_wins = line.find("先手の") != std::string::npos || line.find("下手の") != std::string::npos;
  const bool second_wins = line.find("後手の") != std::string::npos || line.find("上手の") != std::string::npos;
  if (line.find("勝ち") != std::string::npos && first_wins != second_wins) {
    game.result = first_wins ? "1-0" : "0-1";
    game.terminated = true;
    return;
  }
  for (const char* word : {"千日手", "持将棋", "中断", "詰"}) {
    if (line.find(word) == std::string::npos) continue;
    const ShogiEnding* ending = std::string_view(word) == "詰" ? ending_by_name("checkmate") : ending_by_kif(word);
    game.result = ending_result(*ending, to_move);
    game.set_tag("Termination", ending->name);
    game.terminated = true;
    return;
  }
}

struct KifReader {
  std::vector<GameRecord> games;
  GameRecord game;
  int second_first = 0;      // 1 where the second side moves first (a handicap, 後手番)
  bool in_variation = false;  // past the main line
  std::string board;

  int to_move() const { return int((game.moves.size() + std::size_t(second_first)) % 2); }

  void header(const std::string& key, const std::string& value, std::size_t line) {
    std::string name = key;
    for (const auto& [kif, pgn] : TagNames)
      if (key == kif) name = pgn;
    if (!game.tag(name)) {
      if (game.tags.size() >= MaxHeaderTags) {
        if (game.problem.empty()) game.problem = "line " + std::to_string(line) + ": more than " + std::to_string(MaxHeaderTags) + " header lines";
        return;
      }
      game.set_tag(name, value);
    }
    if (key == "開始日時" && value.size() >= 10 && !game.tag("Date")) {
      std::string date = value.substr(0, 10);
      std::replace(date.begin(), date.end(), '/', '.');
      game.set_tag("Date", date);
    }
    if (key == "手合割" && !value.empty() && value != "平手") second_first = 1;
  }

  // A move, or a word that ends the game and gives its result; nothing after either counts.
  void move(const std::string& text) {
    if (in_variation || game.terminated) return;
    if (const ShogiEnding* ending = ending_by_kif(text)) {
      game.result = ending_result(*ending, to_move());
      game.set_tag("Termination", ending->name);
      game.terminated = true;
      return;
    }
    game.moves.push_back(text);
  }

  // "   1 ７六歩(77)   ( 0:02/00:00:02)+": the number, the move (同 and its piece may have a space
  // between them), then its time.
  void kif_line(std::string_view line) {
    while (!line.empty() && std::isdigit(static_cast<unsigned char>(line.front()))) line.remove_prefix(1);
    std::string rest = trimmed(line);
    std::size_t end = rest.find(' ');
    std::string text = rest.substr(0, end);
    if (text == "同" && end != std::string::npos) {
      const std::string after = trimmed(rest.substr(end));
      text += after.substr(0, after.find(' '));
    }
    move(text);
  }

  // "▲７六歩    △３四歩    ▲２六歩": moves after the side marks.
  void ki2_line(const std::string& line) {
    std::string current;
    for (const std::string& c : utf8_characters(line)) {
      if (std::find(std::begin(SideMarks), std::end(SideMarks), c) != std::end(SideMarks)) {
        if (!trimmed(current).empty()) move(trimmed(current));
        current.clear();
      }
      current += c;
    }
    if (!trimmed(current).empty()) move(trimmed(current));
  }

  void finish() {
    if (!board.empty()) game.set_tag(BoardTag, board);
    game.set_tag("Format", "KIF");
    games.push_back(std::move(game));
  }

  // Files that gather games put one after another, each with its headers: a header, diagram or move
  // table's heading after a game's moves starts the next game, at `line`.
  void next_game_if_moved(std::size_t line) {
    if (game.moves.empty() && !game.terminated && !in_variation) return;
    finish();
    game = GameRecord{};
    game.line = int(line);
    second_first = 0;
    in_variation = false;
    board.clear();
  }
};

bool is_side_mark(std::string_view text) {
  return std::any_of(std::begin(SideMarks), std::end(SideMarks), [&](const char* m) { return starts_with(text, m); });
}

// The diagram's file numbers above it: "９ ８ ７ ６ ５ ４ ３ ２ １".
bool is_file_ruler(const std::string& line) {
  const auto chars = utf8_characters(line);
  return std::all_of(chars.begin(), chars.end(), [](const std::string& c) { return c == " " || japanese_number(c) > 0; });
}

}  // namespace

std::vector<GameRecord> read_kif(std::string_view bytes) {
  KifReader r;
  const std::vector<std::string> lines = lines_of(utf8_text(bytes, {"cp932", "euc-jp"}));
  bool any = false;
  for (std::size_t i = 0; i < lines.size(); ++i) {
    const std::string line = trimmed(lines[i]);
    if (line.empty() || line[0] == '#' || line[0] == '*' || line[0] == '&') continue;
    any = true;
    if (starts_with(line, "変化：") || starts_with(line, "変化:")) {
      r.in_variation = true;
      continue;
    }
    if (starts_with(line, "まで")) {
      if (!r.in_variation) read_summary(r.game, line, r.to_move());
      continue;
    }
    const bool starts_game = line[0] == '|' || starts_with(line, "+--") || starts_with(line, "手数") || is_file_ruler(line) ||
                             line == "後手番" || line == "上手番" || line == "先手番" || line == "下手番" ||
                             (!std::isdigit(static_cast<unsigned char>(line[0])) && !is_side_mark(line) &&
                              (line.find("：") != std::string::npos || line.find(':') != std::string::npos));
    if (starts_game) r.next_game_if_moved(i + 1);
    if (line[0] == '|') {
      const std::size_t close = line.rfind('|');
      r.board += (r.board.empty() ? "" : "/") + line.substr(1, close == 0 ? std::string::npos : close - 1);
      continue;
    }
    if (starts_with(line, "+--") || starts_with(line, "手数") || is_file_ruler(line)) continue;
    if (line == "後手番" || line == "上手番") {
      r.second_first = 1;
      r.game.set_tag(TurnTag, line);
      continue;
    }
    if (line == "先手番" || line == "下手番") continue;
    if (std::isdigit(static_cast<unsigned char>(line[0]))) {
      r.kif_line(line);
      continue;
    }
    if (is_side_mark(line)) {
      r.ki2_line(line);
      continue;
    }
    std::size_t colon = line.find("：");
    std::size_t width = std::string_view("：").size();
    if (colon == std::string::npos) colon = line.find(':'), width = 1;
    if (colon != std::string::npos) {
      r.header(trimmed(line.substr(0, colon)), trimmed(line.substr(colon + width)), i + 1);
      continue;
    }
    if (r.game.problem.empty() && !r.in_variation)
      r.game.problem = "line " + std::to_string(i + 1) + ": " + quote(line) + " is no KIF header, move or comment";
  }
  if (!any) return {};
  r.finish();
  return std::move(r.games);
}

namespace {

// What a KIF or KI2 move says.
struct KifMove {
  Point to = NoPoint;
  Kind kind = NoKind;
  bool drop = false, promotes = false;
  Point from = NoPoint;   // KIF's "(77)"
  std::vector<std::string> words;  // KI2's 右 左 直 上 引 寄
};

bool parse_kif_move(const Variant& variant, std::string_view text, Point previous_to, KifMove& move, std::string& why) {
  const BoardDef& board = variant.board();
  std::vector<std::string> c = utf8_characters(text);
  std::size_t i = 0;
  if (i < c.size() && is_side_mark(c[i])) ++i;
  auto fail = [&](const std::string& reason) {
    why = quote(text) + " " + reason;
    return false;
  };
  if (i < c.size() && c[i] == "同") {
    if (previous_to == NoPoint) return fail("says 同 (the last move's square) but no move came before");
    move.to = previous_to;
    ++i;
    while (i < c.size() && (c[i] == " " || c[i] == "　")) ++i;
  } else {
    if (i + 1 >= c.size()) return fail("is not a move");
    move.to = shogi_square(board, japanese_number(c[i]), japanese_number(c[i + 1]));
    if (move.to == NoPoint) return fail("names no square of this board");
    i += 2;
  }
  for (const std::size_t length : {2, 1}) {
    if (i + length > c.size()) continue;
    std::string name;
    for (std::size_t k = i; k < i + length; ++k) name += c[k];
    move.kind = kind_by_kif(variant, name);
    if (move.kind >= 0) {
      i += length;
      break;
    }
  }
  if (move.kind < 0) return fail("names no piece of " + variant.rules().name + " (notation: kif:)");
  for (; i < c.size(); ++i) {
    if (c[i] == "成") {
      move.promotes = true;
    } else if (c[i] == "不" || c[i] == "生") {
      if (c[i] == "不") ++i;  // 不成, or the old 生: declines
    } else if (c[i] == "打") {
      move.drop = true;
    } else if (c[i] == "右" || c[i] == "左" || c[i] == "直" || c[i] == "上" || c[i] == "行" || c[i] == "入" ||
               c[i] == "引" || c[i] == "寄") {
      move.words.push_back(c[i] == "行" || c[i] == "入" ? "上" : c[i]);
    } else if (c[i] == "(" && i + 3 < c.size() && c[i + 3] == ")") {
      move.from = shogi_square(board, japanese_number(c[i + 1]), japanese_number(c[i + 2]));
      if (move.from == NoPoint) return fail("moves from no square of this board");
      i += 3;
    } else {
      return fail("has " + quote(c[i]) + ", which no KIF move has");
    }
  }
  return true;
}

// The legal moves of `pos` that `move` may mean.
std::vector<Move> kif_candidates(const Position& pos, const std::vector<Move>& legal, const KifMove& move) {
  const Variant& variant = pos.variant();
  const BoardDef& board = variant.board();
  const Side side = pos.side_to_move();
  const int forward = variant.rules().sides[side].forward;
  std::vector<Move> found;
  for (const Move m : legal) {
    if (m.is_pass() || m.to() != move.to) continue;
    const bool drop = m.type() == MoveType::Drop;
    const Kind kind = drop ? m.drop_kind() : kind_of(pos.at(m.from()));
    if (kind != move.kind || (move.drop && !drop) || (move.from != NoPoint && (drop || m.from() != move.from))) continue;
    // A drop never promotes: "５五角成" names no drop of a bishop.
    if (drop ? move.promotes : (m.promotion_kind() >= 0) != move.promotes) continue;
    found.push_back(m);
  }
  // A drop is written 打 only where a piece on the board could go there too.
  if (!move.drop && std::any_of(found.begin(), found.end(), [](Move m) { return m.type() != MoveType::Drop; }))
    std::erase_if(found, [](Move m) { return m.type() == MoveType::Drop; });
  for (const std::string& word : move.words) {
    auto ahead = [&](Move m) { return (board.rank_of(m.to()) - board.rank_of(m.from())) * forward; };
    auto across = [&](Move m) { return board.file_of(m.from()) * forward; };  // larger: further right
    if (word == "上") std::erase_if(found, [&](Move m) { return ahead(m) <= 0; });
    if (word == "引") std::erase_if(found, [&](Move m) { return ahead(m) >= 0; });
    if (word == "寄") std::erase_if(found, [&](Move m) { return ahead(m) != 0; });
    if (word == "直")
      std::erase_if(found, [&](Move m) { return ahead(m) <= 0 || board.file_of(m.from()) != board.file_of(m.to()); });
    if ((word == "右" || word == "左") && !found.empty()) {
      const bool right = word == "右";
      int best = across(found.front());
      for (const Move m : found) best = right ? std::max(best, across(m)) : std::min(best, across(m));
      std::erase_if(found, [&](Move m) { return across(m) != best; });
    }
  }
  return found;
}

// A point as KIF writes it: "７六".
std::string kif_point(const BoardDef& board, Point p) { return wide_digit(shogi_file(board, p)) + kanji_digit(shogi_rank(board, p)); }

// "７六 (c4)": the record's name of a point beside Palace's.
std::string both_names(const BoardDef& board, Point p) { return kif_point(board, p) + " (" + board.point_name(p) + ")"; }

// `m` as KIF writes it, or as KI2 with the fewest words that tell it from the other moves.
std::string kif_text(const Position& pos, const std::vector<Move>& legal, Point previous_to, Move m, bool ki2) {
  const Variant& variant = pos.variant();
  const BoardDef& board = variant.board();
  const bool drop = m.type() == MoveType::Drop;
  const Kind kind = drop ? m.drop_kind() : kind_of(pos.at(m.from()));
  const std::string square = m.to() == previous_to ? (ki2 ? "同" : "同　") : kif_point(board, m.to());
  const bool could_promote = std::any_of(legal.begin(), legal.end(), [&](Move o) {
    return !drop && o.from() == m.from() && o.to() == m.to() && o.promotion_kind() >= 0;
  });
  const std::string promotion = m.promotion_kind() >= 0 ? "成" : could_promote ? "不成" : "";
  const std::string text = square + kif_name(variant, kind);
  if (!ki2)
    return text + promotion + (drop ? "打" : "(" + std::to_string(shogi_file(board, m.from())) + std::to_string(shogi_rank(board, m.from())) + ")");
  for (const char* words : {"", "上", "引", "寄", "直", "右", "左", "右上", "右引", "右寄", "左上", "左引", "左寄"})
    for (const char* dropped : {"", "打"}) {
      std::string why;
      const std::string said = text + words + promotion + dropped;
      KifMove parsed;
      if (!parse_kif_move(variant, said, previous_to, parsed, why)) continue;
      const std::vector<Move> found = kif_candidates(pos, legal, parsed);
      if (found.size() == 1 && found.front() == m) return said;
    }
  throw RecordError(quote(pos.move_text(m)) + " cannot be told apart in KI2");
}

// Why `move` (read from `text`) is no legal move of `pos`, its points named both ways: the board's
// reason where the text says which piece moves or is dropped, else that none of its kind can.
std::string not_legal(const Position& pos, std::string_view text, const KifMove& move) {
  const Variant& variant = pos.variant();
  const BoardDef& board = variant.board();
  Position scratch = pos;
  std::string reason;
  if (move.drop)
    reason = explain_drop(scratch, move.kind, move.to);
  else if (move.from != NoPoint)
    reason = explain_move(scratch, move.from, move.to);
  if (!reason.empty() || move.drop || move.from != NoPoint) {
    const std::string from = move.drop ? "a drop on " : move.from != NoPoint ? both_names(board, move.from) + " to " : "";
    return quote(text) + ": " + from + both_names(board, move.to) + ": " + (reason.empty() ? "not a legal move here" : reason);
  }
  return quote(text) + ": no " + variant.rules().pieces[std::size_t(move.kind)].name + " of " +
         capitalised(variant.side_name(pos.side_to_move())) + "'s can move to " + both_names(board, move.to) + " as written";
}

Move match_kif_move(const Position& pos, const std::vector<Move>& legal, Point previous_to, std::string_view text,
                    std::string& why) {
  KifMove move;
  if (!parse_kif_move(pos.variant(), text, previous_to, move, why)) return Move();
  const std::vector<Move> found = kif_candidates(pos, legal, move);
  if (found.size() == 1) return found.front();
  if (found.empty()) {
    why = not_legal(pos, text, move);
  } else {
    std::vector<std::string> spellings;
    for (const Move m : found) spellings.push_back(kif_text(pos, legal, previous_to, m, true));
    why = MoveNotation(pos.variant()).ambiguity(pos, text, found, spellings, false, kif_point);
  }
  return Move();
}

Point last_square(const Game& game) { return game.history().empty() ? NoPoint : game.history().back().to(); }

}  // namespace

std::string kif_move_text(const Position& pos, const std::vector<Move>& legal, Point previous_to, Move m) {
  return kif_text(pos, legal, previous_to, m, false);
}

Move kif_move(const Game& game, std::string_view text, std::string& why) {
  return match_kif_move(game.position(), game.board_moves(), last_square(game), text, why);
}

namespace {

// "飛二　角　歩十五" or "なし": the pieces of one side's hand.
void read_hand(const Variant& variant, const std::string& text, std::vector<Kind>& hand) {
  std::string item;
  auto flush = [&] {
    if (item.empty() || item == "なし") return item.clear();
    const auto chars = utf8_characters(item);
    const Kind kind = kind_by_kif(variant, chars.front());
    std::string count_text;
    for (std::size_t k = 1; k < chars.size(); ++k) count_text += chars[k];
    const int count = count_text.empty() ? 1 : japanese_number(count_text);
    if (kind < 0 || count < 1) throw RecordError("the hand " + quote(text) + " names no pieces of " + variant.rules().name);
    hand.insert(hand.end(), std::size_t(count), kind);
    item.clear();
  };
  for (const std::string& c : utf8_characters(text)) {
    if (c == " " || c == "　")
      flush();
    else
      item += c;
  }
  flush();
}

}  // namespace

std::string kif_start(const GameRecord& record, const std::shared_ptr<const Variant>& variant_ptr) {
  const Variant& variant = *variant_ptr;
  const BoardDef& board = variant.board();
  if (const std::string* rows = record.tag(BoardTag)) {
    ShogiSetup setup = empty_setup(variant);
    int rank = 0;
    std::size_t start = 0;
    while (start <= rows->size()) {
      std::size_t end = rows->find('/', start);
      if (end == std::string::npos) end = rows->size();
      ++rank;
      int file = board.files;
      bool second = false;
      for (const std::string& c : utf8_characters(rows->substr(start, end - start))) {
        if (c == " " || c == "v" || c == "^") {
          second = c != " ";
          continue;
        }
        if (rank > board.ranks || file < 1) throw RecordError("the board diagram is larger than " + variant.rules().name + "'s board");
        if (c != "・") {
          const Kind kind = kind_by_kif(variant, c);
          if (kind < 0) throw RecordError("the board diagram has " + quote(c) + ", no piece of " + variant.rules().name);
          setup.squares[std::size_t((rank - 1) * board.files + file - 1)] = make_piece(second ? Second : First, kind);
        }
        --file;
        second = false;
      }
      if (file != 0) throw RecordError("the board diagram's rank " + std::to_string(rank) + " does not have " + std::to_string(board.files) + " squares");
      start = end + 1;
    }
    if (rank != board.ranks) throw RecordError("the board diagram does not have " + std::to_string(board.ranks) + " ranks");
    for (Side s = First; s < SideCount; ++s)
      for (const char* tag : HandTags[s])
        if (const std::string* hand = record.tag(tag)) read_hand(variant, *hand, setup.hands[s]);
    setup.to_move = record.tag(TurnTag) ? Second : First;
    return setup_fen(variant, setup);
  }
  const std::string* handicap = record.tag("手合割");
  if (!handicap || handicap->empty() || *handicap == "平手") return "";
  for (const auto& [name, fen] : variant.rules().notation.handicaps)
    if (name == *handicap) return fen;
  throw RecordError("手合割 " + quote(*handicap) + " is none of " + variant.rules().name + "'s start positions (notation: handicaps:)");
}

namespace {

bool ascii(const std::string& text) {
  return std::all_of(text.begin(), text.end(), [](char c) { return static_cast<unsigned char>(c) < 0x80; });
}

}  // namespace

std::string write_kif(const GameRecord& record, const Game& game, bool ki2) {
  const Variant& variant = game.variant();
  std::string out = ki2 ? "" : "#KIF version=2.0 encoding=UTF-8\n";
  auto header = [&](const std::string& key, const std::string* value) {
    if (value && !value->empty() && *value != "?") out += key + "：" + *value + "\n";
  };
  std::string date;
  if (const std::string* d = record.tag("Date")) {
    date = *d;
    std::replace(date.begin(), date.end(), '.', '/');
  }
  header("開始日時", record.tag("開始日時") ? record.tag("開始日時") : &date);
  header("棋戦", record.tag("Event"));
  header("場所", record.tag("Site"));
  Position start(game.variant_ptr());
  const std::string setup = start.fen();
  start.set_fen(game.start_fen());
  std::string handicap = start.fen() == setup ? "平手" : "";
  for (const auto& [name, fen] : variant.rules().notation.handicaps) {
    Position p(game.variant_ptr());
    p.set_fen(fen);
    if (p.fen() == start.fen()) handicap = name;
  }
  if (!handicap.empty()) {
    out += "手合割：" + handicap + "\n";
  } else {
    // The board diagram, the second side's hand above it and the first side's below.
    const ShogiSetup s = position_setup(start);
    auto hand = [&](Side side) {
      std::string text;
      for (const Kind kind : variant.hand_kinds()) {
        const int n = int(std::count(s.hands[side].begin(), s.hands[side].end(), kind));
        if (n == 0) continue;
        text += kif_name(variant, kind) + (n == 1 ? "" : n < 10 ? kanji_digit(n) : "十" + (n > 10 ? kanji_digit(n - 10) : "")) + "　";
      }
      return text.empty() ? std::string("なし") : text;
    };
    const BoardDef& board = variant.board();
    out += std::string(HandTags[1][0]) + "：" + hand(Second) + "\n ";
    for (int file = board.files; file >= 1; --file) out += " " + wide_digit(file);
    out += "\n+" + std::string(std::size_t(board.files * 3), '-') + "+\n";
    for (int rank = 1; rank <= board.ranks; ++rank) {
      out += "|";
      for (int file = board.files; file >= 1; --file) {
        const Piece p = s.squares[std::size_t((rank - 1) * board.files + file - 1)];
        out += p == NoPiece ? " ・" : (side_of(p) == 0 ? " " : "v") + kif_name(variant, kind_of(p));
      }
      out += "|" + kanji_digit(rank) + "\n";
    }
    out += "+" + std::string(std::size_t(board.files * 3), '-') + "+\n";
    out += std::string(HandTags[0][0]) + "：" + hand(First) + "\n";
    if (s.to_move == 1) out += "後手番\n";
  }
  header("先手", record.tag("White"));
  header("後手", record.tag("Black"));
  for (const auto& [name, value] : record.tags)
    if (!ascii(name) && name != "開始日時" && name != "手合割" && name != HandTags[0][0] && name != HandTags[0][1] &&
        name != HandTags[1][0] && name != HandTags[1][1])
      header(name, &value);
  if (!ki2) out += "手数----指手---------消費時間--\n";

  Game replay(game.variant_ptr());
  replay.set_fen(game.start_fen());
  std::string row;
  int in_row = 0;
  for (std::size_t i = 0; i < game.history().size(); ++i) {
    const Move m = game.history()[i];
    const Position& pos = replay.position();
    const std::string text = kif_text(pos, replay.board_moves(), last_square(replay), m, ki2);
    if (ki2) {
      row += (in_row ? "    " : "") + std::string(pos.side_to_move() == 0 ? "▲" : "△") + text;
      if (++in_row == 6) out += row + "\n", row.clear(), in_row = 0;
    } else {
      std::string number = std::to_string(i + 1);
      out += std::string(number.size() < 4 ? 4 - number.size() : 0, ' ') + number + " " + text + "\n";
    }
    replay.play_on(pos.move_text(m));
  }
  if (!row.empty()) out += row + "\n";
  const std::size_t plies = game.history().size();
  if (const ShogiEnding* ending = ending_of(record, game)) {
    if (!ki2 && *ending->kif) {
      const std::string number = std::to_string(plies + 1);
      out += std::string(number.size() < 4 ? 4 - number.size() : 0, ' ') + number + " " + ending->kif + "\n";
    }
    const std::string result = ending_result(*ending, game.side_to_move());
    const std::string said = result == "1-0" ? "先手の勝ち" : result == "0-1" ? "後手の勝ち" : *ending->kif ? ending->kif : "";
    if (!said.empty()) out += "まで" + std::to_string(plies) + "手で" + said + "\n";
  }
  return out;
}

}  // namespace palace
