// One refereed game: the players propose moves, Palace's own Game judges each of them and every
// end, and the result is written as a PGN record.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "game/game.h"
#include "match/player.h"

namespace palace::match {

struct TimeControl {
  std::int64_t base_ms = 0;       // per side for the whole game; 0: no clock
  std::int64_t increment_ms = 0;  // added after each move
};

struct GameRecord {
  std::string start_fen;
  std::string names[SideCount];  // who played each side
  std::vector<std::string> moves;  // in Palace's notation
  bool finished = false;
  std::optional<Side> winner;  // none: a draw, or unfinished
  std::string termination;  // "checkmate", "adjudicated by counting: 73.5 to 72 points", "fairy-stockfish crashed"
  std::string result() const;  // "1-0", "0-1", "1/2-1/2"
};

struct RefereeSettings {
  TimeControl clock;
  int max_plies = 0;  // adjudicated after this many plies: by counting where the variant counts, else a draw
};

// Plays one game from `start_fen`, players[s] playing side s. A player that fails (illegal move,
// crash, time) loses the game, with the reason.
GameRecord play_game(const std::shared_ptr<const Variant>& variant, const std::string& start_fen,
                     Player* const players[SideCount], const RefereeSettings& settings);

// The game as PGN (notation/pgn.h): [Variant], [FEN], [Result], [Termination] and the moves in the
// variant's own notation (its `notation: native:`).
std::string pgn(const GameRecord& game, const std::shared_ptr<const Variant>& variant, int round);

}  // namespace palace::match
