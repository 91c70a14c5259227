// ends.counting: games that end without mate (a standoff, two passes, a repetition or move limit
// that says so) are decided by points: the values of a side's pieces plus its bonus.
#pragma once

#include "ends/end_rule.h"

namespace palace {

namespace counting_keys {
inline constexpr KeySpec map_keys[] = {
    {"bonus", KeyType::MapOf, "side: points added to its count", "", "", KeyType::Number},
};
inline constexpr MapSpec map{"ends.counting", "Deciding by points.", map_keys};
}  // namespace counting_keys

struct Counting {
  static constexpr std::array keys{
      KeySpec{"counting", KeyType::Map, "decide games ended without mate by points", "", "", KeyType::String, &counting_keys::map},
  };
  static constexpr Stage stage = Stage::AfterMoves;

  bool on = false;
  std::array<double, SideCount> bonus{};

  void read(const ConfigNode& ends, const RuleSet& rules);
  // Counting ends no game by itself: the rules that end one by points ask it.
  template <class Pos>
  bool judge(const Pos&, Judging&) const { return false; }

  // A side's points: the values of its pieces plus its bonus.
  template <class Pos>
  double points(const Pos& pos, Side side) const {
    const auto& pieces = pos.variant().rules().pieces;
    double total = bonus[side];
    for (int i = 0; i < pos.piece_count(side); ++i) total += pieces[kind_of(pos.at(pos.piece_square(side, i)))].value;
    return total;
  }

  // The game ended so, won by the side with more points, drawn where they are equal.
  template <class Pos>
  Verdict by_points(const Pos& pos, Termination termination) const {
    Verdict t;
    t.termination = termination;
    t.counted = true;
    t.points = {points(pos, First), points(pos, Second)};
    if (t.points[0] != t.points[1]) t.winner = Side(t.points[0] > t.points[1] ? 0 : 1);
    return t;
  }

  // An end that counts points where the variant counts, and is drawn where it does not.
  template <class Pos>
  bool decide(const Pos& pos, Judging& j, Termination termination) const {
    return on ? j.ends(by_points(pos, termination)) : j.draw(termination);
  }
};

}  // namespace palace
