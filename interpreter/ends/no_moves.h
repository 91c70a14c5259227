// A side to move with no legal move: checkmated when in check, with ends.checkmate's result for it
// (a misère game lets the mated side win; won by the mated side too where the mate came from a drop
// that may not mate), otherwise ends.stalemate's result for it.
#pragma once

#include "ends/end_rule.h"

namespace palace {

struct NoMoves {
  static constexpr std::array keys{
      KeySpec{"stalemate", KeyType::Enum, "the result for a side to move with no legal move, not in check", "loss",
              SideResults},
      KeySpec{"checkmate", KeyType::Enum, "the result for a side to move with no legal move, in check", "loss", SideResults},
  };
  static constexpr Stage stage = Stage::AfterMoves;

  SideResult stalemate = SideResult::Loss;
  SideResult checkmate = SideResult::Loss;

  void read(const ConfigNode& ends, const RuleSet&) {
    if (const ConfigNode* s = ends.find(keys[0].name)) stalemate = read_side_result(*s);
    if (const ConfigNode* c = ends.find(keys[1].name)) checkmate = read_side_result(*c);
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
    return j.ends(outcome_for(us, checkmate, Termination::Checkmate));
  }
};

}  // namespace palace
