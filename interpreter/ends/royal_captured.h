// ends.royal_captured: royals are not protected by check; a side whose royals have all been taken
// has lost.
#pragma once

#include <bit>

#include "ends/end_rule.h"

namespace palace {

struct RoyalCaptured {
  static constexpr std::array keys{
      KeySpec{"royal_captured", KeyType::Bool, "the royal is not protected by check: taking it wins", "false"},
  };
  static constexpr Stage stage = Stage::BeforeMoves;

  bool on = false;

  void read(const ConfigNode& ends, const RuleSet&) {
    if (const ConfigNode* c = ends.find(keys[0].name)) on = c->as_bool();
  }

  template <class Pos>
  bool judge(const Pos& pos, Judging& j) const {
    if (!on) return false;
    const auto& pieces = pos.variant().rules().pieces;
    const auto* bits = pos.variant().bitboards();
    for (const Side side : {pos.side_to_move(), opponent(pos.side_to_move())}) {
      bool held = false;
      // Asked at every node: where the position keeps bitboards, the royal kinds' sets answer.
      if (bits)
        for (std::uint32_t kinds = bits->royal_kinds(); kinds && !held; kinds &= kinds - 1)
          held = pos.pieces(make_piece(side, Kind(std::countr_zero(kinds)))) != 0;
      else
        for (int i = 0; i < pos.piece_count(side) && !held; ++i) held = pieces[kind_of(pos.at(pos.piece_square(side, i)))].royal;
      if (!held) return j.win(opponent(side), Termination::RoyalCaptured);
    }
    return false;
  }
};

}  // namespace palace
