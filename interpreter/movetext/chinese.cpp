// The Chinese notation of Xiangqi records ("炮二平五 马8进7"): the WXF notation in words. The
// characters of the pieces come from the variant's `notation: chinese:` section; the numerals and
// the words for forward, back, sideways, front, middle and rear are the notation's own.
#include <algorithm>
#include <array>
#include <cstdint>
#include <cstdlib>
#include <utility>

#include "movetext/notation.h"

namespace palace {

// One word of a Chinese move, and what it reads as.
struct ChineseToken {
  enum class Kind : std::uint8_t { Piece, Number, Ordinal, Mark, Action } kind;
  int value;  // the piece's kind; a file or count; a place from the front; 'f'/'m'/'r'; '+'/'-'/'='
};

namespace {

using Token = ChineseToken;

constexpr std::array<const char*, 9> Numerals = {"一", "二", "三", "四", "五", "六", "七", "八", "九"};
constexpr std::array<const char*, 9> WideDigits = {"１", "２", "３", "４", "５", "６", "７", "８", "９"};

// Every other spelling read, with what it stands for in a key. Both scripts: 進 and 後 are
// traditional.
constexpr std::array<std::pair<const char*, char>, 8> Words = {{
    {"进", '+'}, {"進", '+'}, {"退", '-'}, {"平", '='}, {"前", 'f'}, {"中", 'm'}, {"后", 'r'}, {"後", 'r'},
}};

std::string number_text(int n, bool numeral) {
  if (n < 1 || n > 9) return std::to_string(n);
  return numeral ? Numerals[std::size_t(n - 1)] : WideDigits[std::size_t(n - 1)];
}

bool starts_with(std::string_view text, std::size_t at, std::string_view word) {
  return text.compare(at, word.size(), word) == 0;
}

}  // namespace

std::vector<std::vector<Token>> MoveNotation::chinese_spellings(const Position& pos, Move m) const {
  const BoardDef& board = variant_.board();
  const Side side = pos.side_to_move();
  const int forward = variant_.rules().sides[side].forward;
  const Point from = m.from(), to = m.to();
  const Piece piece = pos.at(from);
  const Kind kind = kind_of(piece);
  const int file = board.file_of(from);

  // The pieces like this one on its file, front first, and whether another file holds two or more.
  std::vector<int> ranks;
  bool pair_elsewhere = false;
  for (int f = 0; f < board.files; ++f) {
    int same = 0;
    for (int r = 0; r < board.ranks; ++r)
      if (pos.at(board.square(f, r)) == piece) {
        ++same;
        if (f == file) ranks.push_back(r);
      }
    pair_elsewhere = pair_elsewhere || (f != file && same > 1);
  }
  std::sort(ranks.begin(), ranks.end(), [&](int a, int b) { return a * forward > b * forward; });
  const int count = int(ranks.size());
  const int index = int(std::find(ranks.begin(), ranks.end(), board.rank_of(from)) - ranks.begin());

  const int advance = (board.rank_of(to) - board.rank_of(from)) * forward;
  const Token action{Token::Kind::Action, advance == 0 ? '=' : advance > 0 ? '+' : '-'};
  const Token target{Token::Kind::Number, board.file_of(to) == file ? std::abs(advance) : file_from_right(side, board.file_of(to))};
  const Token named{Token::Kind::Piece, kind}, on_file{Token::Kind::Number, file_from_right(side, file)};
  const Token ordinal{Token::Kind::Ordinal, index + 1};
  std::vector<std::vector<Token>> spellings;
  auto add = [&](std::initializer_list<Token> head) {
    spellings.emplace_back(head);
    spellings.back().push_back(action);
    spellings.back().push_back(target);
  };

  // Two on a file are front and rear, but a piece kept to its zone (an advisor, an elephant) keeps
  // its file where its partner could not make the same move: its direction tells them apart.
  const Point partner = count == 2 ? board.square(file, ranks[std::size_t(1 - index)]) : NoPoint;
  if (count == 1 || (count == 2 && variant_.rules().pieces[std::size_t(kind)].stay_in >= 0 &&
                     !partner_could_move_alike(pos, m, partner))) {
    add({named, on_file});
    if (count == 2) add({Token{Token::Kind::Mark, index == 0 ? 'f' : 'r'}, named});
    return spellings;
  }
  // Front and rear, middle of three, else counted from the front ("二兵"); where two files hold
  // several, the file's number stands for the piece ("前七进一").
  const char mark = index == 0 ? 'f' : index == count - 1 ? 'r' : count == 3 ? 'm' : 0;
  const Token place = mark ? Token{Token::Kind::Mark, mark} : ordinal;
  if (pair_elsewhere) {
    add({place, on_file});
    add({ordinal, on_file});
    add({place, named, on_file});
  } else {
    add({place, named});
    add({ordinal, named});
  }
  return spellings;
}

std::string MoveNotation::chinese_file(Side side, int file) const { return number_text(file_from_right(side, file), side == 0); }

std::string MoveNotation::chinese(const Position& pos, Move m, bool traditional) const {
  const auto& characters = traditional ? rules_.chinese_traditional : rules_.chinese_simplified;
  if (characters.empty()) return pos.move_text(m);  // the game has no Chinese notation
  // The first side counts files in Chinese numerals, the second in digits (full-width, as xqbase's
  // PGN writes them).
  const Side side = pos.side_to_move();
  const auto spellings = chinese_spellings(pos, m);
  std::string text;
  for (const Token& t : spellings.front()) switch (t.kind) {
      case Token::Kind::Piece: {
        const std::string& character = characters[std::size_t(t.value)][side];
        text += character.empty() ? letter(Kind(t.value)) : character;
        break;
      }
      case Token::Kind::Number:
        text += number_text(t.value, side == 0);
        break;
      case Token::Kind::Ordinal:
        text += number_text(t.value, true);
        break;
      case Token::Kind::Mark:
        text += t.value == 'f' ? "前" : t.value == 'm' ? "中" : traditional ? "後" : "后";
        break;
      case Token::Kind::Action:
        text += t.value == '+' ? (traditional ? "進" : "进") : t.value == '-' ? "退" : "平";
        break;
    }
  return text;
}

std::string MoveNotation::chinese_key(std::string_view text) const {
  if (rules_.chinese_names.empty() || std::all_of(text.begin(), text.end(), [](char c) { return (c & 0x80) == 0; }))
    return "";
  std::string key;
  for (std::size_t at = 0; at < text.size();) {
    std::size_t length = 0;
    char meaning = 0;
    auto take = [&](std::string_view word, char what) {
      if (!length && !word.empty() && starts_with(text, at, word)) length = word.size(), meaning = what;
    };
    for (const auto& [name, kind] : rules_.chinese_names) take(name, rules_.letters[std::size_t(kind)]);
    for (std::size_t n = 0; n < Numerals.size(); ++n) take(Numerals[n], char('1' + n));
    for (const auto& [word, what] : Words) take(word, what);
    if (!length && text[at] >= '1' && text[at] <= '9') length = 1, meaning = text[at];
    if (!length) return "";
    key += meaning;
    at += length;
  }
  return key;
}

bool MoveNotation::traditional_script(std::string_view text) const {
  if (text.find("進") != std::string_view::npos || text.find("後") != std::string_view::npos) return true;
  for (std::size_t k = 0; k < rules_.chinese_traditional.size(); ++k)
    for (std::size_t side = 0; side < 2; ++side) {
      const std::string& character = rules_.chinese_traditional[k][side];
      if (!character.empty() && character != rules_.chinese_simplified[k][side] && text.find(character) != std::string_view::npos)
        return true;
    }
  return false;
}

bool MoveNotation::chinese_intended(const Position& pos, const std::string& key, Point& from, Point& to) const {
  const BoardDef& board = variant_.board();
  const Side us = pos.side_to_move();
  // A diagonal move names only the file it reaches ("马7进9"): the nearest such point is meant.
  int nearest = board.files + board.ranks;
  for (int i = 0; i < pos.piece_count(us); ++i)
    for (int target = 0; target < board.files * board.ranks; ++target) {
      const Point s = pos.piece_square(us, i), t = Point(target);
      const int distance = std::abs(board.file_of(t) - board.file_of(s)) + std::abs(board.rank_of(t) - board.rank_of(s));
      // A piece named by its file where another like it stands there too is meant as well.
      const bool named = chinese_matches(pos, Move(s, t), key) || plain_wxf(pos, Move(s, t)) == key;
      if (t != s && distance < nearest && named) {
        from = s, to = t;
        nearest = distance;
      }
    }
  return nearest < board.files + board.ranks;
}

bool MoveNotation::chinese_matches(const Position& pos, Move m, const std::string& key) const {
  for (const auto& spelling : chinese_spellings(pos, m)) {
    std::string own;
    for (const Token& t : spelling) {
      if (t.kind == Token::Kind::Piece)
        own += rules_.letters[std::size_t(t.value)];
      else if (t.kind == Token::Kind::Number || t.kind == Token::Kind::Ordinal)
        own += std::to_string(t.value);
      else
        own += char(t.value);
    }
    if (own == key) return true;
  }
  return false;
}

}  // namespace palace
