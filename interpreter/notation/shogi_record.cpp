#include "notation/shogi_record.h"

#include <algorithm>
#include <cctype>

#include "core/text.h"
#include "movetext/usi.h"
#include "notation/encoding.h"
#include "notation/replay.h"

namespace palace {

namespace {

// Each format's words; a KIF word may have several spellings, the first is written.
constexpr ShogiEnding Endings[] = {
    {"resignation", "投了", "%TORYO", -1},
    {"checkmate", "詰み", "%TSUMI", -1},
    {"repetition", "千日手", "%SENNICHITE", 0},
    {"impasse", "持将棋", "%JISHOGI", 0},
    {"draw", "引き分け", "%HIKIWAKE", 0},
    {"move limit", "", "%MAX_MOVES", 0},
    {"abandoned", "中断", "%CHUDAN", 2},
    {"time forfeit", "切れ負け", "%TIME_UP", -1},
    {"time forfeit", "時間切れ", "", -1},
    {"illegal move", "反則負け", "%ILLEGAL_MOVE", -1},
    {"illegal move by the opponent", "反則勝ち", "", 1},
    {"declaration", "入玉勝ち", "%KACHI", 1},
    {"declaration", "宣言勝ち", "", 1},
    {"no mate", "不詰", "%FUZUMI", 2},
    {"sealed move", "封じ手", "", 2},
};

constexpr const char* WideDigits[] = {"０", "１", "２", "３", "４", "５", "６", "７", "８", "９"};
constexpr const char* KanjiDigits[] = {"〇", "一", "二", "三", "四", "五", "六", "七", "八", "九"};

template <class Pick>
const ShogiEnding* ending_where(Pick pick) {
  for (const ShogiEnding& e : Endings)
    if (pick(e)) return &e;
  return nullptr;
}

}  // namespace

const ShogiEnding* ending_by_name(std::string_view name) {
  return ending_where([&](const ShogiEnding& e) { return name == e.name; });
}
const ShogiEnding* ending_by_kif(std::string_view word) {
  return ending_where([&](const ShogiEnding& e) { return *e.kif && word == e.kif; });
}
const ShogiEnding* ending_by_csa(std::string_view word) {
  return ending_where([&](const ShogiEnding& e) { return *e.csa && word == e.csa; });
}

std::string ending_result(const ShogiEnding& ending, int to_move) {
  if (ending.mover == 0) return "1/2-1/2";
  if (ending.mover == 2) return "*";
  const int winner = ending.mover > 0 ? to_move : 1 - to_move;
  return winner == 0 ? "1-0" : "0-1";
}

const ShogiEnding* ending_of(const GameRecord& record, const Game& game) {
  if (const std::string* tag = record.tag("Termination"))
    if (const ShogiEnding* e = ending_by_name(*tag)) return e;
  const Verdict& state = game.game_state();
  if (state.termination == Termination::Checkmate) return ending_by_name("checkmate");
  if (state.termination == Termination::Repetition) return ending_by_name("repetition");
  const std::string& result = state.finished() ? result_token(state) : record.result;
  if (result == "1/2-1/2") return ending_by_name("draw");
  const int loser = result == "1-0" ? 1 : result == "0-1" ? 0 : -1;
  if (loser < 0) return nullptr;
  return ending_by_name(loser == game.side_to_move() ? "resignation" : "illegal move by the opponent");
}

ShogiSetup empty_setup(const Variant& variant) {
  ShogiSetup setup;
  setup.squares.assign(std::size_t(variant.board().size()), NoPiece);
  return setup;
}

std::string setup_fen(const Variant& variant, const ShogiSetup& setup) {
  const BoardDef& board = variant.board();
  std::string fen;
  // A FEN runs from Palace's highest rank, shogi's rank 1, and from file a, shogi's highest file.
  for (int rank = 1; rank <= board.ranks; ++rank) {
    if (rank > 1) fen += '/';
    int empty = 0;
    for (int file = board.files; file >= 1; --file) {
      const Piece p = setup.squares[std::size_t((rank - 1) * board.files + file - 1)];
      if (p == NoPiece) {
        ++empty;
        continue;
      }
      if (empty) fen += std::to_string(empty);
      empty = 0;
      fen += variant.written(p);
    }
    if (empty) fen += std::to_string(empty);
  }
  fen += '[';
  for (const bool upper : {true, false})
    for (Side s = First; s < SideCount; ++s)
      if (variant.rules().sides[s].upper_case == upper)
        for (const Kind kind : setup.hands[s]) fen += variant.letter(make_piece(s, kind));
  fen += setup.to_move == 0 ? "] w - - 0 1" : "] b - - 0 1";
  return fen;
}

ShogiSetup position_setup(const Position& pos) {
  const Variant& variant = pos.variant();
  const BoardDef& board = variant.board();
  ShogiSetup setup = empty_setup(variant);
  for (Point s = Point(0); s < board.size(); ++s)
    setup.squares[std::size_t((shogi_rank(board, s) - 1) * board.files + shogi_file(board, s) - 1)] = pos.at(s);
  for (Side side = First; side < SideCount; ++side)
    for (const Kind kind : variant.hand_kinds()) setup.hands[side].insert(setup.hands[side].end(), std::size_t(pos.in_hand(side, kind)), kind);
  setup.to_move = pos.side_to_move();
  return setup;
}

Kind kind_by_kif(const Variant& variant, std::string_view name) {
  const auto& names = variant.rules().notation.kif_names;
  for (std::size_t k = 0; k < names.size(); ++k)
    if (std::find(names[k].begin(), names[k].end(), name) != names[k].end()) return Kind(k);
  return NoKind;
}

Kind kind_by_csa(const Variant& variant, std::string_view code) {
  const auto& names = variant.rules().notation.csa_names;
  for (std::size_t k = 0; k < names.size(); ++k)
    if (names[k] == code) return Kind(k);
  return NoKind;
}

const std::string& kif_name(const Variant& variant, Kind kind) {
  const auto& names = variant.rules().notation.kif_names[std::size_t(kind)];
  if (names.empty()) throw RecordError(variant.rules().name + "'s " + variant.kind_name(kind) + " has no KIF name (notation: kif:)");
  return names.front();
}

const std::string& csa_name(const Variant& variant, Kind kind) {
  const std::string& name = variant.rules().notation.csa_names[std::size_t(kind)];
  if (name.empty()) throw RecordError(variant.rules().name + "'s " + variant.kind_name(kind) + " has no CSA name (notation: csa:)");
  return name;
}

int japanese_number(std::string_view text) {
  if (text.size() == 1 && std::isdigit(static_cast<unsigned char>(text[0]))) return text[0] - '0';
  for (int n = 0; n < 10; ++n)
    if (text == WideDigits[n] || text == KanjiDigits[n]) return n;
  // Counts of pieces in hand: "十", "十八".
  constexpr std::string_view Ten = "十";
  if (text.substr(0, Ten.size()) == Ten) {
    if (text.size() == Ten.size()) return 10;
    const int units = japanese_number(text.substr(Ten.size()));
    return units > 0 && units < 10 ? 10 + units : -1;
  }
  return -1;
}

std::string wide_digit(int n) { return WideDigits[n]; }
std::string kanji_digit(int n) { return KanjiDigits[n]; }

void erase_tag(GameRecord& record, std::string_view name) {
  std::erase_if(record.tags, [&](const auto& tag) {
    return std::equal(tag.first.begin(), tag.first.end(), name.begin(), name.end(), [](char a, char b) {
      return std::tolower(static_cast<unsigned char>(a)) == std::tolower(static_cast<unsigned char>(b));
    });
  });
}

}  // namespace palace
