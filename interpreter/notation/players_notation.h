// How a game's players write its moves to one another, which is not always how its records do:
// shogi players write Japanese ("☗７六歩(77)") where records may be SAN, Xiangqi players Chinese
// ("炮二平五") where records are WXF, Janggi players the Korean numeric notation ("79卒78"). The web
// board's move list, move box and edge labels follow it. Which one a game has comes from its
// `notation:` section, so no game is named here: Japanese where it names pieces for KIF (`kif:`),
// Chinese (in the traditional script, as the pieces' faces are written) where it gives Chinese
// characters (`chinese:`), Korean where it gives Korean names (`names:`), else the game's own
// (`native:`). The Korean notation names a piece by its face where the notation reads that face
// (`also:`), as Kakao Janggi's records do, so the page draws it in the font of the pieces.
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "compiler/variant.h"
#include "game/game.h"
#include "movetext/notation.h"

namespace palace {

class PlayersNotation {
 public:
  explicit PlayersNotation(const Variant& variant);

  // "kif", or the name of a MoveNotation style ("chinese", "korean", "san"...).
  std::string name() const;

  // `m`, a legal move of `pos`; KIF's 同 names the point of the move that led to `pos`, where one did.
  // `pos` is searched and left as it was.
  std::string write(Position& pos, Move m) const;

  // The legal move of `game` that `text` names in Japanese (KIF or KI2: "７六歩", "☗同歩", "２二角成"),
  // where this notation is Japanese and `text` is; a null Move otherwise, with `why` set only where
  // `text` was Japanese. Every other notation is MoveNotation's, which Game::play reads.
  Move read(const Game& game, std::string_view text, std::string& why) const;

  // The board's edge labels as the players number files (from file a on) and ranks (from rank 1
  // on); empty where they are Palace's own letters and numbers.
  std::vector<std::string> file_labels() const;
  std::vector<std::string> rank_labels() const;
  // Where each side numbers the files from its own right (the WXF notation in digits; the Chinese
  // one, the first side in numerals, the second in digits), each side's labels of them from file a
  // on, to be drawn along that side's edge; else empty.
  std::vector<std::vector<std::string>> side_file_labels() const;

 private:
  const Variant& variant_;
  MoveNotation notation_;
  // The Korean notation's text with the piece named by its face, where the notation reads it.
  std::string korean_by_face(const Position& pos, Move m, std::string text) const;
  bool japanese_ = false;
  NotationStyle style_ = NotationStyle::San;
};

}  // namespace palace
