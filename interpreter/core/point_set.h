// A set of points of one board, as a bit per square.
#pragma once

#include <bitset>

#include "core/types.h"

namespace palace {

using PointSet = std::bitset<MaxPoints>;

}  // namespace palace
