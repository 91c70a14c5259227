// Shogi records in CSA (the Computer Shogi Association's format, V2.2): "N+"/"N-" names, "$KEY:"
// information, the start position as "PI" (the set-up, less any pieces listed) or "P1".."P9" rows
// with "P+"/"P-" hands, the side to move "+"/"-", moves "+7776FU" naming the piece as it stands
// after the move (so "+2822RY" promotes), "T" times, "'" comments, the end "%TORYO", "%SENNICHITE",
// "%KACHI"…, and several games in one file separated by "/". Piece names come from the variant's
// `notation: csa:` section.
#pragma once

#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "compiler/variant.h"
#include "game/game.h"
#include "notation/pgn.h"

namespace palace {

// The games of a CSA file, moves as written, with [Format "CSA"]; N+ and N- become White and
// Black, $EVENT, $SITE and $START_TIME Event, Site and Date. Throws RecordError on a bad encoding.
std::vector<GameRecord> read_csa(std::string_view bytes);

// The move a CSA text ("+7776FU", "-0055KA") names among those `game`'s board allows (the game
// judges it when it is played); a null Move and `why` when none.
Move csa_move(const Game& game, std::string_view text, std::string& why);

// The FEN a CSA record starts from, or "" for the set-up. Throws RecordError for a position the
// variant cannot set up.
std::string csa_start(const GameRecord& record, const std::shared_ptr<const Variant>& variant_ptr);

// `game` (replayed from `record`) as CSA V2.2.
std::string write_csa(const GameRecord& record, const Game& game);

}  // namespace palace
