#include "core/outcome.h"

namespace palace {

const char* termination_name(Termination termination) {
  switch (termination) {
    case Termination::None: return "";
    case Termination::Checkmate: return "checkmate";
    case Termination::Stalemate: return "stalemate";
    case Termination::Standoff: return "standoff";
    case Termination::BothPassed: return "both sides passed";
    case Termination::RoyalCaptured: return "royal captured";
    case Termination::RoyalExploded: return "royal exploded";
    case Termination::ChecksGiven: return "checks given";
    case Termination::ZoneReached: return "zone reached";
    case Termination::BareRoyal: return "bare royal";
    case Termination::NoPieces: return "no pieces left";
    case Termination::Repetition: return "repetition";
    case Termination::PerpetualCheck: return "perpetual check";
    case Termination::PerpetualChase: return "perpetual chase";
    case Termination::Shuttle: return "moving back and forth";
    case Termination::MoveLimit: return "move limit";
    case Termination::InsufficientMaterial: return "insufficient material";
    case Termination::ForbiddenDropMate: return "checkmate by a drop that may not mate";
    case Termination::EndgameCount: return "endgame count";
    case Termination::Extinction: return "extinction";
    case Termination::GameEnd: return "the variant's own end";
  }
  return "";
}

}  // namespace palace
