#include "search/move_order.h"

#include <algorithm>
#include <cstring>
#include <limits>

#include "movegen/movegen.h"
#include "search/see.h"

namespace palace::search {

namespace {

constexpr int HashMoveScore = 1 << 30;
constexpr int CaptureScore = 1 << 28;
constexpr int KillerScore = 1 << 27;
constexpr int CounterScore = KillerScore - 1;
constexpr int HistoryCap = 1 << 14;  // |history| stays below, so it never reaches the killers
constexpr int LosingCaptureScore = -(1 << 26);
constexpr int PassScore = -(1 << 29);
// Beyond this many scores (64 MB) a variant has no continuation table.
constexpr std::int64_t MostContinuations = 1 << 24;
static_assert(MostContinuationPlies == 2, "the follows[] lists below name each earlier move");

// The move made `back` plies before the one that led to `pos` (0: that one), where it moved a
// piece: a countermove answers such a move, a continuation follows it.
Move earlier_move(const Position& pos, int back = 0) {
  return pos.plies_recorded() <= back || pos.state_back(back).move.is_pass() ? Move() : pos.state_back(back).move;
}

// The index of the first of the largest of scores[from, size) (scores[size, size + 3) below all of
// them): the largest found four at a time, then its first place. The pick runs over the whole rest
// of the list each time, and a node that plays on past its first moves picks dozens.
int first_best(const int* scores, int from, int size) {
  using Four = int __attribute__((vector_size(16)));
  Four top;
  std::memcpy(&top, scores + from, sizeof top);
  for (int i = from + 4; i < size; i += 4) {
    Four next;
    std::memcpy(&next, scores + i, sizeof next);
    const Four higher = next > top;
    top = (next & higher) | (top & ~higher);
  }
  const int best = std::max(std::max(top[0], top[1]), std::max(top[2], top[3]));
  int i = from;
  while (scores[i] != best) ++i;
  return i;
}

}  // namespace

Histories::Histories(const Variant& variant)
    : squares(variant.squares()), cells(variant.kinds() * variant.squares()),
      plies(variant.rules().search.continuation_plies) {
  if (std::int64_t(plies) * cells * cells > MostContinuations) cells = 0;
  continuation.resize(std::size_t(plies) * cells * cells);
  clear();
}

void Histories::clear() {
  std::fill(&killers[0][0], &killers[0][0] + MaxPly * 2, Move());
  std::fill(&history[0][0][0], &history[0][0][0] + SideCount * MaxPoints * MaxPoints, 0);
  std::fill(&counters[0][0][0], &counters[0][0][0] + SideCount * MaxPoints * MaxPoints, Move());
  std::fill(continuation.begin(), continuation.end(), 0);
}

int Histories::cell(const Position& pos, Move m) const {
  return cell(m.type() == MoveType::Drop ? m.drop_kind() : kind_of(pos.at(m.from())), m.to());
}

// The earlier move's piece is the one its record keeps: the arrival point may be empty by now (an
// explosion, an after_move hook) or hold what it promoted to.
const int* Histories::replies(const Position& pos, int back) const {
  if (!cells || back >= plies) return nullptr;
  const Move previous = earlier_move(pos, back);
  if (!previous) return nullptr;
  const std::size_t row = std::size_t(back) * cells + cell(kind_of(pos.state_back(back).moved), previous.to());
  return &continuation[row * cells];
}

Move Histories::counter(const Position& pos) const {
  const Move previous = earlier_move(pos);
  return previous ? counters[pos.side_to_move()][previous.from()][previous.to()] : Move();
}

void Histories::reward(const Position& pos, Move m, int ply, int depth, const Move* tried, int count) {
  if (m.is_pass()) return;
  const Side side = pos.side_to_move();
  if (killers[ply][0] != m) {
    killers[ply][1] = killers[ply][0];
    killers[ply][0] = m;
  }
  if (const Move previous = earlier_move(pos)) counters[side][previous.from()][previous.to()] = m;
  // Scores move towards the cap from either side, so old lessons fade as new ones come.
  const int bonus = std::min(depth * depth, 400);
  int* const follows[MostContinuationPlies] = {replies(pos, 0), replies(pos, 1)};
  const auto age = [](int& h, int delta) { h += delta - h * std::abs(delta) / HistoryCap; };
  auto update = [&](Move q, int delta) {
    if (q.is_pass()) return;
    age(history[side][q.from()][q.to()], delta);
    for (int* const scores : follows)
      if (scores) age(scores[cell(pos, q)], delta);
  };
  update(m, bonus);
  for (int i = 0; i < count; ++i) update(tried[i], -bonus);
}

MoveOrder::MoveOrder(const Position& pos, MoveList& list, MoveScores& scores, Move hash_move, const Histories& h,
                     int ply, const Evaluation& eval)
    : pos_(pos), eval_(eval), list_(list), s_(scores) {
  const Move counter = h.counter(pos);
  const int* const follows[MostContinuationPlies] = {h.replies(pos, 0), h.replies(pos, 1)};
  for (int i = 0; i < list.size; ++i) {
    const Move m = list.moves[i];
    int score;
    s_.losing[i] = false;
    s_.unsure[i] = false;
    if (m == hash_move) {
      score = HashMoveScore;
    } else if (m.is_pass()) {
      score = PassScore;
    } else if (const Piece victim = captured_piece(pos, m)) {
      const int attacker = eval.value(kind_of(pos.at(m.from())));
      s_.unsure[i] = attacker > eval.value(kind_of(victim));
      score = CaptureScore + 64 * eval.value(kind_of(victim)) - attacker / 16;
    } else if (m == h.killers[ply][0] || m == h.killers[ply][1]) {
      score = KillerScore + (m == h.killers[ply][0]);
    } else if (m == counter) {
      score = CounterScore;
    } else {
      score = h.quiet_score(pos, m, follows);
    }
    if (m.promotion_kind() >= 0 && m != hash_move) score += CaptureScore / 2 + eval.value(m.promotion_kind());
    s_.score[i] = score;
  }
  std::fill(s_.score + list.size, s_.score + list.size + MoveScores::Lanes - 1, std::numeric_limits<int>::min());
}

Move MoveOrder::next() {
  for (;;) {
    if (done_ == list_.size) return Move();
    const int best = first_best(s_.score, done_, list_.size);
    std::swap(s_.score[best], s_.score[done_]);
    std::swap(s_.losing[best], s_.losing[done_]);
    std::swap(s_.unsure[best], s_.unsure[done_]);
    std::swap(list_.moves[best], list_.moves[done_]);
    // A capture by a dearer piece is tested only when its turn comes, as most nodes end before
    // (one by a piece no dearer than its victim never loses the exchange): if it loses, it waits
    // behind the quiet moves.
    if (s_.unsure[done_]) {
      s_.unsure[done_] = false;
      s_.losing[done_] = !see_ge(pos_, list_.moves[done_], 0, eval_);
      if (s_.losing[done_] && s_.score[done_] < HashMoveScore) {
        s_.score[done_] += LosingCaptureScore - CaptureScore;
        continue;
      }
    }
    return list_.moves[done_++];
  }
}

}  // namespace palace::search
