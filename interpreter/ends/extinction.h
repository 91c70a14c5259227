// ends.extinction: a side that has lost every piece of one of the listed kinds, its hand included,
// gets the result the variant names (extinction chess: the side loses; a kind counts as extinct at
// `count` pieces or fewer, and only while the other side still has `opponent_count` of it). The
// side that just moved is asked first, as the reference engine asks. With `together` the listed kinds
// are counted as one (the reference's `*`: losers, where a side down to its king alone wins).
#pragma once

#include <array>
#include <bit>
#include <cstdint>
#include <numeric>

#include "ends/end_rule.h"

namespace palace {

namespace extinction_keys {
inline constexpr KeySpec map_keys[] = {
    {"kinds", KeyType::OneOrList, "the kinds a side must keep, counting its hand"},
    {"count", KeyType::Int, "a kind is extinct when a side has this many or fewer", "0", "", KeyType::String, nullptr, false,
     0, 99},
    {"opponent_count", KeyType::Int, "and only while the other side has at least this many of it", "0", "",
     KeyType::String, nullptr, false, 0, 99},
    {"result", KeyType::Enum, "the result for the side whose kind died out", "loss", SideResults},
    {"together", KeyType::Bool, "the listed kinds are counted as one, their pieces added up", "false"},
};
inline constexpr MapSpec map{"ends.extinction", "Losing (or winning) by a kind dying out.", map_keys};
}  // namespace extinction_keys

struct Extinction {
  static constexpr std::array keys{
      KeySpec{"extinction", KeyType::Map, "a side left without any piece of a listed kind", "", "", KeyType::String,
              &extinction_keys::map},
  };
  static constexpr Stage stage = Stage::BeforeMoves;

  std::uint32_t kinds = 0;  // a bit per listed kind; 0: no such rule
  int count = 0;
  int opponent_count = 0;
  SideResult result = SideResult::Loss;
  bool together = false;

  void read(const ConfigNode& ends, const RuleSet& rules);

  template <class Pos>
  bool judge(const Pos& pos, Judging& j) const {
    if (!kinds) return false;
    std::array<std::array<int, MaxKinds>, SideCount> held{};
    for (Side side = First; side < SideCount; ++side) {
      for (int i = 0; i < pos.piece_count(side); ++i) {
        const Kind k = kind_of(pos.at(pos.piece_square(side, i)));
        if (kinds >> k & 1) ++held[side][k];
      }
      for (std::uint32_t left = kinds; left; left &= left - 1) {
        const Kind k = Kind(std::countr_zero(left));
        held[side][k] += pos.in_hand(side, k);
      }
    }
    const Side us = pos.side_to_move();
    const auto died_out = [&](int mine, int theirs) { return mine <= count && theirs >= opponent_count; };
    const auto total = [&](Side side) { return std::accumulate(held[side].begin(), held[side].end(), 0); };
    for (const Side side : {opponent(us), us}) {
      if (together) {
        if (died_out(total(side), total(opponent(side))))
          return j.ends(outcome_for(side, result, Termination::Extinction));
        continue;
      }
      for (std::uint32_t left = kinds; left; left &= left - 1) {
        const Kind k = Kind(std::countr_zero(left));
        if (died_out(held[side][k], held[opponent(side)][k]))
          return j.ends(outcome_for(side, result, Termination::Extinction));
      }
    }
    return false;
  }
};

}  // namespace palace
