// The material part of an evaluation fitted to results: a logistic regression of each game's
// points on the kinds each side held, as Texel tuning fits an evaluation's material.
#pragma once

#include <cstddef>
#include <vector>

namespace palace::lab {

// A position of a game: each kind's count, the first side's minus the second's (board and hand),
// and the first side's points from the game it came from.
struct Sample {
  std::vector<double> material;
  double points = 0.5;
};

// Each of `columns`' kinds' weight, then the first side's edge, in logits: p = 1 / (1 + e^-(w·x + edge)).
std::vector<double> fit(const std::vector<const Sample*>& samples, const std::vector<std::size_t>& columns);

// The factor that brings `fitted` nearest the file's values by least squares, or, where the file
// gives none, that makes the smallest positive fitted value 1.
double scale_to(const std::vector<double>& fitted, const std::vector<double>& file);

}  // namespace palace::lab
