#include "ends/endgame_count.h"

#include "loader/names.h"

namespace palace {

void EndgameCount::read(const ConfigNode& ends, const RuleSet& rules) {
  const ConfigNode* node = ends.find(keys[0].name);
  if (!node) return;
  node->expect_keys(endgame_count_keys::map);
  if (const ConfigNode* b = node->find("blocked_by")) blocked_by = kinds_named(rules, *b);
  if (const ConfigNode* b = node->find("board")) board_moves = read_int(*b, endgame_count_keys::map_keys[1]);
  if (const ConfigNode* list = node->find("bare")) {
    if (!list->is_sequence()) list->fail("expected a list like [{pieces: [rook], moves: 16}, {pieces: [], moves: 64}]");
    for (const ConfigNode* entry : list->items()) {
      entry->expect_keys(endgame_count_keys::bare);
      bare.push_back({kind_set_named(rules, entry->at("pieces"), "expected a list of pieces, e.g. [rook, rook]"),
                      read_int(entry->at("moves"), endgame_count_keys::bare_keys[1])});
      for (const Kind kind : bare.back().pieces)
        if (rules.pieces[std::size_t(kind)].royal)
          entry->at("pieces").fail(rules.pieces[std::size_t(kind)].name + " is royal: list the pieces besides it");
    }
  }
  if (!on()) node->fail("say how far a side counts: `board:`, `bare:` or both");
}

}  // namespace palace
