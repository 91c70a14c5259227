// A royal blown up by a capture's blast (rules.explosion) ends the game: the side whose royal still
// stands wins, the side to move where both went up together.
#pragma once

#include "ends/end_rule.h"

namespace palace {

struct RoyalExploded {
  static constexpr std::array<KeySpec, 0> keys{};  // rules.explosion turns it on
  static constexpr Stage stage = Stage::BeforeMoves;

  template <class Pos>
  bool judge(const Pos& pos, Judging& j) const {
    if (!pos.variant().explosive()) return false;
    const Side us = pos.side_to_move();
    for (Side side = First; side < SideCount; ++side)
      if (pos.royal(side) == NoPoint && pos.variant().has_royal(side))
        return j.win(pos.royal(us) == NoPoint ? opponent(us) : us, Termination::RoyalExploded);
    return false;
  }
};

}  // namespace palace
