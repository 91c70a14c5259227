// Game records as text: PGN (tags, movetext, comments, NAGs, variations, several games per file)
// read and written for any variant. Moves are kept as the record wrote them; which notation they
// are in is the replay's business (notation/replay.h), since MoveNotation reads them all.
#pragma once

#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace palace {

// The header lines a KIF or CSA reader keeps for one game: a few dozen are real, and each new one
// is looked for among the earlier ones.
constexpr std::size_t MaxHeaderTags = 1000;

struct GameRecord {
  std::vector<std::pair<std::string, std::string>> tags;  // in the order read or to be written
  std::vector<std::string> moves;                         // as written, numbers and comments left out
  std::string result = "*";  // the movetext's termination marker, else the [Result] tag
  int line = 1;              // where the game starts in its file
  std::string problem;       // what made the text unreadable from some point on, or ""
  std::string ending;        // how the record says the game ended, in words ("Han wins on time"), or ""
  bool terminated = false;   // its movetext ends with a termination marker: not cut short
  std::size_t begin = 0, end = 0;  // its text in what was read: from its start to the next game's

  // The value of tag `name` (compared without case), or null.
  const std::string* tag(std::string_view name) const;
  void set_tag(const std::string& name, const std::string& value);
};

// Every game of a PGN text. A game whose text breaks off (an unclosed comment, tag or variation)
// keeps what was read before, with `problem` saying where and why; the games after it still read.
std::vector<GameRecord> read_pgn(std::string_view text);

// One game as PGN: the seven tag roster first ("?" where unknown), the other tags in their order,
// then the movetext numbered from `first_move` (a record starting with the second side to move
// begins "N..."), wrapped at 80 columns, ending with the result.
std::string write_pgn(const GameRecord& game, int first_move = 1, bool second_side_first = false);

// "1-0", "0-1", "1/2-1/2", "*".
bool is_result_token(std::string_view token);

}  // namespace palace
