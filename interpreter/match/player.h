// The two sides of a refereed game: Palace's own engine, or an external engine over pipes speaking
// UCI, USI, UCCI or CECP (XBoard). A player only proposes moves; the referee judges them with
// Palace's rules.
#pragma once

#include <chrono>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "compiler/variant.h"
#include "game/game.h"
#include "match/process.h"
#include "notation/wire.h"
#include "search/search.h"

namespace palace::match {

// Who plays and how long it may think. Zero means "not set", as in search::Limits.
struct PlayerSpec {
  std::string name;
  std::string command;     // external engine's command line; empty for Palace's own engine
  std::string protocol = "uci";  // the external engine's: uci, usi, ucci or xboard
  std::string variant;     // UCI_Variant to ask an external engine for; empty: the wire name
  std::map<std::string, std::string> options;  // setoption name -> value, for an external engine
  std::string eval_file;   // Palace's engine: a variant file whose eval: section it searches with
  int depth = 0;
  std::uint64_t nodes = 0;
  int movetime_ms = 0;
};

// Reads "palace,depth=4,eval=FILE" or "engine=CMD,protocol=usi,variant=NAME,option.Skill Level=10,movetime=100".
// Throws MatchError naming the bad part.
PlayerSpec parse_player_spec(const std::string& text);

// A move request's answer: a move, or why the player lost the game by it.
struct Answer {
  std::string move;     // in UCI's wire notation, whatever the protocol
  std::string failure;  // "crashed", "lost on time", ... ; empty when a move came
  std::int64_t used_ms = 0;
};

// The clock a move request is made under: each side's time left and increment, in milliseconds.
struct Clocks {
  std::int64_t left_ms[SideCount] = {0, 0};
  std::int64_t increment_ms[SideCount] = {0, 0};
};

class Player {
 public:
  virtual ~Player() = default;
  const std::string& name() const { return spec_.name; }
  virtual void new_game() = 0;
  // A move for the side to move of `game`, whose moves were played from `start_fen`.
  virtual Answer think(const Game& game, const std::string& start_fen, const Clocks& clocks) = 0;

 protected:
  explicit Player(PlayerSpec spec) : spec_(std::move(spec)) {}
  search::Limits limits(const Clocks& clocks) const;
  PlayerSpec spec_;
};

// Builds the player `spec` describes for games of `variant`. Throws RuleError; an engine that does
// not start loses its games rather than throwing (see check_player).
std::unique_ptr<Player> make_player(const PlayerSpec& spec, std::shared_ptr<const Variant> variant);
// Throws MatchError (or RuleError) when the player `spec` describes cannot start: asked once before
// a match, so that a mistyped engine fails the match rather than every game.
void check_player(const PlayerSpec& spec, std::shared_ptr<const Variant> variant);

}  // namespace palace::match
