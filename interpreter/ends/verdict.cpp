#include "ends/verdict.h"

#include <algorithm>
#include <sstream>

#include "compiler/variant.h"
#include "core/text.h"

namespace palace {

namespace {

std::string number(double value) {
  std::ostringstream out;
  out << value;
  return out.str();
}

}  // namespace

std::string Verdict::reason_text(const Variant& variant) const {
  std::string text = termination == Termination::GameEnd ? variant.ends().get<GameEnd>().name : termination_name(termination);
  if (!counted) return text;
  const double first = winner ? points[*winner] : points[0];
  const double second = winner ? points[opponent(*winner)] : points[1];
  return text + ", " + number(first) + " to " + number(second) + " points";
}

std::string Verdict::claim_text() const { return termination_name(claimable); }

std::string Verdict::explanation(const Variant& variant, Side to_move) const {
  if (occurrences == 0) return "";
  if (perpetual.termination == Termination::None) {
    if (claimable == Termination::Repetition)
      return "the position has occurred " + std::to_string(occurrences) + " times; " + capitalised(variant.side_name(to_move)) +
             " may claim a draw";
    return "";
  }
  std::string deed = "given check with every move";
  if (perpetual.termination == Termination::PerpetualChase)
    deed = "chased the " + variant.rules().pieces[std::size_t(perpetual.victim_kind)].name + " on " +
           variant.board().point_name(perpetual.victim) + " with every move";
  const std::string side = capitalised(variant.side_name(perpetual.side));
  const int cycles = occurrences - 1;
  std::string text = side + " has " + deed + " for " + std::to_string(cycles) + (cycles == 1 ? " cycle" : " cycles");
  if (!perpetual.must_vary) return text;
  return text + (finished() ? ", was bound to vary and did not" : "; " + side + " must vary");
}

std::string Verdict::str(const Variant& variant) const {
  if (!finished()) return "unfinished";
  return winner ? variant.side_name(*winner) + " wins: " + reason_text(variant) : "draw: " + reason_text(variant);
}

}  // namespace palace
