// The rule language's keys, one table per map: what the loader accepts ("unknown key" checks read
// these tables) and what rules/REFERENCE.md and `palace schema` say, so the two cannot drift.
#pragma once

#include <span>
#include <string>
#include <vector>

namespace palace {

// The shape of a value. Map and MapOf/List/OneOrList of Map name the map's table in `map`.
enum class KeyType {
  Map,        // a map with the keys of `map`
  MapOf,      // a map from names the file chooses (pieces, zones, sides) to values of type `of`
  List,       // a list of values of type `of`
  OneOrList,  // one value of type `of`, or a list of them (`step: forward`, `step: [forward, left]`)
  String,
  Int,
  Number,
  Bool,
  Enum,  // one of the words in `values`
  Any,   // a value of several shapes, told in `meaning`
};

struct MapSpec;

struct KeySpec {
  const char* name;
  KeyType type;
  const char* meaning;            // one line
  const char* fallback = "";      // the default when the key is left out, as written in a file
  const char* values = "";        // for Enum: the words, separated by `|`
  KeyType of = KeyType::String;   // the element of MapOf, List and OneOrList
  const MapSpec* map = nullptr;   // for Map, and for an element that is a Map
  bool checked_elsewhere = false;  // read before this map's check (import:, like:): not listed as expected
  int min = 0, max = 0;            // for Int: the range a value must lie in (the reference says it); 0, 0: none
};

// The value of an Int key within its range, failing at `node` otherwise.
class ConfigNode;
int read_int(const ConfigNode& node, const KeySpec& key);

struct MapSpec {
  const char* where;    // the path it is written at, `NAME` standing for a name the file chooses
  const char* meaning;  // one line
  std::span<const KeySpec> keys;
};

// The whole file's keys, from which every other table is reached.
const MapSpec& root_keys();

// Every map reached from root_keys(), each once, in the order a reader meets them.
std::vector<const MapSpec*> all_maps();

namespace keys {
extern const MapSpec board, side, piece, promotion, piece_hooks, move_part, like_part, betza_part, side_setup, formation_use,
    compound_move, castling, castling_wing, rules, explosion, hands, uci, notation, chinese, engine,
    eval, piece_eval, piece_eval_endgame, passed_eval, royal_distance, structure_eval, structure_eval_endgame,
    open_file_eval, shelter_eval, search;
}  // namespace keys

// rules/REFERENCE.md: one section per map, its keys with type, default, allowed values and meaning.
std::string key_reference_markdown();

}  // namespace palace
