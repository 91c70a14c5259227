// The positions the generator tests walk: a game's perft and terminal vectors (the shared set's top
// folder or zoo/, or Palace's own current/), each and every position one legal move on.
#pragma once

#include <filesystem>
#include <string>
#include <vector>

#include "test_support.h"

namespace palace::test {

// A game's vector file of `kind` (".perft", ".moves", ...) relative to the shared set's folder: in its
// top folder, in its zoo/, or else in current/ beside it (tests/vectors/README.md).
inline std::string vector_file(const std::string& game, const std::string& kind) {
  for (const std::string folder : {"", "zoo/"})
    if (std::filesystem::exists(vectors_path(folder + game + kind))) return folder + game + kind;
  return "../current/" + game + kind;
}

inline std::vector<std::string> reference_fens(const std::string& game) {
  std::vector<std::string> fens;
  for (const auto& line : data_lines(vectors_path(vector_file(game, ".perft")))) fens.push_back(split(line, ';').at(0));
  for (const auto& line : data_lines(vectors_path(vector_file(game, ".terminal"))))
    fens.push_back(split(line, '|').at(0));
  return fens;
}

// Calls `visit(pos)` on each of `fens` and on each position a legal move leads to from it.
template <typename Visit>
void for_each_position_and_reply(const std::shared_ptr<const Variant>& variant, const std::vector<std::string>& fens,
                                 Visit visit) {
  for (const auto& fen : fens) {
    Position pos(variant);
    pos.set_fen(fen);
    visit(pos);
    MoveList list;
    generate_legal(pos, list);
    for (const Move m : list) {
      pos.do_move(m);
      visit(pos);
      pos.undo_move();
    }
  }
}

}  // namespace palace::test
