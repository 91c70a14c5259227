// Whether the material left on the board can ever mate, by the variant's two rules: per side
// (`insufficient_material`: each side's pieces besides the royal form one of the lists) and for the
// whole board (`dead_material`: all pieces besides the royals form one of the lists, or are all of
// the `one_colour` kinds standing on points of one colour, as bishops that can never attack the
// other colour's points, or are all of the `only` kinds, as pieces that can never leave their own
// side's ground).
#pragma once

#include "position/position.h"

namespace palace {

bool material_cannot_mate(const Position& pos);
// Whether `side` alone can never mate: the whole board cannot, or `side` has nothing but its royal
// (pyffish's per-side question; the rules themselves ask only material_cannot_mate).
bool side_cannot_mate(const Position& pos, Side side);

}  // namespace palace
