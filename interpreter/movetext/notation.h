// Moves as records write them: SAN ("Nf3", "exd5", "O-O", "e8=Q", "Hb1+"), Xiangqi WXF ("H2+3",
// "C++1") and its Chinese words ("炮二平五", "馬８進７"), ICCS ("h2e2"), the Janggi numeric
// notation ("P73-74", Korean "73졸74"), Palace's coordinates ("b10c8"), and USI's ("7g7f") where
// the board numbers its squares as shogi does. Each is written (USI only read) for any variant;
// which letters and names a game uses comes
// from its `notation:` section (loader/notation_rules.h), so no game is named here.
//
// Reading accepts every notation at once: a record or a player need not say which one they use.
// ICCS is the exception, since "h2e2" is also Palace's coordinates: a record says so (replay.h).
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "compiler/variant.h"
#include "loader/notation_rules.h"
#include "position/position.h"

namespace palace {

struct ChineseToken;  // movetext/chinese.cpp

class MoveNotation {
 public:
  explicit MoveNotation(const Variant& variant);

  NotationStyle native() const { return rules_.native; }

  // Throws Error when this game's `notation:` section does not give what `style` needs (ICCS and
  // Chinese are only written where it says so).
  void require(NotationStyle style) const;

  // `m`, a legal move of `pos`, in `style`. SAN and the Janggi notation mark a check `+` and a mate
  // `#`, which needs the move tried: `pos` is searched and left as it was.
  std::string write(Position& pos, Move m, NotationStyle style) const;

  // Why read() found no move, where its caller must tell the cases apart: a text that names several
  // moves, or a move of the side not to move, is explained by that alone.
  enum class Unread { NoMove, Ambiguous, WrongTurn };

  // The legal move of `pos` that `text` names in any notation. When there is none, returns a null
  // Move and sets `why`: "\"Nf6\" is not a legal move here", "\"R1\" is not a move",
  // "\"Nd2\" is ambiguous: the knights on b1 and f3 can both make it; write Nbd2 or Nfd2", or, where
  // `text` names a legal move of the other side, "it is White's turn: \"e5\" is a move of Black"; and
  // `unread`, where given, says which. As python-chess reads SAN, a text is read against the legal
  // moves only: where WXF or Chinese text names a piece by its file ("炮五进五") and another like it
  // stands there, the one that can legally make the move is meant. `pos` is searched and left as it was.
  Move read(Position& pos, std::string_view text, std::string& why, Unread* unread = nullptr) const;

  // File `file` (0: a) as `side` numbers it in the WXF and Chinese notations, from its own right:
  // 1 up; and in the Chinese words, the first side's numerals ("一"), the second's digits ("１").
  int file_from_right(Side side, int file) const;
  std::string chinese_file(Side side, int file) const;

  // Whether `text` is a pass: "pass", a null move of the record formats ("--", "Z0", "0000",
  // "@@@@"), or a name the game's `notation: pass:` gives it.
  bool names_pass(std::string_view text) const;

  // Why `text` names no one move: the pieces that can each make one of `found` (two or more legal
  // moves of `pos`), and `spellings`, how each is written unambiguously. `by_file` tells pieces on
  // one file apart as front and rear, as WXF and Chinese records do. Every record reader says it so;
  // one whose record names points its own way gives `own_name`, said first ("６九 (d1)").
  std::string ambiguity(const Position& pos, std::string_view text, const std::vector<Move>& found,
                        const std::vector<std::string>& spellings, bool by_file,
                        std::string (*own_name)(const BoardDef&, Point) = nullptr) const;

  // For a refused SAN-like, Chinese or Korean numeric text, where it meant to go from and to, so the
  // game layer can say why that move is illegal; false when the text names no piece and square of
  // this board.
  bool intended(const Position& pos, std::string_view text, Point& from, Point& to) const;

 private:
  struct SanParts;
  // read() for the side to move only; `ambiguous` says whether `text` named several moves.
  Move find(Position& pos, std::string_view text, std::string& why, bool& ambiguous) const;
  // The wrong-turn sentence, or "" where `text` names no legal move of the side not to move either.
  std::string wrong_turn(const Position& pos, std::string_view text) const;
  bool parse_san(std::string_view text, SanParts& parts) const;
  std::string western_san(std::string_view text) const;
  bool san_matches(const Position& pos, Move m, const SanParts& parts) const;
  bool kind_fits(Kind kind, const SanParts& parts) const;

  // SAN, or with `long_form` LAN (NotationStyle::Lan).
  std::string san(const Position& pos, Move m, const MoveList& legal, bool long_form) const;
  // The reference library's spelling, or where it differs (three soldiers or more on a file) the
  // World Xiangqi Federation's.
  std::string wxf(const Position& pos, Move m, bool official) const;
  std::string wxf_spelling(std::string_view text) const;
  // `m` as WXF names a piece alone on its file ("C5+5"), whatever stands beside it: the key that
  // WXF and Chinese texts are also read by, so legality tells like pieces on a file apart.
  std::string plain_wxf(const Position& pos, Move m) const;
  // Whether `partner`, a piece like the mover on its file, could make the same step as `m`: land on
  // the board and, for a piece kept to a zone, inside it.
  bool partner_could_move_alike(const Position& pos, Move m, Point partner) const;
  std::string numeric(const Position& pos, Move m, bool korean) const;
  bool korean_matches(const Position& pos, Move m, std::string_view text) const;
  bool take_square(std::string_view text, std::size_t& at, Point s) const;
  bool korean_points(std::string_view text, Point& from, Point& to) const;
  std::string zero_based_square(Point s) const;
  bool names_piece(std::string_view name, Kind kind, Side side) const;
  std::string check_mark(Position& pos, Move m) const;
  std::string letter(Kind kind) const;
  bool same_san_piece(int a, int b) const;
  Kind kind_by_san(char c) const;
  std::string wxf_file(Side side, int file) const;
  std::string numeric_square(Point s) const;

  // The Chinese notation (chinese.cpp). A move's spellings as tokens, the one written first; their
  // keys (ASCII: letters, digits, f/m/r for front/middle/rear, +-=) are what reading compares.
  std::vector<std::vector<ChineseToken>> chinese_spellings(const Position& pos, Move m) const;
  std::string chinese(const Position& pos, Move m, bool traditional) const;
  // `text`'s key, or "" when it is not in Chinese notation. Full-width digits are read narrowed.
  std::string chinese_key(std::string_view text) const;
  // Whether `text` uses a character of the traditional script that the simplified one writes otherwise.
  bool traditional_script(std::string_view text) const;
  bool chinese_matches(const Position& pos, Move m, const std::string& key) const;
  // The piece of the side to move that a Chinese text's key names and where it would go, legal or not.
  bool chinese_intended(const Position& pos, const std::string& key, Point& from, Point& to) const;

  const Variant& variant_;
  const NotationRules& rules_;
  bool plus_promotes_ = false;  // a trailing "+" writes a promotion ("e7e8+"), not a check
};

}  // namespace palace
