// Betza's notation for a kind's movement (`mWcF`, `fmWfcFifmnD`), read as the reference engine
// (Fairy-Stockfish, src/piece.cpp) reads it, into the movement parts the long form writes, so a
// kind written in Betza compiles to the same tables; and movement parts written back in Betza and
// in words (`palace describe`).
#pragma once

#include <cstddef>
#include <string>
#include <string_view>
#include <vector>

#include "loader/rule_set.h"

namespace palace {

// The reference's longest piece takes some twenty characters; a text far longer is no piece.
constexpr std::size_t MaxBetzaLength = 200;

struct BetzaReading {
  std::vector<MovePart> parts;  // merged (merge_parts), without marks; empty when refused
  std::string error;            // why it is refused, naming the character and its place; empty when read
};

// The parts `text` stands for. Its `i` moves (first moves) start in the zone `initial_zone`;
// without one (-1) an `i` is refused, as is anything Palace has no construct for.
BetzaReading read_betza(std::string_view text, int initial_zone);

// The same moves, each once, in the fewest parts: parts that differ only in their directions,
// leaps or mode are merged, a move inside a longer slide of the same mode is left out, and each
// part's directions and leaps are sorted. Two lists with the same moves merge to equal lists.
std::vector<MovePart> merge_parts(const std::vector<MovePart>& parts);

struct BetzaText {
  std::string betza;                // the moves Betza can say
  std::vector<std::string> unsaid;  // what it cannot, one phrase each ("takes_ghost (fcF)")
};

// `parts` in Betza, merged first. An `i` stands for the first zone a part starts from
// (`zone_names` names it, in `unsaid`'s phrases too); reading `betza` back with that zone gives the
// merged parts again when `unsaid` is empty.
BetzaText write_betza(const std::vector<MovePart>& parts, const std::vector<std::string>& zone_names);

// `parts` in words, one phrase a part, joined by "; " ("leaps (1,2) in all 8 directions").
std::string describe_parts(const std::vector<MovePart>& parts, const std::vector<std::string>& zone_names);

}  // namespace palace
