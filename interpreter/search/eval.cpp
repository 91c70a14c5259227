#include "search/eval.h"

#include <algorithm>
#include <climits>
#include <cmath>
#include <cstdlib>

#include "movegen/destinations.h"

namespace palace::search {

namespace {

// The row of a side's table that describes point `s`: tables are written far rank first.
int table_row(const BoardDef& board, const SideDef& side, Square s) {
  const int rank = board.rank_of(s);
  return side.forward > 0 ? board.ranks - 1 - rank : rank;
}

bool any_nonzero(const std::vector<int>& weights) {
  return std::any_of(weights.begin(), weights.end(), [](int w) { return w != 0; });
}

}  // namespace

Evaluation::Evaluation(const Variant& variant) : squares_(variant.squares()), files_(variant.rules().board.files) {
  const RuleSet& rules = variant.rules();
  const EvalDef& eval = rules.eval;
  const BoardDef& board = rules.board;
  const int kinds = variant.kinds();
  const auto def_of = [&](int k) -> const PieceEvalDef* {
    return k < int(eval.pieces.size()) ? &eval.pieces[k] : nullptr;
  };
  value_.resize(kinds);
  for (int k = 0; k < kinds; ++k) {
    const bool tuned = def_of(k) && def_of(k)->value_cp >= 0;
    value_[k] = variant.royal(k) ? 0 : tuned ? def_of(k)->value_cp : int(std::lround(rules.pieces[k].value * 100));
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

  terms_.resize(kinds);
  const auto weight = [](const std::vector<int>& by_kind, int k) { return k < int(by_kind.size()) ? by_kind[k] : 0; };
  for (int k = 0; k < kinds; ++k) {
    KindTerms& t = terms_[k];
    t.phase = weight(eval.phase, k);
    t.mobility = weight(eval.mobility, k);
    t.royal_attack = weight(eval.royal_attack, k);
    t.pair = weight(eval.pair, k);
    t.walked = t.mobility || t.royal_attack;
    pairs_ = pairs_ || t.pair;
    for (Side side = 0; side < SideCount; ++side) full_phase_ += t.phase * variant.setup_count(side, k);
  }
  if (any_nonzero(eval.royal_attack)) near_rows_ = squares_;
  near_.assign(std::size_t(near_rows_ + 1) * squares_, 0);
  for (Square r = 0; r < near_rows_; ++r)
    for (Square s = 0; s < squares_; ++s)
      near_[r * squares_ + s] = s != r && std::abs(board.file_of(s) - board.file_of(r)) <= 1 &&
                                std::abs(board.rank_of(s) - board.rank_of(r)) <= 1;

  score_.assign(std::size_t(PieceCodes) * squares_, {});
  for (Side side = 0; side < SideCount; ++side)
    for (int k = 0; k < kinds; ++k)
      for (Square s = 0; s < squares_; ++s) {
        Score score{value_[k], value_[k]};
        if (const PieceEvalDef* def = def_of(k)) {
          for (const auto& [zone, bonus] : def->zone_bonus)
            if (rules.sides[side].zones[zone][s]) score += {bonus, bonus};
          const int cell = table_row(board, rules.sides[side], s) * board.files + board.file_of(s);
          if (!def->table.empty()) score.opening += def->table[cell];
          const std::vector<int>& end_table = def->endgame_table.empty() ? def->table : def->endgame_table;
          if (!end_table.empty()) score.endgame += end_table[cell];
          if (def->endgame_value_cp >= 0 && !variant.royal(k)) score.endgame += def->endgame_value_cp - value_[k];
        }
        score_[make_piece(side, k) * squares_ + s] = score;
      }

  for (const PassedEvalDef& def : eval.passed) {
    passed_kind_.push_back(def.kind);
    terms_[def.kind].passed = true;
    for (Side side = 0; side < SideCount; ++side)
      for (Square s = 0; s < squares_; ++s) {
        const int row = table_row(board, rules.sides[side], s);
        passed_score_.push_back({def.bonus[row], def.endgame_bonus[row]});
      }
  }
  for (Square s = 0; s < squares_; ++s) file_.push_back(board.file_of(s));
  for (Side side = 0; side < SideCount; ++side)
    for (Square s = 0; s < squares_; ++s)
      advance_.push_back(rules.sides[side].forward > 0 ? board.rank_of(s) : -board.rank_of(s));
}

int Evaluation::walk(const Position& pos, Side side, Square from, int kind) const {
  const Square royal = pos.royal(opponent(side));
  const std::uint8_t* near = &near_[std::size_t(royal < near_rows_ ? royal : near_rows_) * squares_];
  int points = 0, attacks = 0;
  for_each_destination(pos, side, from, [&](Square to, MoveType, Square) {
    ++points;
    attacks += near[to];
  });
  return terms_[kind].mobility * points + terms_[kind].royal_attack * attacks;
}

void Evaluation::add_passed(const Square* const found[SideCount], const int count[SideCount], const Position& pos,
                            Score total[SideCount]) const {
  for (std::size_t slot = 0; slot < passed_kind_.size(); ++slot) {
    const int kind = passed_kind_[slot];
    // front[side][file + 1]: how far the side's most backward piece of this kind stands, measured
    // along its enemy's forward direction; the enemy's piece is passed if it is at least as far on
    // its own file and both beside it. Padding either side spares the edge files a test.
    int front[SideCount][MaxFiles + 2];
    for (Side side = 0; side < SideCount; ++side) {
      std::fill(front[side], front[side] + files_ + 2, INT_MIN);
      const int* along = &advance_[opponent(side) * squares_];
      for (int i = 0; i < count[side]; ++i)
        if (kind_of(pos.at(found[side][i])) == kind) {
          const Square s = found[side][i];
          int& f = front[side][file_[s] + 1];
          f = std::max(f, along[s]);
        }
    }
    const Score* bonus = &passed_score_[slot * SideCount * squares_];
    for (Side side = 0; side < SideCount; ++side) {
      const int* enemy = front[opponent(side)];
      for (int i = 0; i < count[side]; ++i) {
        const Square s = found[side][i];
        if (kind_of(pos.at(s)) != kind) continue;
        const int file = file_[s];
        if (advance_[side * squares_ + s] >= std::max({enemy[file], enemy[file + 1], enemy[file + 2]}))
          total[side] += bonus[side * squares_ + s];
      }
    }
  }
}

int Evaluation::operator()(const Position& pos) const {
  Score total[SideCount];
  int phase = 0;
  Square found[SideCount][MaxSquares];
  int found_count[SideCount] = {0, 0};
  int owned[SideCount][MaxKinds];
  if (pairs_) std::fill(&owned[0][0], &owned[0][0] + SideCount * MaxKinds, 0);
  for (Side side = 0; side < SideCount; ++side)
    for (int i = 0; i < pos.piece_count(side); ++i) {
      const Square s = pos.piece_square(side, i);
      const int kind = kind_of(pos.at(s));
      const KindTerms& t = terms_[kind];
      total[side] += score_[pos.at(s) * squares_ + s];
      phase += t.phase;
      if (t.walked) {
        const int bonus = walk(pos, side, s, kind);
        total[side] += {bonus, bonus};
      }
      if (t.passed) found[side][found_count[side]++] = s;
      if (t.pair) ++owned[side][kind];
    }
  for (const int k : held_)
    for (Side side = 0; side < SideCount; ++side) {
      total[side] += {pos.in_hand(side, k) * value_[k], pos.in_hand(side, k) * value_[k]};
      phase += pos.in_hand(side, k) * terms_[k].phase;
    }
  if (!passed_kind_.empty()) {
    const Square* const lists[SideCount] = {found[0], found[1]};
    add_passed(lists, found_count, pos, total);
  }
  if (pairs_)
    for (Side side = 0; side < SideCount; ++side)
      for (int k = 0; k < int(terms_.size()); ++k)
        if (owned[side][k] >= 2) total[side] += {terms_[k].pair, terms_[k].pair};

  const Side us = pos.side_to_move();
  const int opening = total[us].opening - total[opponent(us)].opening;
  const int endgame = total[us].endgame - total[opponent(us)].endgame;
  if (!full_phase_) return opening;
  const int weight = std::min(phase, full_phase_);
  return (opening * weight + endgame * (full_phase_ - weight)) / full_phase_;
}

}  // namespace palace::search
