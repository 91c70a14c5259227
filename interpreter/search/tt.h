// The transposition table: what earlier searches learnt about a position, keyed by its Zobrist
// hash. One entry per slot, replaced by a deeper or newer search of another position.
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

#include "core/types.h"

namespace palace::search {

enum class Bound : std::uint8_t { None, Upper, Lower, Exact };

struct TTEntry {
  std::uint64_t key = 0;
  Move move;
  std::int16_t score = 0;  // mate and counted scores relative to this node (see search.cpp)
  std::int8_t depth = 0;
  Bound bound = Bound::None;
};

class TranspositionTable {
 public:
  explicit TranspositionTable(std::size_t mb) { resize(mb); }
  void resize(std::size_t mb);
  void clear();

  // The entry for `key`, or nullptr.
  const TTEntry* probe(std::uint64_t key) const {
    const TTEntry& e = slots_[key & mask_];
    return e.key == key && e.bound != Bound::None ? &e : nullptr;
  }
  void store(std::uint64_t key, Move move, int score, int depth, Bound bound);

 private:
  std::vector<TTEntry> slots_;
  std::uint64_t mask_ = 0;
};

}  // namespace palace::search
