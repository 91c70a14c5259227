// ends.both_passed: two passes in a row end the game, decided by counting where the variant counts.
#pragma once

#include "ends/counting.h"
#include "ends/end_rule.h"

namespace palace {

struct BothPassed {
  static constexpr std::array keys{
      KeySpec{"both_passed", KeyType::Bool, "two passes in a row end the game", "false"},
  };
  static constexpr Stage stage = Stage::BeforeMoves;

  bool on = false;

  void read(const ConfigNode& ends, const RuleSet&) {
    if (const ConfigNode* b = ends.find(keys[0].name)) on = b->as_bool();
  }

  template <class Pos>
  bool judge(const Pos& pos, Judging& j) const {
    if (!on || pos.plies_recorded() < 2 || !pos.state_back(0).move.is_pass() || !pos.state_back(1).move.is_pass())
      return false;
    return end_rule<Counting>(pos).decide(pos, j, Termination::BothPassed);
  }
};

}  // namespace palace
