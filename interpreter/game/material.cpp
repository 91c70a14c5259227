#include "game/material.h"

#include <algorithm>
#include <vector>

namespace palace {

namespace {

// The pieces in the hands of both sides: material as much as those on the board, and of no colour
// yet, for a drop may put one on either.
int in_hands(const Position& pos) {
  int held = 0;
  if (pos.variant().has_hands())
    for (Side side = First; side < SideCount; ++side)
      for (Kind kind : pos.variant().hand_kinds()) held += pos.in_hand(side, kind);
  return held;
}

// The kinds besides the royal of `side`, or of both sides for SideCount, on the board or in hand,
// sorted.
std::vector<Kind> non_royal_kinds(const Position& pos, int which) {
  std::vector<Kind> kinds;
  for (int side = 0; side < SideCount; ++side) {
    if (which != SideCount && which != side) continue;
    for (int i = 0; i < pos.piece_count(Side(side)); ++i) {
      const Kind kind = kind_of(pos.at(pos.piece_square(Side(side), i)));
      if (!pos.variant().royal(kind)) kinds.push_back(kind);
    }
    if (pos.variant().has_hands())
      for (Kind kind : pos.variant().hand_kinds()) kinds.insert(kinds.end(), pos.in_hand(Side(side), kind), kind);
  }
  std::sort(kinds.begin(), kinds.end());
  return kinds;
}

bool listed(const std::vector<std::vector<Kind>>& lists, const std::vector<Kind>& kinds) {
  return std::find(lists.begin(), lists.end(), kinds) != lists.end();
}

// Every piece besides the royals is of one of `kinds` (`one_colour`: and they all stand on one colour).
bool all_of_kinds(const Position& pos, const std::vector<Kind>& kinds, bool one_colour) {
  if (in_hands(pos) > 0) {
    if (one_colour) return false;
    for (Kind kind : non_royal_kinds(pos, SideCount))
      if (std::find(kinds.begin(), kinds.end(), kind) == kinds.end()) return false;
  }
  const BoardDef& board = pos.variant().board();
  int colour = -1;
  for (int side = 0; side < SideCount; ++side)
    for (int i = 0; i < pos.piece_count(Side(side)); ++i) {
      const Point s = pos.piece_square(Side(side), i);
      const Kind kind = kind_of(pos.at(s));
      if (pos.variant().royal(kind)) continue;
      if (std::find(kinds.begin(), kinds.end(), kind) == kinds.end()) return false;
      if (!one_colour) continue;
      const int here = (board.file_of(s) + board.rank_of(s)) % 2;
      if (colour >= 0 && here != colour) return false;
      colour = here;
    }
  return true;
}

// The longest list of a rule: a position with more pieces besides the royals matches none, which
// spares the search building lists at every node of a middlegame.
std::size_t longest(const std::vector<std::vector<Kind>>& lists) {
  std::size_t most = 0;
  for (const auto& list : lists) most = std::max(most, list.size());
  return most;
}

}  // namespace

bool material_cannot_mate(const Position& pos) {
  const DeadMaterial& rule = pos.variant().ends().get<DeadMaterial>();
  const int pieces = pos.piece_count(First) + pos.piece_count(Second) - SideCount + in_hands(pos);
  if (!rule.insufficient.empty() && std::size_t(pieces) <= 2 * longest(rule.insufficient) &&
      listed(rule.insufficient, non_royal_kinds(pos, 0)) && listed(rule.insufficient, non_royal_kinds(pos, 1)))
    return true;
  if (!rule.sets.empty() && std::size_t(pieces) <= longest(rule.sets) && listed(rule.sets, non_royal_kinds(pos, SideCount)))
    return true;
  if (!rule.only.empty() && all_of_kinds(pos, rule.only, false)) return true;
  return !rule.one_colour.empty() && all_of_kinds(pos, rule.one_colour, true);
}

bool side_cannot_mate(const Position& pos, Side side) {
  return material_cannot_mate(pos) || non_royal_kinds(pos, side).empty();
}

}  // namespace palace
