// Reading back the games pgn() writes (referee.h): the finished games of a match to resume, and the
// results other processes send the lead, which travel as their PGN text.
#pragma once

#include <map>
#include <string>
#include <vector>

namespace palace::match {

struct PgnGame {
  std::map<std::string, std::string> tags;  // unescaped values
  std::string text;                         // the game exactly as written, tags to the blank line after it
  bool complete = false;                    // its moves end with its result: not cut short by a crash
  std::string tag(const std::string& name) const;  // "" when absent
};

// The games in `text`, in order.
std::vector<PgnGame> read_pgn_games(const std::string& text);

}  // namespace palace::match
