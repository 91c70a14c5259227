#include "position/endgame_count.h"

#include <algorithm>
#include <array>

namespace palace {

namespace {

bool bare(const Position& pos, Side side) { return pos.piece_count(side) <= 1; }

bool blocks(const EndgameCount& rule, Kind kind) {
  return std::find(rule.blocked_by.begin(), rule.blocked_by.end(), kind) != rule.blocked_by.end();
}

// Whether `held` (pieces per kind) has at least the pieces of `needed` (a kind once per piece).
bool holds(std::array<int, MaxKinds> held, const std::vector<Kind>& needed) {
  for (const Kind kind : needed)
    if (--held[std::size_t(kind)] < 0) return false;
  return true;
}

void start(StateRecord& st, int limit, int plies) {
  st.count_limit = std::uint16_t(limit);
  st.count_plies = std::uint16_t(plies);
}

}  // namespace

bool count_blocked(const Position& pos) {
  const EndgameCount& rule = pos.variant().ends().get<EndgameCount>();
  if (!rule.on()) return false;
  for (const Side s : {Side(0), Side(1)})
    for (int i = 0; i < pos.piece_count(s); ++i)
      if (blocks(rule, kind_of(pos.at(pos.piece_square(s, i))))) return true;
  return false;
}

int count_limit_plies(const Position& pos, Side side) {
  const EndgameCount& rule = pos.variant().ends().get<EndgameCount>();
  const Side other = opponent(side);
  if (pos.state().count_blocked || bare(pos, other)) return 0;
  if (!bare(pos, side)) return 2 * rule.board_moves;
  std::array<int, MaxKinds> others{};
  for (int i = 0; i < pos.piece_count(other); ++i) ++others[std::size_t(kind_of(pos.at(pos.piece_square(other, i))))];
  for (const CountLimit& limit : rule.bare)
    if (holds(others, limit.pieces)) return 2 * limit.moves;
  return 0;
}

void advance_endgame_count(const Position& pos, StateRecord& st) {
  const Side us = pos.side_to_move(), mover = opponent(us);
  const int pieces = pos.piece_count(First) + pos.piece_count(Second);
  const bool took = st.captured != NoPiece;
  const bool promoted = st.move.promotion_kind() >= 0;
  if (st.count_limit && st.count_plies < UINT16_MAX) ++st.count_plies;
  // Blockers come and go only with a capture, a promotion, a drop or a hook's edit; while one
  // stands, no count starts.
  const bool changed = took || promoted || st.move.type() == MoveType::Drop || st.edited;
  if (!changed && st.count_blocked) return;
  if (changed) st.count_blocked = count_blocked(pos);
  // The mover's own move is the first of its count: the pieces' honour counts from the number of
  // pieces on the board, one ply ahead of a count the side to move starts.
  if (took && blocks(pos.variant().ends().get<EndgameCount>(), kind_of(st.captured)) && bare(pos, mover))
    if (const int limit = count_limit_plies(pos, mover)) start(st, limit, 2 * pieces - 1);
  if (!st.count_limit || ((took || promoted) && bare(pos, us)))
    if (const int limit = count_limit_plies(pos, us)) start(st, limit, bare(pos, us) ? 2 * pieces : 0);
}

}  // namespace palace
