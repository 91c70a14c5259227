// The static evaluation: each piece scores by side, kind and point from one table compiled at
// construction from the pieces' values and the variant's `eval:` section; each piece in a hand
// scores its value, and each piece of a kind with a mobility weight that weight per point it could
// move to. Nothing is parsed or looked up by name while searching.
#pragma once

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
  // The mobility bonus of `side`'s piece on `from`.
  int mobility(const Position& pos, Side side, Square from) const;

  int squares_;
  std::vector<int> score_;  // by piece code and point: material plus square bonus
  std::vector<int> value_;
  std::vector<bool> major_;
  std::vector<int> held_;  // the kinds a hand can hold, where the variant has hands
  std::vector<int> mobility_;  // centipawns per point a kind could move to; empty if none has one
};

}  // namespace palace::search
