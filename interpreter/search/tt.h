// The transposition table: what earlier searches learnt about a position, keyed by its Zobrist
// hash. One entry per slot, replaced by a deeper or newer search of another position.
#pragma once

#include <climits>
#include <cstddef>
#include <cstdint>
#include <vector>

#include "core/types.h"

namespace palace::search {

enum class Bound : std::uint8_t { None, Upper, Lower, Exact };

// The slot is the key's low bits and the entry keeps its high half, so that an entry, which also
// keeps the position's static evaluation, stays 16 bytes.
struct TTEntry {
  static constexpr std::int16_t NoEval = INT16_MIN;
  std::uint32_t check = 0;  // the key's high half
  Move move;
  std::int16_t score = 0;  // mate and counted scores relative to this node (see search.cpp)
  std::int16_t eval = NoEval;  // the static evaluation, where the side to move was not in check
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
    return e.check == check_of(key) && e.bound != Bound::None ? &e : nullptr;
  }
  void store(std::uint64_t key, Move move, int score, int eval, int depth, Bound bound);
  // Starts bringing the slot of `key` into the cache: a probe waits on memory for most of its
  // time, and a move's child is probed only after the check test.
  void prefetch(std::uint64_t key) const { __builtin_prefetch(&slots_[key & mask_]); }

 private:
  static std::uint32_t check_of(std::uint64_t key) { return std::uint32_t(key >> 32); }

  std::vector<TTEntry> slots_;
  std::uint64_t mask_ = 0;
};

}  // namespace palace::search
