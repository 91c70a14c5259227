// The engine: iterative-deepening alpha-beta over the legal moves of any loaded variant, scored by
// the variant's own end rules and its evaluation from YAML. One Searcher per thread; the compiled
// Variant it reads is shared and immutable.
#pragma once

#include <atomic>
#include <cstdint>
#include <functional>
#include <memory>
#include <vector>

#include "compiler/variant.h"
#include "core/types.h"
#include "position/position.h"

namespace palace::search {

// Scores, in centipawns from the side to move's view: a game won `n` plies away is MateScore - n,
// whether by mate or by counting points (a standoff, two passes), as a win is a win and the nearer
// one is the one to play (the reference engine scores them alike); a draw 0; losses the negatives.
constexpr int MateScore = 32000;

// What bounds one search; zero means "not set". With none set the search runs until stop().
struct Limits {
  int depth = 0;
  std::uint64_t nodes = 0;
  int movetime_ms = 0;
  // The clock of each side, indexed by Side; -1 where none is given. A clock at 0 is one about to
  // fall: the search answers at once.
  int time_left_ms[SideCount] = {-1, -1};
  int increment_ms[SideCount] = {0, 0};
  int moves_to_go = 0;
  bool infinite = false;  // searches until stop(), whatever else is set
  std::vector<Move> banned{};  // moves the root may not play (UCCI's banmoves); none play: no move
  // The root's legal moves, where the caller knows them and the game goes on there (a Game keeps
  // them): the search does not find them again before it starts, which no time limit may cut
  // short, as a move must be known to play; on a slow hooked variant at low priority that took
  // longer than the whole search (`palace serve`'s engine). Empty: found by the search.
  std::vector<Move> root_moves{};
};

// After each completed iteration: what UCI's `info` line says.
struct Report {
  int depth = 0;
  int seldepth = 0;
  int score_cp = 0;  // from the side to move's view
  int mate_in = 0;   // moves to a won game (mate or points): > 0 the side to move wins, < 0 it loses, 0 none found
  std::uint64_t nodes = 0;
  std::int64_t time_ms = 0;
  std::vector<Move> pv;
};

class Searcher {
 public:
  explicit Searcher(std::shared_ptr<const Variant> variant, std::size_t hash_mb = 16);
  ~Searcher();

  void set_hash_size(std::size_t mb);
  // The static evaluation of `pos` in centipawns for the side to move, as the search scores a
  // quiet leaf. Safe while a search runs: the evaluation is read-only.
  int evaluate(const Position& pos) const;
  void clear();  // forgets the transposition table and histories, for a new game

  // Searches the position `pos` stands in, its recorded moves counting for repetition. Reports
  // after each completed depth; returns the best move, or a null Move when the game is over.
  // Deterministic for a fixed depth or node limit.
  Move search(const Position& pos, const Limits& limits, const std::function<void(const Report&)>& on_report = {});
  // Safe to call from another thread while search() runs; the search ends after its first
  // iteration at the latest. The request holds until that search returns, so a stop() sent when
  // no search runs cuts the next one short: send it only to a running search.
  void stop();

 private:
  struct Impl;  // the tables and per-search state, in search.cpp
  std::unique_ptr<Impl> impl_;
  std::atomic<bool> stop_{false};
};

}  // namespace palace::search
