// ends.standoff: where facing royals start a standoff (rules.facing_royals: standoff), so many plies
// of it in a row end the game, decided by counting where the variant counts.
#pragma once

#include "ends/counting.h"
#include "ends/end_rule.h"

namespace palace {

struct Standoff {
  static constexpr std::array keys{
      KeySpec{"standoff", KeyType::Int, "plies of facing royals in a row that end the game (`rules.facing_royals: standoff`)",
              "2", "", KeyType::String, nullptr, false, 1, 100},
  };
  static constexpr Stage stage = Stage::BeforeMoves;

  bool on = false;  // rules.facing_royals: standoff
  int plies = 2;

  void read(const ConfigNode& ends, const RuleSet& rules);

  template <class Pos>
  bool judge(const Pos& pos, Judging& j) const {
    // The position the record starts from is a ply like any other: a standoff may already hold there.
    if (!on || pos.plies_recorded() + 1 < plies) return false;
    for (int back = 0; back < plies; ++back)
      if (!pos.state_back(back).royals_facing) return false;
    return end_rule<Counting>(pos).decide(pos, j, Termination::Standoff);
  }
};

}  // namespace palace
