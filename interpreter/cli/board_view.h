// A position drawn in text for people, after the casual Janggi document's board: points joined by
// --- and |, the board's declared diagonal lines as / and \, file letters above and below, rank
// numbers on both sides, and each side's points beside the side's home edge. Any board size.
#pragma once

#include <string>

#include "position/position.h"

namespace palace::cli {

// The board as lines ending in '\n'. With `colour`, ANSI escapes paint each side's pieces in the
// colour its YAML names and dim the lines.
std::string draw_board(const Position& pos, bool colour);

}  // namespace palace::cli
