// A side to move with no legal move: checkmated when in check (won by the mated side where the mate
// came from a drop that may not mate), otherwise ends.stalemate's result for it.
#pragma once

#include "ends/end_rule.h"

namespace palace {

struct NoMoves {
  static constexpr std::array keys{
      KeySpec{"stalemate", KeyType::Enum, "the result for a side to move with no legal move, not in check", "loss",
              SideResults},
  };
  static constexpr Stage stage = Stage::AfterMoves;

  SideResult stalemate = SideResult::Loss;

  void read(const ConfigNode& ends, const RuleSet&) {
    if (const ConfigNode* s = ends.find(keys[0].name)) stalemate = read_side_result(*s);
  }

  template <class Pos>
  bool judge(const Pos& pos, Judging& j) const {
    if (j.legal_moves != 0) return false;
    const Side us = pos.side_to_move();
    if (!in_check(pos)) return j.ends(outcome_for(us, stalemate, Termination::Stalemate));
    // As the reference engine has it, such a drop may be played, but its mate loses.
    if (pos.plies_recorded() > 0) {
      const Move last = pos.state().move;
      if (last.type() == MoveType::Drop && pos.variant().drop_may_not_mate(last.drop_kind()))
        return j.win(us, Termination::ForbiddenDropMate);
    }
    return j.win(opponent(us), Termination::Checkmate);
  }
};

}  // namespace palace
