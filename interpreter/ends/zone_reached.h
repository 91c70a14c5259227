// ends.zone_reached: a piece of a kind standing in a zone of its side wins (king of the hill, the
// dobutsu lion), where it must be safe there only once the other side cannot take it.
#pragma once

#include "ends/end_rule.h"

namespace palace {

namespace zone_reached_keys {
inline constexpr KeySpec map_keys[] = {
    {"kind", KeyType::String, "the kind that wins by reaching the zone"},
    {"zone", KeyType::String, "the zone it must reach"},
    {"safely", KeyType::Bool, "it must not be attacked there", "true"},
};
inline constexpr MapSpec map{"ends.zone_reached", "Winning by reaching a zone.", map_keys};
}  // namespace zone_reached_keys

struct ZoneReached {
  static constexpr std::array keys{
      KeySpec{"zone_reached", KeyType::Map, "a piece that reaches a zone wins", "", "", KeyType::String, &zone_reached_keys::map},
  };
  static constexpr Stage stage = Stage::BeforeMoves;

  Kind kind = NoKind;  // NoKind: no such rule
  int zone = -1;
  bool safely = true;

  void read(const ConfigNode& ends, const RuleSet& rules);

  // A side with its piece in its zone (and, where it must be safe there, out of the other side's
  // reach), whoever is to move; the side that just moved first.
  template <class Pos>
  bool judge(const Pos& pos, Judging& j) const {
    if (kind < 0) return false;
    const Side us = pos.side_to_move(), mover = opponent(us);
    if (in_zone(pos, mover)) return j.win(mover, Termination::ZoneReached);
    if (in_zone(pos, us)) return j.win(us, Termination::ZoneReached);
    return false;
  }

 private:
  template <class Pos>
  bool in_zone(const Pos& pos, Side side) const {
    const auto& points = pos.variant().rules().sides[side].zones[zone];
    const auto reached = [&](Point s) { return points[s] && !(safely && attacked(pos, s, opponent(side), kind)); };
    // Asked at every node: where the position keeps bitboards, the kind's points are read, not
    // searched for among all the side's pieces.
    if (pos.variant().bitboards()) {
      for (auto left = pos.pieces(make_piece(side, kind)); left;)
        if (reached(pop_point(left))) return true;
      return false;
    }
    for (int i = 0; i < pos.piece_count(side); ++i) {
      const Point s = pos.piece_square(side, i);
      if (kind_of(pos.at(s)) == kind && reached(s)) return true;
    }
    return false;
  }
};

}  // namespace palace
