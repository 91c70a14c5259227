// How people write this game's moves in records: the optional `notation:` section of a variant
// file. Which notation is the game's own, the letters SAN gives its pieces, and the Korean names of
// the numeric notation are data here, so no game is named in the notation code.
#pragma once

#include <array>
#include <string>
#include <utility>
#include <vector>

#include "core/types.h"
#include "loader/config_tree.h"

namespace palace {

struct PieceDef;

// The notations a record may use; Coordinates is Palace's own ("b10c8"). Iccs counts ranks from 0
// ("h2e2"); Chinese writes the WXF notation in words ("炮二平五"), simplified or traditional.
// Lan is SAN with the origin always written and `-` before a quiet move's point ("Ng1-f3", "e7xd8=Q").
enum class NotationStyle : std::uint8_t { Coordinates, San, Lan, Wxf, Janggi, Korean, Iccs, Chinese, ChineseTraditional };

struct NotationRules {
  NotationStyle native = NotationStyle::San;  // how this game's records are written by default
  std::vector<char> letters;                  // per kind: its SAN letter (the FEN letter unless told)
  int unlettered = -1;                        // kind SAN writes without a letter (chess's pawn)
  std::vector<std::array<std::string, 2>> names;        // per kind, per side: Korean numeric names
  std::vector<std::pair<std::string, Kind>> also_names;  // other spellings read (hanja): name, kind
  std::vector<std::string> pgn_names;  // [Variant] or [Game] tag values that mean this variant
  std::vector<std::string> pass_names;  // other spellings of a pass read from records ("pass" always is)
  std::vector<std::string> check_words;  // words a record may append to a checking move, ignored
  bool iccs = false;  // records may give squares as ICCS does: files a.., ranks from 0
  // Chinese notation: per kind, per side, the character written in simplified and in traditional
  // script (empty: the game has no Chinese notation), and every spelling read, with its kind.
  std::vector<std::array<std::string, 2>> chinese_simplified, chinese_traditional;
  std::vector<std::pair<std::string, int>> chinese_names;
  // Per side, the words a record may put before a piece's name to say whose it is ("漢兵"), and
  // that name the side in a record's result.
  std::array<std::vector<std::string>, SideCount> side_words;
  std::vector<std::string> capture_words;  // a record may put one before the piece taken ("49타졸")
  // `squares: shogi`: records number files from the first side's right and ranks from the far end
  // ("7g", "７六"), and USI moves ("7g7f", "P*5e") are read.
  bool shogi_squares = false;
  std::vector<std::vector<std::string>> kif_names;  // per kind: its KIF/KI2 names, the first written
  std::vector<std::string> csa_names;               // per kind: its two CSA letters, or ""
  std::vector<std::pair<std::string, std::string>> handicaps;  // start positions KIF names: name, FEN
};

// "san" -> San; false when `word` names no notation.
bool notation_style_by_name(const std::string& word, NotationStyle& style);
const char* notation_style_name(NotationStyle style);
// Every name notation_style_by_name knows, for the command line's checks.
std::vector<std::string> notation_style_names();
// Whether `rules` give what `style` needs (ICCS and Chinese are only where the section says so);
// otherwise `why` says what is missing.
bool notation_offered(const NotationRules& rules, NotationStyle style, std::string& why);

struct RuleSet;

// Reads `notation: {native: san|wxf|janggi, letters: {KIND: L}, unlettered: KIND,
// names: {KIND: NAME or [FIRST_SIDE, SECOND_SIDE]}, also: {NAME: KIND}, pgn: [TAG...],
// pass: [WORD...], check_words: [WORD...], side_words: {SIDE: [WORD...]}, capture_words: [WORD...],
// iccs: BOOL, chinese: {simplified: {KIND: NAME or [FIRST_SIDE, SECOND_SIDE]}, traditional: {...},
// also: {NAME: KIND}}, squares: shogi, kif: {KIND: NAME or [NAME...]}, csa: {KIND: XX},
// handicaps: {NAME: FEN}}`, with
// kinds looked up in `set`, which is being read. Throws RuleError.
NotationRules read_notation_rules(const ConfigNode& node, const RuleSet& set);

// The defaults for a variant without the section: FEN letters, native SAN.
NotationRules default_notation_rules(const std::vector<PieceDef>& pieces);

}  // namespace palace
