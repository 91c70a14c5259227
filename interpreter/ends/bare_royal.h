// ends.bare_royal: a royal left without any other piece of its side decides the game, as the
// variant says (Shatranj: the bare side loses).
#pragma once

#include "ends/end_rule.h"

namespace palace {

struct BareRoyal {
  static constexpr std::array keys{
      KeySpec{"bare_royal", KeyType::Enum, "the result for a side whose royal stands alone", "none", SideResults},
  };
  static constexpr Stage stage = Stage::BeforeMoves;

  std::optional<SideResult> result;  // for the bared side; none: no such rule

  void read(const ConfigNode& ends, const RuleSet&) {
    if (const ConfigNode* b = ends.find(keys[0].name)) result = read_side_result(*b);
  }

  // Where the bared side is to move it may still bare the other royal in reply, so then it is bared
  // for good only when the other side has two pieces or more besides its royal (as in Shatranj);
  // where the other side is to move, its reply has been made.
  template <class Pos>
  bool judge(const Pos& pos, Judging& j) const {
    if (!result) return false;
    const Side us = pos.side_to_move(), them = opponent(us);
    const auto bare = [&](Side side) { return pos.piece_count(side) == 1 && pos.royal(side) != NoPoint; };
    if (bare(them) && pos.piece_count(us) >= 2) return j.ends(outcome_for(them, *result, Termination::BareRoyal));
    if (bare(us) && pos.piece_count(them) >= 3) return j.ends(outcome_for(us, *result, Termination::BareRoyal));
    return false;
  }
};

}  // namespace palace
