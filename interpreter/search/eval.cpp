#include "search/eval.h"

#include <algorithm>
#include <climits>
#include <cmath>

#include "movegen/destinations.h"

namespace palace::search {

namespace {

// The row of a side's table that describes point `s`: tables are written far rank first.
int table_row(const BoardDef& board, const SideDef& side, Square s) {
  const int rank = board.rank_of(s);
  return side.forward > 0 ? board.ranks - 1 - rank : rank;
}

}  // namespace

Evaluation::Evaluation(const Variant& variant) : squares_(variant.squares()) {
  const RuleSet& rules = variant.rules();
  const BoardDef& board = rules.board;
  const int kinds = variant.kinds();
  value_.resize(kinds);
  for (int k = 0; k < kinds; ++k) {
    const bool tuned = k < int(rules.eval.pieces.size()) && rules.eval.pieces[k].value_cp >= 0;
    value_[k] = variant.royal(k) ? 0 : tuned ? rules.eval.pieces[k].value_cp : int(std::lround(rules.pieces[k].value * 100));
  }
  int weakest = INT_MAX;
  for (int k = 0; k < kinds; ++k)
    if (!variant.royal(k)) weakest = std::min(weakest, value_[k]);
  major_.resize(kinds);
  for (int k = 0; k < kinds; ++k) major_[k] = !variant.royal(k) && value_[k] > weakest;

  // A piece in hand is worth its material: it may enter the board on almost any point.
  if (variant.has_hands())
    for (int k = 0; k < kinds; ++k)
      if (variant.joins_hand_as(k) == k && value_[k] > 0) held_.push_back(k);

  if (std::any_of(rules.eval.mobility.begin(), rules.eval.mobility.end(), [](int w) { return w != 0; }))
    mobility_ = rules.eval.mobility;

  score_.assign(std::size_t(PieceCodes) * squares_, 0);
  for (Side side = 0; side < SideCount; ++side)
    for (int k = 0; k < kinds; ++k)
      for (Square s = 0; s < squares_; ++s) {
        int score = value_[k];
        if (k < int(rules.eval.pieces.size())) {
          const PieceEvalDef& def = rules.eval.pieces[k];
          for (const auto& [zone, bonus] : def.zone_bonus)
            if (rules.sides[side].zones[zone][s]) score += bonus;
          if (!def.table.empty())
            score += def.table[table_row(board, rules.sides[side], s) * board.files + board.file_of(s)];
        }
        score_[make_piece(side, k) * squares_ + s] = score;
      }
}

int Evaluation::mobility(const Position& pos, Side side, Square from) const {
  const int weight = mobility_[kind_of(pos.at(from))];
  if (!weight) return 0;
  int points = 0;
  for_each_destination(pos, side, from, [&](Square, MoveType, Square) { ++points; });
  return weight * points;
}

int Evaluation::operator()(const Position& pos) const {
  int total[SideCount] = {0, 0};
  for (Side side = 0; side < SideCount; ++side)
    for (int i = 0; i < pos.piece_count(side); ++i) {
      const Square s = pos.piece_square(side, i);
      total[side] += score_[pos.at(s) * squares_ + s];
      if (!mobility_.empty()) total[side] += mobility(pos, side, s);
    }
  for (const int k : held_)
    for (Side side = 0; side < SideCount; ++side) total[side] += pos.in_hand(side, k) * value_[k];
  const Side us = pos.side_to_move();
  return total[us] - total[opponent(us)];
}

}  // namespace palace::search
