#include "match/pgn_reader.h"

#include <sstream>

namespace palace::match {

namespace {

// `[Name "value"]`, with the two escapes pgn() writes: \" and \\.
void read_tag(const std::string& line, PgnGame& game) {
  const auto space = line.find(' ');
  if (space == std::string::npos || line.size() < space + 3 || line[space + 1] != '"') return;
  std::string value;
  for (std::size_t i = space + 2; i < line.size() && line[i] != '"'; ++i) value += line[i] == '\\' ? line[++i] : line[i];
  game.tags[line.substr(1, space - 1)] = value;
}

}  // namespace

std::string PgnGame::tag(const std::string& name) const {
  const auto it = tags.find(name);
  return it == tags.end() ? "" : it->second;
}

std::vector<PgnGame> read_pgn_games(const std::string& text) {
  std::vector<PgnGame> games;
  std::istringstream in(text);
  std::string last_word;  // of the current game's moves
  bool in_moves = false;
  auto close = [&] {
    if (!games.empty()) games.back().complete = !last_word.empty() && last_word == games.back().tag("Result");
  };
  for (std::string line; std::getline(in, line);) {
    const bool tag = !line.empty() && line[0] == '[';
    if (tag && (games.empty() || in_moves)) {
      close();
      games.emplace_back();
      last_word.clear();
      in_moves = false;
    }
    if (games.empty()) continue;
    games.back().text += line + "\n";
    if (tag) {
      read_tag(line, games.back());
    } else if (!line.empty()) {
      in_moves = true;
      last_word = line.substr(line.find_last_of(' ') + 1);
    }
  }
  close();
  return games;
}

}  // namespace palace::match
