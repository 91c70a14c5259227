// Moves as records write them: SAN ("Nf3", "exd5", "O-O", "e8=Q", "Hb1+"), Xiangqi WXF ("H2+3",
// "C++1"), the Janggi numeric notation ("P73-74", Korean "73졸74") and Palace's coordinates
// ("b10c8"), and USI's ("7g7f") where the board numbers its squares as shogi does. Each is written
// (USI only read) for any variant; which letters and names a game uses comes
// from its `notation:` section (loader/notation_rules.h), so no game is named here.
//
// Reading accepts every notation at once: a record or a player need not say which one they use.
#pragma once

#include <string>
#include <string_view>

#include "compiler/variant.h"
#include "loader/notation_rules.h"
#include "position/position.h"

namespace palace {

class MoveNotation {
 public:
  explicit MoveNotation(const Variant& variant);

  NotationStyle native() const { return rules_.native; }

  // `m`, a legal move of `pos`, in `style`. SAN and the Janggi notation mark a check `+` and a mate
  // `#`, which needs the move tried: `pos` is searched and left as it was.
  std::string write(Position& pos, Move m, NotationStyle style) const;

  // The legal move of `pos` that `text` names in any notation. When there is none, returns a null
  // Move and sets `why`: "\"Nf6\" is not a legal move here", "\"R1\" is not a move",
  // "\"Nd2\" is ambiguous here (b1d2, f3d2)". `pos` is searched and left as it was.
  Move read(Position& pos, std::string_view text, std::string& why) const;

  // For a refused SAN-like text, where it meant to go from and to, so the game layer can say why
  // that move is illegal; false when the text names no piece and square of this board.
  bool intended(const Position& pos, std::string_view text, Square& from, Square& to) const;

 private:
  struct SanParts;
  bool parse_san(std::string_view text, SanParts& parts) const;
  bool san_matches(const Position& pos, Move m, const SanParts& parts) const;
  bool kind_fits(int kind, const SanParts& parts) const;

  std::string san(const Position& pos, Move m, const MoveList& legal) const;
  // The reference library's spelling, or where it differs (three soldiers or more on a file) the
  // World Xiangqi Federation's.
  std::string wxf(const Position& pos, Move m, bool official) const;
  std::string wxf_spelling(std::string_view text) const;
  std::string numeric(const Position& pos, Move m, bool korean) const;
  bool korean_matches(const Position& pos, Move m, std::string_view text) const;
  std::string check_mark(Position& pos, Move m) const;
  std::string letter(int kind) const;
  bool same_san_piece(int a, int b) const;
  int kind_by_san(char c) const;
  std::string wxf_file(Side side, int file) const;
  std::string numeric_square(Square s) const;

  const Variant& variant_;
  const NotationRules& rules_;
  bool plus_promotes_ = false;  // a trailing "+" writes a promotion ("e7e8+"), not a check
};

}  // namespace palace
