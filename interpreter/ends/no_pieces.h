// ends.no_pieces: a side with no piece left gets the result the variant names (horde's side without
// a royal loses so).
#pragma once

#include "ends/end_rule.h"

namespace palace {

struct NoPieces {
  static constexpr std::array keys{
      KeySpec{"no_pieces", KeyType::Enum, "the result for a side with no piece left", "none", SideResults},
  };
  static constexpr Stage stage = Stage::AfterMoves;

  std::optional<SideResult> result;  // none: no such rule

  void read(const ConfigNode& ends, const RuleSet&) {
    if (const ConfigNode* n = ends.find(keys[0].name)) result = read_side_result(*n);
  }

  template <class Pos>
  bool judge(const Pos& pos, Judging& j) const {
    if (!result) return false;
    const Side us = pos.side_to_move();
    for (const Side side : {opponent(us), us})
      if (pos.piece_count(side) == 0) return j.ends(outcome_for(side, *result, Termination::NoPieces));
    return false;
  }
};

}  // namespace palace
