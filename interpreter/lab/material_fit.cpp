#include "lab/material_fit.h"

#include <algorithm>
#include <cmath>

namespace palace::lab {

namespace {

// Solves a x = b in place (a is n x n, row-major) by elimination with partial pivoting; false when
// the system is singular.
bool solve(std::vector<double>& a, std::vector<double>& b) {
  const std::size_t n = b.size();
  for (std::size_t c = 0; c < n; ++c) {
    std::size_t pivot = c;
    for (std::size_t r = c + 1; r < n; ++r)
      if (std::abs(a[r * n + c]) > std::abs(a[pivot * n + c])) pivot = r;
    if (std::abs(a[pivot * n + c]) < 1e-12) return false;
    for (std::size_t k = 0; k < n; ++k) std::swap(a[c * n + k], a[pivot * n + k]);
    std::swap(b[c], b[pivot]);
    for (std::size_t r = 0; r < n; ++r) {
      if (r == c) continue;
      const double f = a[r * n + c] / a[c * n + c];
      for (std::size_t k = c; k < n; ++k) a[r * n + k] -= f * a[c * n + k];
      b[r] -= f * b[c];
    }
  }
  for (std::size_t c = 0; c < n; ++c) b[c] /= a[c * n + c];
  return true;
}

}  // namespace

// Logistic regression of the points on the material, by Newton's method, with a light ridge so that
// a kind seldom out of balance stays near zero instead of running off. The last weight is the
// first side's edge, whatever the material. The kinds fitted are `columns`.
std::vector<double> fit(const std::vector<const Sample*>& samples, const std::vector<std::size_t>& columns) {
  const std::size_t n = columns.size() + 1;
  std::vector<double> w(n, 0.0);
  const double ridge = 1e-3 * double(samples.size());
  for (int iteration = 0; iteration < 25; ++iteration) {
    std::vector<double> gradient(n, 0.0), hessian(n * n, 0.0);
    std::vector<double> x(n);
    for (const Sample* s : samples) {
      for (std::size_t i = 0; i < columns.size(); ++i) x[i] = s->material[columns[i]];
      x[n - 1] = 1;
      double z = 0;
      for (std::size_t i = 0; i < n; ++i) z += w[i] * x[i];
      const double p = 1 / (1 + std::exp(-z));
      for (std::size_t i = 0; i < n; ++i) {
        gradient[i] += (p - s->points) * x[i];
        for (std::size_t j = 0; j < n; ++j) hessian[i * n + j] += p * (1 - p) * x[i] * x[j];
      }
    }
    for (std::size_t i = 0; i + 1 < n; ++i) {
      gradient[i] += ridge * w[i];
      hessian[i * n + i] += ridge;
    }
    if (!solve(hessian, gradient)) break;
    double step = 0;
    for (std::size_t i = 0; i < n; ++i) {
      w[i] -= gradient[i];
      step = std::max(step, std::abs(gradient[i]));
    }
    if (step < 1e-7) break;
  }
  return w;
}

// The factor that brings `fitted` nearest the file's values by least squares, or, where the file
// gives none, that makes the smallest positive fitted value 1.
double scale_to(const std::vector<double>& fitted, const std::vector<double>& file) {
  double dot = 0, norm = 0, smallest = INFINITY;
  for (std::size_t i = 0; i < fitted.size(); ++i) {
    dot += fitted[i] * file[i];
    norm += fitted[i] * fitted[i];
    if (fitted[i] > 0) smallest = std::min(smallest, fitted[i]);
  }
  if (dot > 0 && norm > 0) return dot / norm;
  return std::isfinite(smallest) ? 1 / smallest : 1;
}

}  // namespace palace::lab
