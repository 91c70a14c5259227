#include "position/endgame_count.h"

#include <algorithm>
#include <array>

namespace palace {

namespace {

bool bare(const Position& pos, Side side) { return pos.piece_count(side) <= 1; }

bool blocks(const EndgameCount& rule, int kind) {
  return std::find(rule.blockers.begin(), rule.blockers.end(), kind) != rule.blockers.end();
}

// Whether `held` (pieces per kind) has at least the pieces of `needed` (a kind once per piece).
bool holds(std::array<int, MaxKinds> held, const std::vector<int>& needed) {
  for (const int kind : needed)
    if (--held[std::size_t(kind)] < 0) return false;
  return true;
}

void start(StateRecord& st, int limit, int plies) {
  st.count_limit = std::uint16_t(limit);
  st.count_plies = std::uint16_t(plies);
}

}  // namespace

int count_limit_plies(const Position& pos, Side side) {
  const EndgameCount& rule = pos.variant().game_rules().endgame_count;
  const Side other = opponent(side);
  if (bare(pos, other)) return 0;
  std::array<int, MaxKinds> others{};
  for (const Side s : {side, other})
    for (int i = 0; i < pos.piece_count(s); ++i) {
      const int kind = kind_of(pos.at(pos.piece_square(s, i)));
      if (blocks(rule, kind)) return 0;
      if (s == other) ++others[std::size_t(kind)];
    }
  if (!bare(pos, side)) return 2 * rule.board_moves;
  for (const CountLimit& limit : rule.bare)
    if (holds(others, limit.pieces)) return 2 * limit.moves;
  return 0;
}

void advance_endgame_count(const Position& pos, StateRecord& st) {
  const Side us = pos.side_to_move(), mover = opponent(us);
  const int pieces = pos.piece_count(0) + pos.piece_count(1);
  const bool took = st.captured != NoPiece;
  const bool promoted = st.move.promotion_kind() >= 0;
  if (st.count_limit) ++st.count_plies;
  // The mover's own move is the first of its count: the pieces' honour counts from the number of
  // pieces on the board, one ply ahead of a count the side to move starts.
  if (took && blocks(pos.variant().game_rules().endgame_count, kind_of(st.captured)) && bare(pos, mover))
    if (const int limit = count_limit_plies(pos, mover)) start(st, limit, 2 * pieces - 1);
  if (!st.count_limit || ((took || promoted) && bare(pos, us)))
    if (const int limit = count_limit_plies(pos, us)) start(st, limit, bare(pos, us) ? 2 * pieces : 0);
}

}  // namespace palace
