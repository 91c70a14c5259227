// The tables of promotion choices and of hands: where a piece may or must promote, where each
// kind may be dropped, the hands' hash keys, and the move bound of a game whose pieces change side.
#include <algorithm>
#include <functional>

#include "compiler/variant.h"

namespace palace {

bool Variant::dead_at(Side side, Kind kind, Point s) const {
  const Span leaps = leap_spans_[index(side, kind, s)], rays = ray_spans_[index(side, kind, s)];
  return leaps.begin == leaps.end && rays.begin == rays.end;
}

void Variant::build_promotions() {
  promotion_.assign(std::size_t(SideCount) * kinds_ * squares_, 0);
  for (Side side = First; side < SideCount; ++side)
    for (Kind k = Kind(0); k < kinds_; ++k) {
      const PieceDef& piece = rules_.pieces[k];
      if (piece.promotion_zone < 0) continue;
      for (Point s = Point(0); s < squares_; ++s) {
        if (!rules_.sides[side].zones[piece.promotion_zone][s]) continue;
        const bool optional_here = piece.promotion_optional_in >= 0 && rules_.sides[side].zones[piece.promotion_optional_in][s];
        const bool must = !optional_here && (piece.promotion_choice == PromotionChoice::Forced ||
                                             (piece.promotion_choice == PromotionChoice::OptionalUnlessDead && dead_at(side, k, s)));
        promotion_[index(side, k, s)] = std::uint8_t(PromotesArriving | (piece.promotion_leaving ? PromotesLeaving : 0) |
                                                     (must ? MustPromote : 0));
      }
    }
}

void Variant::build_hands() {
  const HandRules& hands = rules_.hands;
  if (!hands.enabled) return;
  for (Kind k = Kind(0); k < kinds_; ++k)
    if (joins_hand_as(k) == k) hand_kinds_.push_back(k);
  for (Kind k : hands.one_per_file) one_per_file_ |= 1u << k;
  for (Kind k : hands.drop_may_not_mate) drop_may_not_mate_ |= 1u << k;

  // A royal in a hand was taken, which ended the game: it is never dropped.
  drop_points_.resize(std::size_t(SideCount) * kinds_);
  for (Side side = First; side < SideCount; ++side)
    for (Kind k : hand_kinds_) {
      if (rules_.pieces[k].royal) continue;
      const int zone = hands.drop_zone[k];
      const int stay = rules_.pieces[k].stay_in;
      for (Point s = Point(0); s < squares_; ++s) {
        const PointSet* zones = rules_.sides[side].zones.data();
        if (board().is_hole(s) || (zone >= 0 && !zones[zone][s]) || (stay >= 0 && !zones[stay][s])) continue;
        if (hands.no_dead_drops && dead_at(side, k, s)) continue;
        drop_points_[side * kinds_ + k].push_back(s);
      }
    }

  // Per family, the most moves n of its pieces could make on n points: the n largest per-point
  // maxima over the family's kinds.
  for (Side side = First; side < SideCount; ++side) {
    family_bound_[side].assign(kinds_, {});
    for (Kind f : hand_kinds_) {
      std::vector<int> per_square(squares_, 0);
      for (Kind k = Kind(0); k < kinds_; ++k)
        if (family(k) == f)
          for (Point s = Point(0); s < squares_; ++s) per_square[s] = std::max(per_square[s], moves_at(side, k, s));
      std::sort(per_square.begin(), per_square.end(), std::greater<>());
      std::vector<int>& bound = family_bound_[side][f];
      bound.assign(1, 0);
      for (const int moves : per_square) bound.push_back(bound.back() + moves);
    }
  }
  std::vector<int> count(kinds_, 0);
  for (Side side = First; side < SideCount; ++side) {
    for (const Placement& p : rules_.setup[side]) ++count[family(p.kind)];
    for (Kind k = Kind(0); k < kinds_; ++k) count[k] += rules_.hands.at_start[side][k];
  }
  for (Kind k : hand_kinds_)
    if (count[k] > MaxHandCount)
      throw RuleError(rules_.source_file + ": setup: " + std::to_string(count[k]) + " pieces go to a hand as " +
                      rules_.pieces[k].name + "; a hand holds at most " + std::to_string(MaxHandCount) + " of a kind");
  const int bound = most_moves_with_hands(count);
  if (bound > MaxMoves)
    throw RuleError(rules_.source_file + ": setup: once pieces change side, a side could have up to " +
                    std::to_string(bound) + " moves in one position; Palace supports at most " + std::to_string(MaxMoves));
}

int Variant::most_moves_with_hands(const std::vector<int>& family_count) const {
  int worst = 0;
  for (Side side = First; side < SideCount; ++side) {
    int moves = 1 + int(std::count_if(compounds_.begin(), compounds_.end(), [&](const CompoundMove& c) { return c.side == side; }));
    for (Kind f : hand_kinds_) {
      const std::vector<int>& bound = family_bound_[side][f];
      moves += bound[std::min<std::size_t>(std::size_t(family_count[f]), bound.size() - 1)];
      if (family_count[f] > 0) moves += int(drop_points(side, f).size());
    }
    worst = std::max(worst, moves);
  }
  return worst;
}

}  // namespace palace
