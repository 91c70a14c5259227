// How the variant is written on the wire to other engines and GUIs (UCI, USI, UCCI, CECP): the optional `uci:`
// section of a variant file. The protocol's notation is data here, so no game is named in code.
#pragma once

#include <string>

#include "loader/config_tree.h"

namespace palace {

// How a pass goes on the wire: the UCI null move "0000", or the mover's royal square twice ("e2e2").
enum class WirePass : std::uint8_t { NullMove, RoyalPoint };

struct UciRules {
  std::string variant;        // UCI_Variant name other engines know it by; empty: the variant's own name
  bool mirror_ranks = false;  // the wire numbers ranks from the other edge (rank r is ranks + 1 - r)
  WirePass pass = WirePass::NullMove;
  std::string xboard;         // the name XBoard's `variant` command uses; empty: the UCI name
  std::string chess960;       // the UCI name of the game's Chess960 form (pyffish's chess960 flag); empty: none
};

// Reads `uci: {variant: NAME, mirror_ranks: BOOL, pass: null-move|royal-square, xboard: NAME, chess960: NAME}`. Throws RuleError.
UciRules read_uci_rules(const ConfigNode& node);

}  // namespace palace
