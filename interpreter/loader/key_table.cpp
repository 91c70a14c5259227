#include "loader/key_table.h"

#include <set>
#include <vector>

#include "ends/registry.h"
#include "loader/config_tree.h"

namespace palace {

namespace keys {

namespace {

using K = KeySpec;
using T = KeyType;

const KeySpec board_keys[] = {
    {"files", T::Int, "number of files, 2 to 16 (`a` to `p`)"},
    {"ranks", T::Int, "number of ranks, 2 to 16"},
    {"holes", T::OneOrList,
     "points of the rectangle that are not part of the board, as zones are written (a point, a rectangle `a2-a11`): "
     "nothing stands, lands or passes there; a FEN writes each as `*`",
     "[]"},
    {"diagonals", T::Any, "diagonal lines: `all`, `none`, or a list of chains of points (`[d1, e2, f3]`)", "none"},
    {"ranks_from", T::Enum,
     "the edge rank 1 lies on, as the first side sees the board: `bottom`, its own (chess), or `top`, the other's "
     "(Janggi); drawings put the first side at the bottom with file `a` on its left",
     "bottom", "bottom|top"},
};
const KeySpec side_keys[] = {
    {"colour", T::String, "the colour players call the side", "the side's name"},
    {"forward", T::Enum, "the direction the side's pieces move forward", "", "up|down"},
    {"letters", T::Enum, "the case of the side's letters in a FEN", "", "upper|lower"},
    {"zones", T::MapOf, "named point sets of this side: a point, a rectangle (`d1-f3`) or a list of both", "", "",
     T::OneOrList},
    {"royal", T::Bool, "`false`: the side plays without a royal piece, is never in check", "true"},
    {"turned", T::Bool, "the side's moves are written ones turned round, left and right swapped too, not mirrored", "false"},
};
const KeySpec promotion_keys[] = {
    {"zone", T::String, "the zone where the piece promotes on arrival"},
    {"to", T::OneOrList, "the kinds it may become"},
    {"optional", T::Enum, "whether it may decline; `unless_dead` unless it could never move again", "false",
     "true|false|unless_dead"},
    {"leaving", T::Bool, "a move that starts in the zone promotes as well", "false"},
    {"optional_in", T::String, "a zone where the piece may also stay as it is"},
    {"to_lost_only", T::Bool, "it may become only a kind its side has lost", "false"},
};
const KeySpec piece_hooks_keys[] = {
    {"may_jump", T::String, "`script.function`: may this piece hop over that screen (scripts/README.md)"},
    {"may_capture", T::String, "`script.function`: may this piece capture that one"},
    {"allow_move", T::String, "`script.function`: is this generated move allowed"},
    {"add_moves", T::String, "`script.function`: moves this piece adds beyond its movement parts"},
    {"after_move", T::String, "`script.function`: called after a move of this piece is made"},
};
const KeySpec like_part_keys[] = {
    {"like", T::String, "every movement part of another kind"},
};
const KeySpec betza_part_keys[] = {
    {"betza", T::String, "movement in Betza's notation"},
    {"initial_zone", T::String, "the zone where its `i` (first) moves start"},
};
const KeySpec move_part_keys[] = {
    {"like", T::String, "every movement part of this kind, as its file writes them; takes no other key", "", "",
     T::String, nullptr, true},
    {"betza", T::String, "movement in Betza's notation (`mWcF`, rules/README.md), read into these parts; takes no "
     "other key but `initial_zone`", "", "", T::String, nullptr, true},
    {"initial_zone", T::String, "with `betza`: the zone where its `i` (first) moves start", "", "", T::String, nullptr,
     true},
    {"step", T::OneOrList, "one point along a line, in these directions"},
    {"slide", T::OneOrList, "any number of empty points along a line, then optionally a capture"},
    {"hop", T::OneOrList, "slide over exactly one piece (the screen), landing or capturing beyond it"},
    {"leap", T::List, "jump to this offset `[files, ranks]`", "", "", T::Int},
    {"block", T::List, "offsets `[files, ranks]` that must be empty for the leap", "", "", T::Any},
    {"symmetry", T::Enum, "which turns and mirrors of a leap count", "all", "all|left_right|none"},
    {"rides", T::Bool, "a leap made again and again along its offset, each landing point empty but the last (a nightrider)", "false"},
    {"range", T::Int, "most points a slide or hop travels, or most leaps a ride makes", "unlimited"},
    {"only", T::Enum, "the part only moves (no capture) or only captures", "", "move|capture"},
    {"from_zone", T::String, "the part applies only when the piece starts in this zone"},
    {"to_zone", T::String, "the part may only land in this zone"},
    {"leaves_ghost", T::Bool, "a leap leaves the points it skips capturable for one ply (en passant)", "false"},
    {"takes_ghost", T::Bool, "the part may capture on such a point, removing the piece that leapt", "false"},
    {"after_screen", T::Int, "a hop lands at most this many points past its screen", "unlimited"},
};
const KeySpec piece_keys[] = {
    {"letter", T::String, "the FEN letter, upper case"},
    {"written", T::String, "how a FEN writes a promoted piece: `+P` or `Q~`"},
    {"face", T::OneOrList, "the glyph a board draws, or one per side in the order of `sides`", "the letter"},
    {"value", T::Number, "points for counting and material", "0"},
    {"royal", T::Bool, "the piece whose capture is the goal: check and mate apply to it", "false"},
    {"stay_in", T::String, "a zone the piece can never leave"},
    {"moves", T::List, "its movement parts", "", "", T::Map, &move_part},
    {"promotion", T::Map, "what it becomes arriving in a zone", "", "", T::String, &promotion},
    {"may_not_jump", T::OneOrList, "kinds it may not use as a screen"},
    {"may_not_capture", T::OneOrList, "kinds it may not capture"},
    {"hooks", T::Map, "Lua hooks for this piece", "", "", T::String, &piece_hooks},
};
const KeySpec formation_use_keys[] = {
    {"name", T::String, "a formation named under `formations`"},
    {"points", T::List, "the points it fills, in order"},
};
const KeySpec side_setup_keys[] = {
    {"pieces", T::MapOf, "kind: its point or points", "", "", T::OneOrList},
    {"formation", T::Map, "a formation and the points it fills", "", "", T::String, &formation_use},
    {"hand", T::MapOf, "kind: how many of it the side holds in its hand at the start", "", "", T::Int},
};
const KeySpec compound_move_keys[] = {
    {"side", T::String, "the side that may make it"},
    {"right", T::String, "its letter in a FEN"},
    {"kind", T::String, "the kind that moves"},
    {"from", T::String, "where the piece starts"},
    {"to", T::String, "where the piece lands"},
    {"partner", T::String, "the kind carried along"},
    {"partner_from", T::String, "where the partner starts"},
    {"partner_to", T::String, "where the partner lands"},
    {"empty", T::OneOrList, "points that must be empty", "[]"},
    {"safe", T::OneOrList, "points the enemy may not attack", "[]"},
};
const KeySpec castling_wing_keys[] = {
    {"right", T::String, "the wing's FEN letter"},
    {"partners", T::Enum, "where the partner stands: on higher files (`right`) or lower (`left`)", "", "left|right"},
    {"to", T::String, "the file where the piece lands"},
    {"partner_to", T::String, "the file where the partner lands"},
};
const KeySpec castling_keys[] = {
    {"kind", T::String, "the kind that castles"},
    {"partner", T::String, "the kind it castles with"},
    {"home", T::String, "a zone, one rank per side, where both stand"},
    {"wings", T::MapOf, "the wings, by name", "", "", T::Map, &castling_wing},
};
const KeySpec explosion_keys[] = {
    {"spares", T::OneOrList, "kinds a neighbouring blast leaves standing", "[]"},
};
const KeySpec rules_keys[] = {
    {"facing_royals", T::Enum, "two royals facing on a file with nothing between", "allowed", "allowed|forbidden|standoff"},
    {"pass", T::Enum, "whether a player may pass", "never", "never|unless_in_check"},
    {"captures", T::Enum, "`compulsory`: a side that can capture must", "optional", "optional|compulsory"},
    {"explosion", T::Map, "a capture explodes, removing the pieces around it", "", "", T::String, &explosion},
};
const KeySpec hands_keys[] = {
    {"demote", T::MapOf, "kind: the kind it enters the hand as when captured"},
    {"drop_zones", T::MapOf, "kind: the zone it may be dropped in"},
    {"one_per_file", T::OneOrList, "kinds a side may not drop a second of on one file"},
    {"drop_may_not_mate", T::OneOrList, "kinds whose drop may not checkmate"},
    {"no_dead_drops", T::Bool, "no piece is dropped where it could never move", "false"},
    {"captures_to_hand", T::Bool, "`false`: a captured piece leaves the game; hands hold only what the set-up gives", "true"},
};
const KeySpec uci_keys[] = {
    {"variant", T::String, "the name other engines know it by (`UCI_Variant`)", "the variant's `name`"},
    {"mirror_ranks", T::Bool, "the wire numbers ranks from the other edge", "false"},
    {"pass", T::Enum, "a pass on the wire: `0000` or the royal's point twice", "null_move", "null_move|royal_point"},
    {"xboard", T::String, "the name XBoard's `variant` command gives it", "the `variant` name"},
    {"chess960", T::String, "the `variant` name of its Chess960 form, which pyffish's `chess960` flag asks for", "none"},
};
const KeySpec chinese_keys[] = {
    {"simplified", T::MapOf, "kind: its character, or one per side (written by default)", "", "", T::OneOrList},
    {"traditional", T::MapOf, "kind: its traditional character, or one per side", "", "", T::OneOrList},
    {"also", T::MapOf, "other characters read: character: kind"},
};
const KeySpec notation_keys[] = {
    {"native", T::Enum, "how its records are written", "san", "san|wxf|janggi|korean"},
    {"letters", T::MapOf, "kind: its letter where it differs from the FEN's"},
    {"unlettered", T::String, "the kind SAN writes with no letter"},
    {"names", T::MapOf, "kind: its Korean name, or one per side", "", "", T::OneOrList},
    {"also", T::MapOf, "other spellings read: spelling: kind"},
    {"pgn", T::OneOrList, "[Variant]/[Game] tag values that mean this variant"},
    {"pass", T::OneOrList, "other spellings of a pass"},
    {"check_words", T::OneOrList, "words a record may append to a move, ignored"},
    {"side_words", T::MapOf, "side: its marks before a piece's name", "", "", T::OneOrList},
    {"capture_words", T::OneOrList, "words a record may put before the piece taken"},
    {"iccs", T::Bool, "records may give points in ICCS", "false"},
    {"chinese", T::Map, "the Chinese notation's piece characters", "", "", T::String, &chinese},
    {"points", T::Enum, "`shogi`: files from the first side's right, ranks from the far end (USI)", "", "shogi"},
    {"kif", T::MapOf, "kind: its KIF name or names", "", "", T::OneOrList},
    {"csa", T::MapOf, "kind: its CSA name, two capitals"},
    {"handicaps", T::MapOf, "KIF handicap name: its start FEN"},
};
const KeySpec piece_eval_endgame_keys[] = {
    {"value", T::Int, "the endgame's value, in centipawns", "the opening's"},
    {"table", T::List, "the endgame's table, the shape of `table`", "the opening's", "", T::Any},
};
const KeySpec piece_eval_keys[] = {
    {"value", T::Int, "the piece's worth to the engine, in centipawns", "100 x `value`"},
    {"zones", T::MapOf, "zone: centipawns while the piece stands in it", "", "", T::Int},
    {"table", T::List, "centipawns per point: one row per rank, far rank first", "", "", T::Any},
    {"endgame", T::Map, "the endgame's value and table (needs `phase`)", "", "", T::String, &piece_eval_endgame},
};
const KeySpec royal_distance_keys[] = {
    {"own", T::List, "centipawns by the distance of its own royal, far rank first", "", "", T::Int},
    {"enemy", T::List, "centipawns by the distance of the enemy royal", "", "", T::Int},
};
const KeySpec passed_eval_keys[] = {
    {"bonus", T::List, "centipawns by rank, far rank first", "", "", T::Int},
    {"endgame", T::List, "the endgame's bonus by rank", "", "", T::Int},
    {"royal_distance", T::Map, "endgame terms by the royals' distance", "", "", T::String, &royal_distance},
};
const KeySpec structure_eval_endgame_keys[] = {
    {"isolated", T::Int, "the endgame's figure for an isolated piece", "the opening's"},
    {"doubled", T::Int, "the endgame's figure for a doubled piece", "the opening's"},
};
const KeySpec structure_eval_keys[] = {
    {"isolated", T::Int, "centipawns for a piece with none of its kind on the files beside", "0"},
    {"doubled", T::Int, "centipawns for a second piece of its kind on a file", "0"},
    {"endgame", T::Map, "the endgame's figures", "", "", T::String, &structure_eval_endgame},
};
const KeySpec open_file_eval_keys[] = {
    {"open", T::Int, "centipawns on a file with no `structure` kind", "0"},
    {"half_open", T::Int, "centipawns on a file with none of its own side's", "0"},
};
const KeySpec shelter_eval_keys[] = {
    {"kind", T::String, "the kind that shelters the royal"},
    {"bonus", T::List, "centipawns for it one and two ranks in front of the royal", "", "", T::Int},
    {"zone", T::String, "where the royal must stand for the shelter to count"},
};
const KeySpec eval_keys[] = {
    {"pieces", T::MapOf, "kind: its value, zones and table", "", "", T::Map, &piece_eval},
    {"mobility", T::MapOf, "kind: centipawns per point it could move to", "", "", T::Int},
    {"phase", T::MapOf, "kind: its weight in the opening's material, 0 to 100", "", "", T::Int},
    {"passed", T::MapOf, "kind: its passed bonus", "", "", T::Map, &passed_eval},
    {"royal_attack", T::MapOf, "kind: centipawns per point next to the enemy royal it could move to", "", "", T::Int},
    {"threat", T::MapOf, "kind: centipawns for each more valuable enemy piece it could capture", "", "", T::Int},
    {"hanging", T::MapOf, "kind: centipawns for each undefended enemy piece it could capture", "", "", T::Int},
    {"pair", T::MapOf, "kind: centipawns for holding two or more", "", "", T::Int},
    {"structure", T::MapOf, "kind: its isolated and doubled figures", "", "", T::Map, &structure_eval},
    {"open_file", T::MapOf, "kind: its open and half-open file bonus (needs `structure`)", "", "", T::Map,
     &open_file_eval},
    {"shelter", T::Map, "pieces in front of a settled royal", "", "", T::String, &shelter_eval},
    {"tempo", T::Int, "centipawns for the side to move", "0"},
    {"goal", T::List, "centipawns by the distance of the ends.zone_reached piece to its zone, from 1", "[150, 60, 25]",
     "", T::Int},
    {"checks", T::List, "centipawns by the checks a side has given (ends.checks_given), from 1", "[80, 250]", "",
     T::Int},
    {"hand", T::MapOf, "kind: centipawns for each piece of it in a hand", "its value", "", T::Int},
    {"few_pieces", T::List, "centipawns by the pieces a side has left besides its royals, from 0", "", "", T::Int},
};
const KeySpec search_keys[] = {
    {"reduce_evasions", T::Bool, "late-move reductions also of quiet moves out of check", "false"},
    {"extend_checks", T::Enum, "which checks are searched a ply deeper", "all", "all|safe"},
    {"continuation_plies", T::Int, "earlier moves a quiet move's continuation history follows, 1 or 2", "1"},
};
const KeySpec engine_keys[] = {
    {"eval", T::Map, "how the engine values positions", "", "", T::String, &eval},
    {"search", T::Map, "search heuristics that suit the game", "", "", T::String, &search},
};
const KeySpec root_keys_table[] = {
    {"import", T::OneOrList, "rule files merged under this one, paths relative to it", "", "", T::String, nullptr,
     true},
    {"language", T::Enum, "the version of the rule language", "1", "1"},
    {"name", T::String, "the variant's name"},
    {"description", T::String, "one line for a player choosing the game (the board page's variant list)"},
    {"board", T::Map, "size and lines", "", "", T::String, &board},
    {"sides", T::MapOf, "the two sides; the first listed moves first", "", "", T::Map, &side},
    {"pieces", T::MapOf, "piece kinds and how they move", "", "", T::Map, &piece},
    {"setup", T::MapOf, "side: its starting pieces", "", "", T::Map, &side_setup},
    {"formations", T::MapOf, "name: a list of kinds a side's `formation` places", "", "", T::List},
    {"compound_moves", T::MapOf, "moves that carry a partner piece along", "", "", T::Map, &compound_move},
    {"rules", T::Map, "how moves are played: facing royals, passing, captures", "", "", T::String, &keys::rules},
    {"ends", T::Map, "every way the game ends besides checkmate", "", "", T::String, &ends},
    {"scripts", T::MapOf, "name: a Lua file, relative to this file (scripts/README.md)"},
    {"uci", T::Map, "how other engines and GUIs write the variant", "", "", T::String, &uci},
    {"engine", T::Map, "the engine's tuning", "", "", T::String, &engine},
    {"castling", T::Map, "castling from any start of the pieces (Chess960)", "", "", T::String, &keys::castling},
    {"notation", T::Map, "how game records write its moves", "", "", T::String, &notation},
    {"hands", T::Map, "captured pieces go to the captor's hand and come back as drops", "", "", T::String,
     &keys::hands},
};

}  // namespace

const MapSpec board{"board", "The board's size and lines.", board_keys};
const MapSpec side{"sides.NAME", "One side.", side_keys};
const MapSpec promotion{"pieces.NAME.promotion", "What a piece becomes arriving in a zone.", promotion_keys};
const MapSpec piece_hooks{"pieces.NAME.hooks", "Lua hooks of a piece.", piece_hooks_keys};
const MapSpec move_part{"pieces.NAME.moves[]", "One movement part and its modifiers.", move_part_keys};
const MapSpec like_part{"pieces.NAME.moves[]", "A movement part borrowed from another kind.", like_part_keys};
const MapSpec betza_part{"pieces.NAME.moves[]", "Movement parts written in Betza's notation.", betza_part_keys};
const MapSpec piece{"pieces.NAME", "One piece kind.", piece_keys};
const MapSpec formation_use{"setup.SIDE.formation", "A formation placed on points.", formation_use_keys};
const MapSpec side_setup{"setup.SIDE", "One side's starting pieces.", side_setup_keys};
const MapSpec compound_move{"compound_moves.NAME", "A move that carries a partner along.",
                            compound_move_keys};
const MapSpec castling_wing{"castling.wings.NAME", "One wing of castling.", castling_wing_keys};
const MapSpec castling{"castling", "Castling from any start of the pieces.", castling_keys};
const MapSpec explosion{"rules.explosion", "Captures that explode.", explosion_keys};
const MapSpec rules{"rules", "How moves are played beyond the pieces' own.", rules_keys};
const MapSpec hands{"hands", "Hands and drops.", hands_keys};
const MapSpec uci{"uci", "How other engines and GUIs write the variant.", uci_keys};
const MapSpec chinese{"notation.chinese", "The Chinese notation's piece characters.", chinese_keys};
const MapSpec notation{"notation", "How game records write its moves.", notation_keys};
const MapSpec piece_eval_endgame{"engine.eval.pieces.NAME.endgame", "A piece's endgame terms.",
                                 piece_eval_endgame_keys};
const MapSpec piece_eval{"engine.eval.pieces.NAME", "A piece's worth to the engine.", piece_eval_keys};
const MapSpec royal_distance{"engine.eval.passed.NAME.royal_distance",
                             "Endgame terms by the royals' distance.", royal_distance_keys};
const MapSpec passed_eval{"engine.eval.passed.NAME", "A passed piece's bonus.", passed_eval_keys};
const MapSpec structure_eval_endgame{"engine.eval.structure.NAME.endgame",
                                     "Endgame structure figures.", structure_eval_endgame_keys};
const MapSpec structure_eval{"engine.eval.structure.NAME", "Isolated and doubled pieces.",
                             structure_eval_keys};
const MapSpec open_file_eval{"engine.eval.open_file.NAME", "Open and half-open files.",
                             open_file_eval_keys};
const MapSpec shelter_eval{"engine.eval.shelter", "A royal's shelter.", shelter_eval_keys};
const MapSpec eval{"engine.eval", "How the engine values positions.", eval_keys};
const MapSpec search{"engine.search", "Search heuristics that suit the game.", search_keys};
const MapSpec engine{"engine", "The engine's tuning; it changes how the engine plays, never the game.",
                     engine_keys};

}  // namespace keys

namespace {

std::string type_name(KeyType type, KeyType of, const MapSpec* map) {
  switch (type) {
    case KeyType::Map:
      return "map (`" + std::string(map->where) + "`)";
    case KeyType::MapOf:
      return "map of names to " + type_name(of, KeyType::String, map);
    case KeyType::List:
      return "list of " + type_name(of, KeyType::String, map);
    case KeyType::OneOrList:
      return type_name(of, KeyType::String, map) + " or a list";
    case KeyType::String:
      return "string";
    case KeyType::Int:
      return "integer";
    case KeyType::Number:
      return "number";
    case KeyType::Bool:
      return "boolean";
    case KeyType::Enum:
      return "word";
    case KeyType::Any:
      return map ? "several shapes (`" + std::string(map->where) + "`)" : "several shapes";
  }
  return "";
}

std::string code_list(const char* words) {
  std::string out;
  for (const char* w = words; *w;) {
    const char* end = w;
    while (*end && *end != '|') ++end;
    out += (out.empty() ? "`" : ", `") + std::string(w, end) + "`";
    w = *end ? end + 1 : end;
  }
  return out;
}

std::string range_text(const KeySpec& key) {
  if (key.min == 0 && key.max == 0) return "";
  return ", " + std::to_string(key.min) + " to " + std::to_string(key.max);
}

// Maps in the order a reader meets them, each once.
void collect(const MapSpec& map, std::vector<const MapSpec*>& out, std::set<const MapSpec*>& seen) {
  if (!seen.insert(&map).second) return;
  out.push_back(&map);
  for (const KeySpec& key : map.keys)
    if (key.map) collect(*key.map, out, seen);
}

}  // namespace

std::vector<const MapSpec*> all_maps() {
  std::vector<const MapSpec*> out;
  std::set<const MapSpec*> seen;
  collect(root_keys(), out, seen);
  return out;
}

std::string key_reference_markdown() {
  std::string out =
      "# Rule language reference\n\n"
      "Generated from the loader's key tables (interpreter/loader/key_table.cpp, and for `ends` each rule's\n"
      "module in interpreter/ends/) by `palace schema --markdown`; do not edit. rules/README.md explains the\n"
      "language; `palace schema` prints it as a JSON Schema.\n"
      "`NAME` in a path stands for a name the file chooses (a piece, a side, a zone).\n";
  for (const MapSpec* map : all_maps()) {
    out += "\n## `" + std::string(map->where) + "`\n\n" + map->meaning + "\n\n";
    out += "| key | type | default | values | meaning |\n|---|---|---|---|---|\n";
    for (const KeySpec& key : map->keys)
      out += "| `" + std::string(key.name) + "` | " + type_name(key.type, key.of, key.map) + " | " +
             (*key.fallback ? std::string(key.fallback) : "") + " | " + code_list(key.values) + " | " + key.meaning +
             range_text(key) + " |\n";
  }
  return out;
}

int read_int(const ConfigNode& node, const KeySpec& key) { return node.as_int(key.min, key.max); }

const MapSpec& root_keys() {
  static const MapSpec root{"(top level)", "A rule file.", keys::root_keys_table};
  return root;
}

}  // namespace palace
