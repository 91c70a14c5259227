// A Lua function a variant file names as `script.function` (scripts/README.md).
#pragma once

#include <string>

#include "loader/config_tree.h"

namespace palace {

struct HookRef {
  int script = -1;  // index into RuleSet::scripts; -1 when no hook is named
  std::string function;
  SourceMark mark;
  explicit operator bool() const { return script >= 0; }
};

}  // namespace palace
