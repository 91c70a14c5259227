// Shorthands shared by the game tests: games by variant name, squares by name.
#pragma once

#include <memory>
#include <sstream>
#include <stdexcept>
#include <string>

#include "game/game.h"
#include "test_support.h"

namespace palace::test {

inline const std::string JanggiStart = "RNBA1ABNR/4K4/1C5C1/P1P1P1P1P/9/9/p1p1p1p1p/1c5c1/4k4/rnba1abnr w - - 0 1";

inline Game game_of(const std::string& variant, const std::string& fen = "") {
  Game game(load_variant(variant_path(variant)));
  if (!fen.empty()) game.set_fen(fen);
  return game;
}

inline Point sq(const Game& game, const std::string& name) {
  const Point s = game.variant().board().parse_point(name);
  if (s == NoPoint) throw std::invalid_argument("no square " + name);
  return s;
}

// Plays space-separated moves; the first refusal comes back as "MOVE: REASON", all accepted as "".
inline std::string play_all(Game& game, const std::string& moves) {
  std::istringstream in(moves);
  for (std::string move; in >> move;)
    if (const MoveVerdict v = game.play(move); !v.accepted) return move + ": " + v.reason;
  return "";
}

inline std::string state_of(const Game& game) { return game.game_state().str(game.variant()); }

}  // namespace palace::test
