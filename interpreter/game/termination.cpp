#include "game/termination.h"

#include <algorithm>
#include <sstream>

#include "game/explain.h"

namespace palace {

namespace {

const char* reason_name(EndReason reason) {
  switch (reason) {
    case EndReason::None: return "";
    case EndReason::Standoff: return "standoff";
    case EndReason::BothPassed: return "both sides passed";
    case EndReason::RoyalCaptured: return "royal captured";
    case EndReason::Checkmate: return "checkmate";
    case EndReason::Stalemate: return "stalemate";
    case EndReason::Repetition: return "repetition";
    case EndReason::PerpetualCheck: return "perpetual check";
    case EndReason::MoveLimit: return "move limit";
    case EndReason::InsufficientMaterial: return "insufficient material";
    case EndReason::BareRoyal: return "bare royal";
    case EndReason::NoPieces: return "no pieces left";
    case EndReason::PerpetualChase: return "perpetual chase";
    case EndReason::BackAndForth: return "moving back and forth";
    case EndReason::ChecksGiven: return "checks given";
    case EndReason::RoyalExploded: return "royal exploded";
    case EndReason::ZoneReached: return "zone reached";
    case EndReason::ForbiddenDropMate: return "checkmate by a drop that may not mate";
    case EndReason::EndgameCount: return "endgame count";
  }
  return "";
}

std::string number(double value) {
  std::ostringstream out;
  out << value;
  return out.str();
}

}  // namespace

std::string Termination::reason_text() const {
  std::string text = reason_name(reason);
  if (!counted) return text;
  const double first = kind == Kind::Win ? points[winner] : points[0];
  const double second = kind == Kind::Win ? points[opponent(winner)] : points[1];
  return text + ", " + number(first) + " to " + number(second) + " points";
}

std::string Termination::claim_text() const { return reason_name(claimable); }

std::string Termination::explanation(const Variant& variant, Side to_move) const {
  if (occurrences == 0) return "";
  if (perpetual.reason == EndReason::None) {
    if (claimable == EndReason::Repetition)
      return "the position has occurred " + std::to_string(occurrences) + " times; " + capitalised(variant.side_name(to_move)) +
             " may claim a draw";
    return "";
  }
  std::string deed = "given check with every move";
  if (perpetual.reason == EndReason::PerpetualChase)
    deed = "chased the " + variant.rules().pieces[std::size_t(perpetual.victim_kind)].name + " on " +
           variant.board().square_name(perpetual.victim) + " with every move";
  const std::string side = capitalised(variant.side_name(perpetual.side));
  const int cycles = occurrences - 1;
  std::string text = side + " has " + deed + " for " + std::to_string(cycles) + (cycles == 1 ? " cycle" : " cycles");
  if (!perpetual.must_vary) return text;
  return text + (finished() ? ", was bound to vary and did not" : "; " + side + " must vary");
}

std::string Termination::str(const Variant& variant) const {
  switch (kind) {
    case Kind::Unfinished: return "unfinished";
    case Kind::Draw: return "draw: " + reason_text();
    case Kind::Win: return variant.side_name(winner) + " wins: " + reason_text();
  }
  return "unfinished";
}

}  // namespace palace
