// Why a move is refused, in plain words with the variant's own piece, side and zone names.
//
// Legality is movegen's alone: a request is explained only after movegen has turned it down, and
// the explanation then looks for the first rule the request breaks, reading the pieces' parts as
// the YAML wrote them. This is the slow path (one request at a time), written for clarity.
#pragma once

#include <string>

#include "core/types.h"
#include "position/position.h"

namespace palace {

// Said only when movegen refuses a request for a reason none of the rules below covers: a sign
// that an explanation is missing, which the tests look for.
inline constexpr const char* UnexplainedRefusal = "that move is not allowed here";

// Why from->to (promoting to `promotion_kind`, or -1) is not a legal move in `pos`, or "" when it
// is. from == to asks for a pass. `pos` is searched but left exactly as it was. Whether the game
// is already over is the caller's question (see Game::explain).
std::string explain_move(Position& pos, Point from, Point to, Kind promotion_kind = NoKind);

// Why dropping a `kind` from the mover's hand on `to` is not a legal move, or "" when it is.
std::string explain_drop(Position& pos, Kind kind, Point to);

// Why the side to move may not pass now, or "" when it may.
std::string explain_pass(Position& pos);

// A move text of the variant to show in "expected squares like b10c8": from the set-up, a leaping
// piece's move that lands nearest the centre, because developing such a piece is a move every
// player of the game knows.
std::string example_move(const std::shared_ptr<const Variant>& variant);

// "a horse", "an elephant".
std::string with_article(const std::string& noun);

}  // namespace palace
