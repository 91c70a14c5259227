// The pieces each side holds off the board, ready to drop: a count per kind. Kept apart from the
// board so that variants without hands carry nothing more than an unread array.
#pragma once

#include <array>
#include <cstdint>

#include "core/types.h"

namespace palace {

struct Hand {
  std::array<std::array<std::uint8_t, MaxKinds>, SideCount> count{};
};

}  // namespace palace
