// Where a player may pass in check, the other may take the royal: the game ended with that capture,
// whether or not the loser could still move. (Where royals are not protected by check at all,
// ends.royal_captured judges instead.)
#pragma once

#include "ends/end_rule.h"
#include "ends/royal_captured.h"

namespace palace {

struct RoyalTaken {
  static constexpr std::array<KeySpec, 0> keys{};  // a consequence of passing, no rule of its own
  static constexpr Stage stage = Stage::AfterMoves;

  template <class Pos>
  bool judge(const Pos& pos, Judging& j) const {
    if (end_rule<RoyalCaptured>(pos).on) return false;
    const Side us = pos.side_to_move();
    for (const Side side : {us, opponent(us)})
      if (pos.royal(side) == NoPoint && pos.variant().has_royal(side)) return j.win(opponent(side), Termination::RoyalCaptured);
    return false;
  }
};

}  // namespace palace
