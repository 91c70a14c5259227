#include "search/tt.h"

#include <algorithm>

namespace palace::search {

void TranspositionTable::resize(std::size_t mb) {
  // A power of two of slots, so a slot is the low bits of the key.
  const std::size_t wanted = std::max<std::size_t>(1, mb) * 1024 * 1024 / sizeof(TTEntry);
  std::size_t slots = 1;
  while (slots * 2 <= wanted) slots *= 2;
  slots_.assign(slots, TTEntry{});
  mask_ = slots - 1;
}

void TranspositionTable::clear() { std::fill(slots_.begin(), slots_.end(), TTEntry{}); }

void TranspositionTable::store(std::uint64_t key, Move move, int score, int depth, Bound bound) {
  TTEntry& e = slots_[key & mask_];
  // Keep a deeper result about the same position unless this one is exact and from the full-width
  // search: quiescence's exact score is exact only for its captures.
  if (e.key == key && depth < e.depth && (bound != Bound::Exact || depth == 0)) return;
  if (e.key == key && !move) move = e.move;
  e = TTEntry{key, move, std::int16_t(score), std::int8_t(depth), bound};
}

}  // namespace palace::search
