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

void TranspositionTable::store(std::uint64_t key, Move move, int score, int eval, int depth, Bound bound) {
  TTEntry& e = slots_[key & mask_];
  const std::uint32_t check = check_of(key);
  const bool same = e.check == check && e.bound != Bound::None;
  // Keep a deeper result about the same position unless this one is exact and from the full-width
  // search: quiescence's exact score is exact only for its captures.
  if (same && depth < e.depth && (bound != Bound::Exact || depth == 0)) return;
  if (same && !move) move = e.move;
  e = TTEntry{check, move, std::int16_t(score), std::int16_t(eval), std::int8_t(depth), bound};
}

}  // namespace palace::search
