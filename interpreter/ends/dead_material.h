// ends.insufficient_material and ends.dead_material: material that can never mate draws
// (game/material.h says when a position's material is so).
#pragma once

#include <vector>

#include "ends/end_rule.h"

namespace palace {

namespace dead_material_keys {
inline constexpr KeySpec kinds_keys[] = {
    {"one_colour", KeyType::OneOrList, "kinds that draw when all stand on points of one colour"},
    {"only", KeyType::OneOrList, "kinds that draw in any number, wherever they stand"},
};
inline constexpr MapSpec kinds{"ends.dead_material[]", "Kinds that can never mate.", kinds_keys};
}  // namespace dead_material_keys

struct DeadMaterial {
  static constexpr std::array keys{
      KeySpec{"insufficient_material", KeyType::List,
              "a draw when each side's pieces besides the royal form one of these lists", "", "", KeyType::List},
      KeySpec{"dead_material", KeyType::List, "a draw when all pieces but the royals form one of these lists, or a map", "",
              "", KeyType::Any, &dead_material_keys::kinds},
  };
  static constexpr Stage stage = Stage::AfterMoves;

  std::vector<std::vector<Kind>> insufficient;  // per side: kind multisets (royal excluded) that cannot mate
  std::vector<std::vector<Kind>> sets;          // whole-board kind multisets (royals excluded)
  std::vector<Kind> one_colour;                 // any number of these, all on points of one colour
  std::vector<Kind> only;                       // any number of these, anywhere

  void read(const ConfigNode& ends, const RuleSet& rules);

  template <class Pos>
  bool judge(const Pos& pos, Judging& j) const {
    return material_cannot_mate(pos) && j.draw(Termination::InsufficientMaterial);
  }
};

}  // namespace palace
