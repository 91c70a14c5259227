// ends.game_end: a Lua hook that may end the game, for an ending no other rule says
// (scripts/README.md). It reads the board as it stands and answers nothing while the game goes on,
// or the winner (or a draw) once it has ended; `name` is the words players read for that end.
#pragma once

#include <string>

#include "ends/end_rule.h"
#include "loader/hook_ref.h"

namespace palace {

namespace game_end_keys {
inline constexpr KeySpec map_keys[] = {
    {"hook", KeyType::String, "`script.function`: asked at each position whether the game has ended"},
    {"name", KeyType::String, "the words players read for this end", "the variant's own end"},
};
inline constexpr MapSpec map{"ends.game_end", "An end a Lua hook decides.", map_keys};
}  // namespace game_end_keys

struct GameEnd {
  static constexpr std::array keys{
      KeySpec{"game_end", KeyType::Map, "a Lua hook that may end the game", "", "", KeyType::String, &game_end_keys::map},
  };
  static constexpr Stage stage = Stage::BeforeMoves;

  HookRef hook;  // none: no such rule
  std::string name = game_end_keys::map_keys[1].fallback;

  void read(const ConfigNode& ends, const RuleSet& rules);

  template <class Pos>
  bool judge(const Pos& pos, Judging& j) const {
    if (!hook) return false;
    const Outcome ended = pos.move_hooks()->game_end(pos);
    return ended.finished() && j.ends(ended);
  }
};

}  // namespace palace
