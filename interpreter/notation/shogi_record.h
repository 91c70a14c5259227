// What the Japanese record formats (KIF, KI2, CSA) share: how a game ended, the start position
// given square by square, and piece names looked up in the variant's `notation:` section (`kif:`,
// `csa:`, `squares: shogi`, `handicaps:`).
#pragma once

#include <array>
#include <string>
#include <string_view>
#include <vector>

#include "compiler/variant.h"
#include "game/game.h"
#include "notation/pgn.h"

namespace palace {

// How a record says a game ended, in each format's word, and what that means for the side to move
// when it is said. Kept in the record as its [Termination] tag, by `name`.
struct ShogiEnding {
  const char* name;  // "resignation"
  const char* kif;   // "投了"
  const char* csa;   // "%TORYO"
  int mover;         // +1 the side to move wins, -1 it loses, 0 a draw, 2 undecided
};
const ShogiEnding* ending_by_name(std::string_view name);
const ShogiEnding* ending_by_kif(std::string_view word);
const ShogiEnding* ending_by_csa(std::string_view word);
// "1-0", "0-1", "1/2-1/2" or "*" for `ending` said with `to_move` (0: the first side) to move.
std::string ending_result(const ShogiEnding& ending, int to_move);
// How a replayed game ended, for writing it: its [Termination] tag where it is one of these, else
// from the board's verdict and the recorded result; null when nothing is known.
const ShogiEnding* ending_of(const GameRecord& record, const Game& game);

// A position square by square: each square's piece (NoPiece when empty) from shogi's rank 1 and
// file 1 on (index (rank - 1) * files + file - 1), the pieces in hand, the side to move.
struct ShogiSetup {
  std::vector<Piece> squares;
  std::array<std::vector<Kind>, SideCount> hands;
  Side to_move = First;
};
// An empty setup of `variant`'s board.
ShogiSetup empty_setup(const Variant& variant);
std::string setup_fen(const Variant& variant, const ShogiSetup& setup);
ShogiSetup position_setup(const Position& pos);

// The kind with KIF name `name` or CSA name `code` in `variant`, or -1.
Kind kind_by_kif(const Variant& variant, std::string_view name);
Kind kind_by_csa(const Variant& variant, std::string_view code);
// The variant's names of `kind`, checked: throws RecordError when the variant has none.
const std::string& kif_name(const Variant& variant, Kind kind);
const std::string& csa_name(const Variant& variant, Kind kind);

// "７" and "7" are 7, "七" is 7, "十八" is 18; -1 for other text.
int japanese_number(std::string_view text);
// `n` (1..9) as a full-width digit and as a kanji numeral.
std::string wide_digit(int n);
std::string kanji_digit(int n);

// Removes a tag (compared without case).
void erase_tag(GameRecord& record, std::string_view name);

}  // namespace palace
