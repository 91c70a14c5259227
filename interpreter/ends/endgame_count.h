// ends.endgame_count (Makruk's board's and pieces' honour): while none of the `blocked_by` kinds
// stands on the board, a side counts its moves and the game is drawn when the count runs past its
// limit. A side with more than its royal counts to `board_moves`; a bare royal counts from the
// number of pieces on the board to the `moves` of the first entry of `bare` whose pieces the other
// side has (at least so many of each kind). The count itself is kept in the position's state
// record (position/endgame_count.h).
#pragma once

#include <vector>

#include "ends/end_rule.h"

namespace palace {

namespace endgame_count_keys {
inline constexpr KeySpec bare_keys[] = {
    {"pieces", KeyType::List, "the kinds the other side has (at least so many of each)"},
    {"moves", KeyType::Int, "the moves a bare side counts to", "", "", KeyType::String, nullptr, false, 1, 1000},
};
inline constexpr MapSpec bare{"ends.endgame_count.bare[]", "A bare side's limit.", bare_keys};
inline constexpr KeySpec map_keys[] = {
    {"blocked_by", KeyType::OneOrList, "kinds whose presence stops any count from starting"},
    {"board", KeyType::Int, "the moves a side counts to while it has more than its royal", "", "", KeyType::String, nullptr,
     false, 1, 1000},
    {"bare", KeyType::List, "for a bare side: the first entry the other side has gives its limit", "", "", KeyType::Map, &bare},
};
inline constexpr MapSpec map{"ends.endgame_count", "Counting the moves of an endgame.", map_keys};
}  // namespace endgame_count_keys

struct CountLimit {
  std::vector<Kind> pieces;  // kinds, sorted, a kind once for each piece of it
  int moves = 0;
};

struct EndgameCount {
  static constexpr std::array keys{
      KeySpec{"endgame_count", KeyType::Map, "once no `blocked_by` kind stands, a side counts its moves; past its limit, a draw",
              "", "", KeyType::String, &endgame_count_keys::map},
  };
  static constexpr Stage stage = Stage::AfterMoves;

  std::vector<Kind> blocked_by;
  int board_moves = 0;  // 0: a side with more than its royal never counts
  std::vector<CountLimit> bare;

  bool on() const { return board_moves > 0 || !bare.empty(); }
  void read(const ConfigNode& ends, const RuleSet& rules);

  template <class Pos>
  bool judge(const Pos& pos, Judging& j) const {
    return count_ran_out(pos.state()) && j.draw(Termination::EndgameCount);
  }
};

}  // namespace palace
