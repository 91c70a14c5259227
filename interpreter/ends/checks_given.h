// ends.checks_given: the side that has given check so many times wins (three-check). The checks a
// side still needs are counted in the position's state record (Position::make, the FEN's field).
#pragma once

#include "ends/end_rule.h"

namespace palace {

struct ChecksGiven {
  static constexpr std::array keys{
      KeySpec{"checks_given", KeyType::Int, "the side that gives check this many times wins", "none", "",
              KeyType::String, nullptr, false, 1, 99},
  };
  static constexpr Stage stage = Stage::BeforeMoves;

  int limit = 0;  // 0: checks are not counted

  void read(const ConfigNode& ends, const RuleSet&) {
    if (const ConfigNode* c = ends.find(keys[0].name)) limit = read_int(*c, keys[0]);
  }

  template <class Pos>
  bool judge(const Pos& pos, Judging& j) const {
    if (!limit) return false;
    for (Side side = First; side < SideCount; ++side)
      if (pos.state().checks_needed[side] == 0) return j.win(side, Termination::ChecksGiven);
    return false;
  }
};

}  // namespace palace
