// The static evaluation: each piece scores by side, kind and point from two tables compiled at
// construction from the pieces' values and the variant's `eval:` section, one for the opening and
// one for the endgame, blended by how much material is left (eval.phase); each piece in a hand
// scores its value; each piece of a kind with a mobility or royal-attack weight scores per point it
// could move to, counted in one walk; pieces no enemy of their kind can stop score by their rank
// (eval.passed), and two or more of a kind a pair bonus (eval.pair). Nothing is parsed or looked
// up by name while searching.
#pragma once

#include <cstdint>
#include <vector>

#include "compiler/variant.h"
#include "position/position.h"

namespace palace::search {

class Evaluation {
 public:
  explicit Evaluation(const Variant& variant);

  // Centipawns from the side to move's view.
  int operator()(const Position& pos) const;

  // A piece's material alone, for ordering captures.
  int value(int kind) const { return value_[kind]; }
  // Whether `kind` counts as more than the weakest kind, for the null-move zugzwang guard.
  bool major(int kind) const { return major_[kind]; }

 private:
  // A score as it stands in the opening and in the endgame.
  struct Score {
    int opening = 0, endgame = 0;
    Score& operator+=(Score o) {
      opening += o.opening;
      endgame += o.endgame;
      return *this;
    }
  };

  // The mobility and royal-attack bonus of `side`'s piece of `kind` on `from`.
  int walk(const Position& pos, Side side, Square from, int kind) const;
  // The passed-piece bonuses of both sides' pieces on `found` (all of the kinds eval.passed names).
  void add_passed(const Square* const found[SideCount], const int count[SideCount], const Position& pos,
                  Score total[SideCount]) const;

  int squares_;
  int files_;
  std::vector<Score> score_;  // by piece code and point: material plus square bonus
  std::vector<int> value_;
  std::vector<bool> major_;
  std::vector<int> held_;  // the kinds a hand can hold, where the variant has hands

  // What the evaluation adds for a piece of one kind beyond its table score, in one place so that
  // each piece costs one lookup.
  struct KindTerms {
    int phase = 0;         // its weight towards the opening (eval.phase)
    int mobility = 0;      // centipawns per point it could move to
    int royal_attack = 0;  // centipawns per point next to the enemy royal it could move to
    int pair = 0;          // centipawns for a side with two or more
    bool walked = false;   // mobility or royal_attack is not 0
    bool passed = false;   // eval.passed names it
  };
  std::vector<KindTerms> terms_;  // by kind
  bool pairs_ = false;            // some kind has a pair bonus

  // near_[r * squares_ + s]: whether s is next to a royal on r. Row near_rows_ is all zeros, for a
  // side with no royal or a variant with no royal-attack weight.
  std::vector<std::uint8_t> near_;
  int near_rows_ = 0;

  int full_phase_ = 0;  // the set-up's phase; 0 when the variant does not taper

  std::vector<int> passed_kind_;     // the kinds eval.passed names, by slot
  std::vector<Score> passed_score_;  // by slot, side and point
  // By point: its file, and by side and point how far along the side's forward direction it
  // lies (its rank, negated for a side moving downwards); division has no place in the hot path.
  std::vector<int> file_;
  std::vector<int> advance_;
};

}  // namespace palace::search
