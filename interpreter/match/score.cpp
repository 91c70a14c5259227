#include <algorithm>
#include <cmath>
#include <iomanip>
#include <sstream>

#include "core/text.h"
#include "match/match.h"
#include "match/match_error.h"

namespace palace::match {

namespace {

double elo_of(double ratio) { return -400.0 * std::log10(1.0 / ratio - 1.0); }
double ratio_of(double elo) { return 1.0 / (1.0 + std::pow(10.0, -elo / 400.0)); }

// Per-game variance of the score around `mean`.
double variance(const Score& s, double mean) {
  const double n = s.games();
  return (s.wins * std::pow(1 - mean, 2) + s.draws * std::pow(0.5 - mean, 2) + s.losses * std::pow(mean, 2)) / n;
}

}  // namespace

double Score::ratio() const { return games() ? (wins + 0.5 * draws) / games() : 0.5; }

// An all-win or all-loss score has no finite Elo; it is clipped just inside the ends.
double Score::elo() const {
  const double clip = 0.5 / std::max(games(), 1);
  return elo_of(std::clamp(ratio(), clip, 1 - clip)) + 0.0;  // + 0.0: an even score prints as 0, not -0
}

// Where every game went one way the spread seen is nil, yet the score is still an estimate: the rule
// of three gives 3/n as the 95% bound on the chance of the other result.
double Score::ratio_margin() const {
  if (games() < 2) return INFINITY;
  const double var = variance(*this, ratio());
  return var > 0 ? 1.96 * std::sqrt(var / games()) : 3.0 / games();
}

double Score::elo_margin() const {
  if (games() < 2) return INFINITY;
  const double clip = 0.5 / games();
  const double r = std::clamp(ratio(), clip, 1 - clip);
  return (elo_of(std::min(r + ratio_margin(), 1 - clip)) - elo_of(std::max(r - ratio_margin(), clip))) / 2;
}

// The normal approximation of the generalised SPRT, as Fishtest uses it for trinomial results.
double Score::llr(const Sprt& sprt) const {
  if (!games()) return 0;
  const double s0 = ratio_of(sprt.elo0), s1 = ratio_of(sprt.elo1);
  // Every game one way: no spread was seen, so take a decisive game's between the two hypotheses.
  double var = variance(*this, ratio());
  if (var <= 0) var = (s0 + s1) / 2 * (1 - (s0 + s1) / 2);
  return games() * (s1 - s0) * (2 * ratio() - s0 - s1) / (2 * var);
}

double Score::p_value() const {
  if (games() < 2) return 1;
  const double var = variance(*this, ratio());
  // Every game won by one side: the sign test's chance of that from even sides, either way.
  if (var <= 0) return ratio() == 0.5 ? 1 : std::min(1.0, 2 * std::pow(0.5, games()));
  return std::erfc(std::abs(ratio() - 0.5) / std::sqrt(var / games()) / std::sqrt(2.0));
}

std::string fixed(double value, int decimals) {
  std::ostringstream out;
  out << std::fixed << std::setprecision(decimals) << value;
  return out.str();
}

SprtVerdict sprt_verdict(const Score& score, const Sprt& sprt) {
  const double llr = score.llr(sprt);
  if (llr >= sprt.upper()) return SprtVerdict::H1;
  if (llr <= sprt.lower()) return SprtVerdict::H0;
  return SprtVerdict::Inconclusive;
}

std::string sprt_line(const Score& score, const Sprt& s) {
  const SprtVerdict verdict = sprt_verdict(score, s);
  std::ostringstream out;
  out << "SPRT elo0=" << s.elo0 << " elo1=" << s.elo1 << " alpha=" << s.alpha << " beta=" << s.beta << ": LLR "
      << fixed(score.llr(s), 2) << " [" << fixed(s.lower(), 2) << ", " << fixed(s.upper(), 2) << "] "
      << (verdict == SprtVerdict::H1 ? "H1 accepted" : verdict == SprtVerdict::H0 ? "H0 accepted" : "inconclusive");
  return out.str();
}

Sprt parse_sprt(const std::string& text) {
  Sprt sprt;
  std::istringstream words(text);
  for (std::string word; words >> word;) {
    const auto eq = word.find('=');
    const std::string key = word.substr(0, eq);
    double value = 0;
    std::size_t used = 0;
    try {
      value = std::stod(word.substr(eq == std::string::npos ? word.size() : eq + 1), &used);
    } catch (const std::exception&) {
      used = 0;
    }
    if (eq == std::string::npos || used != word.size() - eq - 1)
      throw MatchError("--sprt: " + palace::quote(word) + " is not KEY=NUMBER");
    if (key == "elo0")
      sprt.elo0 = value;
    else if (key == "elo1")
      sprt.elo1 = value;
    else if (key == "alpha" && value > 0 && value < 1)
      sprt.alpha = value;
    else if (key == "beta" && value > 0 && value < 1)
      sprt.beta = value;
    else
      throw MatchError("--sprt: " + palace::quote(word) + " is not elo0=, elo1=, alpha= or beta= (0 to 1)");
  }
  if (sprt.elo1 <= sprt.elo0) throw MatchError("--sprt: elo1 must be above elo0");
  return sprt;
}

}  // namespace palace::match
