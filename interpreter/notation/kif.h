// Shogi records in KIF and KI2, the Japanese text formats (Shift_JIS/cp932 or UTF-8): headers
// "key：value" (開始日時, 棋戦, 先手, 後手, 手合割), a board diagram where the game starts elsewhere, then
// the moves: KIF numbers them and gives the square moved from ("７六歩(77)", "同　歩(76)",
// "５五角打"), KI2 writes them in a row, told apart by words where several pieces could go
// ("▲５八金右", "△同歩"). The game's end is a word (投了, 詰み, 千日手, 持将棋, 中断) or KI2's
// "まで…" line; comments (*), times and variations (変化：) are read past: the main line is kept.
// Piece names come from the variant's `notation: kif:` section, handicaps from `handicaps:`.
#pragma once

#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "compiler/variant.h"
#include "game/game.h"
#include "notation/pgn.h"

namespace palace {

// The games of a KIF or KI2 file (a new one where headers follow a game's moves), moves as written,
// with [Format "KIF"]. Headers keep their names but 棋戦, 場所, 先手 and 後手 (or 下手 and 上手),
// which become Event, Site, White and Black; 開始日時 also gives Date. Throws RecordError on a bad encoding.
std::vector<GameRecord> read_kif(std::string_view bytes);

// The move a KIF or KI2 text names among those `game`'s board allows (the game judges it when it is
// played); a null Move and `why` when none.
Move kif_move(const Game& game, std::string_view text, std::string& why);

// `m`, a legal move of `pos` (whose legal moves are `legal`), as KIF writes it: "７六歩(77)",
// "２二角成(88)", "５五角打", or "同　歩(76)" where the last move went to `previous_to`.
std::string kif_move_text(const Position& pos, const std::vector<Move>& legal, Point previous_to, Move m);

// The FEN a KIF record starts from (its board diagram, or its 手合割 among the variant's handicaps),
// or "" for the set-up. Throws RecordError for a handicap or diagram the variant cannot set up.
std::string kif_start(const GameRecord& record, const std::shared_ptr<const Variant>& variant_ptr);

// `game` (replayed from `record`) as KIF, or as KI2 where `ki2` is set, in UTF-8.
std::string write_kif(const GameRecord& record, const Game& game, bool ki2);

}  // namespace palace
