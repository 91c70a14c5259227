// A variant file, made ready to play: its rules read, its load-time hooks answered, compiled. Its
// positions start their runtime hooks themselves (position/move_hooks.h). It lives in the board
// layer, the lowest that can run a hook, so that game, records and the layers above load alike.
#pragma once

#include <memory>
#include <string>

#include "compiler/variant.h"

namespace palace {

// Throws RuleError naming the file, line and key of the first mistake. `backend` chooses the move
// generator: the tests compare the others with the mailbox, the reference.
std::shared_ptr<const Variant> load_variant(const std::string& path, MoveBackend backend = MoveBackend::Fastest);

}  // namespace palace
