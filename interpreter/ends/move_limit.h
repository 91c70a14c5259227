// ends.move_limit: so many plies without a capture or a `reset_by` move end the game (drawn, or
// decided by counting), or let a player claim the draw.
#pragma once

#include <vector>

#include "ends/counting.h"
#include "ends/end_rule.h"

namespace palace {

namespace move_limit_keys {
inline constexpr KeySpec map_keys[] = {
    {"plies", KeyType::Int, "plies without a capture or a `reset_by` move that end the game", "none", "", KeyType::String,
     nullptr, false, 1, 10000},
    {"reset_by", KeyType::OneOrList, "kinds whose every move resets the count"},
    {"result", KeyType::Enum, "how the limit ends the game", "draw", "draw|counting"},
    {"claim", KeyType::Int, "from so many plies a player may claim the draw", "none"},
};
inline constexpr MapSpec map{"ends.move_limit", "A limit of plies without progress.", map_keys};
}  // namespace move_limit_keys

struct MoveLimit {
  static constexpr std::array keys{
      KeySpec{"move_limit", KeyType::Map, "plies without a capture or a pawn-like move", "", "", KeyType::String, &move_limit_keys::map},
  };
  static constexpr Stage stage = Stage::AfterMoves;

  int plies = 0;              // 0: none
  std::vector<Kind> reset_by;  // kinds whose every move resets the count
  bool by_counting = false;    // result: counting; otherwise drawn
  int claim = 0;               // so many quiet plies let a player claim a draw

  void read(const ConfigNode& ends, const RuleSet& rules);

  template <class Pos>
  bool judge(const Pos& pos, Judging& j) const {
    const int quiet = pos.state().quiet_plies;
    if (plies > 0 && quiet >= plies)
      return by_counting ? j.ends(end_rule<Counting>(pos).by_points(pos, Termination::MoveLimit)) : j.draw(Termination::MoveLimit);
    if (claim > 0 && quiet >= claim && j.going_on.claimable == Termination::None) j.going_on.claimable = Termination::MoveLimit;
    return false;
  }
};

}  // namespace palace
