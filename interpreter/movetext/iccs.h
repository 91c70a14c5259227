// ICCS, the coordinates of Chinese computer Xiangqi and of UCCI engines: a file letter and a rank
// digit counted from 0 on the first side's edge ("h2e2"; xqbase's PGN writes "H2-E2"). Palace's
// own coordinates count ranks from 1, so "h2e2" reads as either: a record says which it means
// (notation/replay.h), and only variants whose `notation:` section says `iccs: true` use it.
#pragma once

#include <string>
#include <string_view>

#include "core/types.h"
#include "loader/rule_set.h"

namespace palace {

// `m`, a move from one square to another, as ICCS writes it: "h2e2".
std::string iccs_move(const BoardDef& board, Move m);

// The Palace coordinates ("h3e3") of an ICCS move in either case, with or without the dash
// ("h2e2", "H2-E2"); "" when `text` is no ICCS move of this board.
std::string iccs_to_coordinates(const BoardDef& board, std::string_view text);

// Whether `text` is an ICCS move naming rank 0, which Palace's coordinates never do.
bool iccs_names_rank_zero(const BoardDef& board, std::string_view text);

}  // namespace palace
