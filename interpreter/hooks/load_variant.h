// A variant file, made ready to play: its rules read, its load-time hooks answered, compiled,
// and its runtime hooks attached for every position that will be played on it.
#pragma once

#include <memory>
#include <string>

#include "compiler/variant.h"

namespace palace {

// Throws RuleError naming the file, line and key of the first mistake.
std::shared_ptr<const Variant> load_variant(const std::string& path);

}  // namespace palace
