// Principal-variation alpha-beta with iterative deepening. Every node first asks the game layer
// whether the game is over there (node_end), so that each end rule of the variant scores the
// tree exactly as it would end a game; then the usual prunings run on what is left.
#include "search/search.h"

#include <algorithm>
#include <cmath>
#include <optional>
#include <thread>

#include "game/evaluator.h"
#include "game/repetition.h"
#include "movegen/movegen.h"
#include "search/eval.h"
#include "search/move_order.h"
#include "search/node_frames.h"
#include "search/see.h"
#include "search/time_manager.h"
#include "search/tt.h"

namespace palace::search {

namespace {

constexpr int Infinite = 32001;
constexpr int Mate = MateScore;
constexpr int DecisiveBound = Mate - MaxPly;  // scores beyond are won games, by mate or by points

// Decisive scores count plies from the node they belong to, not from the root, in the table.
int to_tt(int score, int ply) { return score >= DecisiveBound ? score + ply : score <= -DecisiveBound ? score - ply : score; }
int from_tt(int score, int ply) { return score >= DecisiveBound ? score - ply : score <= -DecisiveBound ? score + ply : score; }

// Late-move reductions grow with the depth left and the number of moves tried before, as the
// logarithm of each: a move sorted late at a deep node is rarely best. Built once.
struct ReductionTable {
  std::int8_t plies[MaxPly][64];
  ReductionTable() {
    for (int d = 0; d < MaxPly; ++d)
      for (int n = 0; n < 64; ++n)
        plies[d][n] = std::int8_t(d && n ? 0.5 + std::log(d) * std::log(n) / 2.25 : 0);
  }
  int operator()(int depth, int tried) const { return plies[std::min(depth, MaxPly - 1)][std::min(tried, 63)]; }
};
const ReductionTable reduction_for;

// The margins below are in centipawns where the weakest piece is worth this (see Impl::margin).
constexpr int PawnUnit = 100;
// How far the static evaluation may be above beta at a few plies from the horizon before the
// whole node is given up: what the opponent's best reply can hardly take back, per ply left.
constexpr int ReverseFutilityMargin = 90;
constexpr int ReverseFutilityDepth = 8;
// How far it may be below alpha before a quiet move is, at the depth its late-move reduction would
// leave it: what a quiet move can hardly gain back.
int futility_margin(int lmr_depth) { return 150 + 130 * lmr_depth; }
constexpr int FutilityDepth = 6;
// Quiet moves searched at a node this shallow before the rest are given up: 3 + depth², half as
// many where the side to move is not improving.
int late_move_count(int depth, bool improving) { return (3 + depth * depth) / (2 - improving); }
constexpr int LateMoveDepth = 7;
// The history score worth one ply of late-move reduction, either way.
constexpr int HistoryPerPly = 8192;
// Null-move reduction: 3 plies, one more per 3 plies of depth and per this much the evaluation
// stands above beta, up to 3 more.
constexpr int NullMarginPerPly = 200;
// Singular extensions: from this depth, a hash move is singular where every other move falls
// short of its score by this much per ply, at half the depth.
constexpr int SingularDepth = 8;
constexpr int SingularMarginPerPly = 2;
// Off the principal line this near the horizon, a move that loses more on its arrival point than
// the depth left could win back is given up: a capture (or promotion) losing more than this per ply
// left, a quiet move more than this per square of the depth its late-move reduction would leave.
constexpr int ExchangeDepth = 6;
constexpr int CaptureExchangeMargin = 194;
constexpr int QuietExchangeMargin = 27;
// A capture in quiescence that cannot lift the score to alpha even with this to spare is skipped.
constexpr int DeltaMargin = 200;
// The first aspiration window around the previous iteration's score, widened on each failure.
constexpr int AspirationWindow = 30;

// A position's key in the table. A pass leaves the board as it was but not the game: where a
// second pass in a row ends it, the same board reached by a move is another node (a pass there
// plays on), and the two must not share an entry, or a score proven through the one is taken for
// the other, and a win found at one distance is announced at another.
constexpr std::uint64_t AfterPassKey = 0x9e3779b97f4a7c15ULL;
bool after_pass(const Position& pos) { return pos.plies_recorded() > 0 && pos.state().move.is_pass(); }
std::uint64_t table_key(const Position& pos) { return after_pass(pos) ? pos.state().hash ^ AfterPassKey : pos.state().hash; }

// The score an earlier search of this position proves for the window (alpha, beta), if any.
std::optional<int> proven_score(const TTEntry& entry, int ply, int alpha, int beta) {
  const int score = from_tt(entry.score, ply);
  if (entry.bound == Bound::Exact || (entry.bound == Bound::Lower && score >= beta) ||
      (entry.bound == Bound::Upper && score <= alpha))
    return score;
  return std::nullopt;
}

// The static evaluation `stand` of a position, or the score an earlier search proved where it
// bounds the position from the side `stand` is wrong on; a decisive score is left to the search.
int better_estimate(const TTEntry& entry, int ply, int stand) {
  const int score = from_tt(entry.score, ply);
  if (std::abs(score) >= DecisiveBound) return stand;
  const bool bounds = entry.bound == Bound::Exact || entry.bound == (score > stand ? Bound::Lower : Bound::Upper);
  return bounds ? score : stand;
}

// What a search that scored `best` in the window (alpha, beta) proves about the position.
Bound bound_of(int best, int alpha, int beta) {
  return best >= beta ? Bound::Lower : best > alpha ? Bound::Exact : Bound::Upper;
}

int mate_in(int score) {
  if (score >= DecisiveBound) return (Mate - score + 1) / 2;
  if (score <= -DecisiveBound) return -(Mate + score) / 2;
  return 0;
}

// The score of a finished game `ply` plies from the root, from the side to move's view.
int score_of(const Verdict& end, const Position& pos, int ply) {
  if (!end.winner) return 0;
  const int score = Mate - ply;
  return *end.winner == pos.side_to_move() ? score : -score;
}

// The score of the game's end `ply` plies from the root, or nothing while it goes on, given
// whether the side to move has a legal move (all the end rules ask of the count). The one place the
// search asks the game's end rules.
std::optional<int> node_end(const Position& pos, bool can_move, int ply) {
  const Verdict end = judge(pos, can_move ? 1 : 0);
  // A draw a player may claim is one the side it suits will claim, except at the root, where the
  // search is asked for a move.
  if (ply > 0 && end.claimable != Termination::None) return 0;
  if (!end.finished()) return std::nullopt;
  return score_of(end, pos, ply);
}

// node_end, asked before the moves are generated: most nodes have a legal move, and the move loop
// finds out whether this one has. Only where an end rule that needs no moves ends the game or offers
// a claim are the legal moves counted first, for a side without one is mated or stalemated instead.
std::optional<int> node_end_before_moves(Position& pos, int ply) {
  const Verdict end = judge(pos, 1);
  if (!end.finished() && end.claimable == Termination::None) return std::nullopt;
  MoveList list;
  return node_end(pos, generate_legal(pos, list), ply);
}

// A node's moves to try, in the node's frame, each put to the legality test when the search comes
// to it, and the filter of those that could check.
struct NodeMoves {
  NodeFrames::Lease frame;
  MoveList& list;
  bool to_test;
  std::optional<LegalityTest> legal;
  CheckFilter checks;
  NodeMoves(NodeFrames& frames, Position& pos, Keep keep, bool checked, int ply, const KnownDestinations& known)
      : frame(frames),
        list(frame->list),
        to_test(generate_to_try(pos, list, keep, checked, known)),
        checks(pos, ply > 0 && !after_pass(pos)) {
    if (to_test && list.size > 0) legal.emplace(pos, checked);
  }
  bool legal_move(Move m) const { return !to_test || (*legal)(m); }
};

}  // namespace

struct Searcher::Impl {
  Impl(std::shared_ptr<const Variant> v, std::size_t hash_mb)
      : variant(std::move(v)), eval(*variant), tt(hash_mb), histories(std::make_unique<Histories>(*variant)) {}

  std::shared_ptr<const Variant> variant;
  const SearchRules& tuning = variant->rules().search;  // the variant's own heuristics
  Evaluation eval;
  // A cache: the walks of this thread's last evaluation, and the censuses it took.
  mutable EvalMemo eval_memo{eval.census_table_bits()};
  TranspositionTable tt;
  std::unique_ptr<Histories> histories;  // large: on the heap, once
  NodeFrames frames;
  // The margins below are in centipawns of a game whose weakest piece is worth a pawn (100); where
  // it is worth more, evaluations swing as much more, and so do the margins.
  const int margin_unit = std::max(eval.weakest(), PawnUnit);
  int margin(int centipawns) const { return centipawns * margin_unit / PawnUnit; }

  // The search under way.
  Position* pos = nullptr;
  const Limits* limits = nullptr;
  const TimeManager* time = nullptr;
  const std::atomic<bool>* stop_requested = nullptr;
  std::uint64_t nodes = 0;
  int seldepth = 0;
  int root_depth = 0;
  bool may_abort = false;  // never before the first iteration is complete, so a move is known
  bool aborted = false;
  Move root_move;          // best of the previous iteration, tried first
  Move pv[MaxPly + 1][MaxPly + 1];
  int stand_at[MaxPly + 1] = {};  // each ply's static evaluation on the current line; NoEval in check
  int pv_length[MaxPly + 1] = {};
  // The move each ply's node leaves out while it tests whether its hash move is singular.
  Move excluded_at[MaxPly + 1];

  // The clock and the stop flag are read every 1024 nodes; at every node when hooks run, as a
  // hook call may take milliseconds (and hooks are asked within a call, see MoveHooks::set_interrupt).
  std::uint64_t check_mask = 1023;

  bool out_of_budget();
  bool interrupted() const;
  // The moves the root may not play: UCCI's banmoves, and those the game's history refuses.
  std::vector<Move> root_banned;
  bool is_banned(Move m) const {
    return !root_banned.empty() && std::find(root_banned.begin(), root_banned.end(), m) != root_banned.end();
  }
  int static_eval() const;
  // The static evaluation, from the table's entry for the position where it holds one.
  int static_eval(const TTEntry* entry) const {
    return entry && entry->eval != TTEntry::NoEval ? entry->eval : static_eval();
  }
  bool may_pass_for_null(bool checked) const;
  void update_pv(int ply, Move m);
  void line_round_cycle(int ply, int occurrences);
  int captured_value(Move m) const { return eval.value(kind_of(captured_piece(*pos, m))); }
  // Whether the check `m`, just made, earns its extra ply: under `extend_checks: safe` not when
  // the checking piece hangs where it landed (attacked and not defended), as the check then
  // mostly gives it away.
  bool extends(Move m) const;
  // `checked`: the side to move is in check, as the parent found when it made the move.
  // `cut_node`: a node expected to fail high (the reduced and null-window children of a
  // principal-variation node's later moves, every other child of one), reduced more.
  int search(int alpha, int beta, int depth, int ply, bool can_null, bool checked, bool cut_node);
  int search_root(int depth, int previous);
  int quiesce(int alpha, int beta, int ply, bool checked);
  std::optional<int> enter_node(int ply);
};

bool Searcher::Impl::out_of_budget() {
  if (aborted) return true;
  // A stop or the time is heeded even before the first iteration is done, which an erratic or slow
  // hook can make take long: the search then plays the first legal move. A node limit is not.
  if ((nodes & check_mask) == 0 && interrupted()) aborted = true;
  else if (may_abort && !limits->infinite && limits->nodes && nodes >= limits->nodes) aborted = true;
  return aborted;
}

bool Searcher::Impl::interrupted() const {
  return stop_requested->load(std::memory_order_relaxed) || (!limits->infinite && time->out_of_time());
}

int Searcher::Impl::static_eval() const {
  return std::clamp(eval(*pos, eval_memo), -DecisiveBound + 1, DecisiveBound - 1);
}

// Null-move pruning lets the side to move pass. Unsound in zugzwang, which needs little more than
// pawns on the board; and a pass that ends the game (a second pass, or breaking nothing in a
// standoff) is no null move at all.
bool Searcher::Impl::may_pass_for_null(bool checked) const {
  if (checked || pos->state().royals_facing) return false;
  if (after_pass(*pos)) return false;
  const Side us = pos->side_to_move();
  for (int i = 0; i < pos->piece_count(us); ++i)
    if (eval.major(kind_of(pos->at(pos->piece_square(us, i))))) return true;
  return false;
}

bool Searcher::Impl::extends(Move m) const {
  if (tuning.extend_checks == CheckExtension::All || m.is_pass()) return true;
  const Piece checker = pos->at(m.to());
  const Side them = pos->side_to_move();
  if (!checker || side_of(checker) == them) return true;
  const Kind kind = kind_of(checker);
  return !attacked(*pos, m.to(), them, kind) || attacked(*pos, m.to(), opponent(them), kind);
}

void Searcher::Impl::update_pv(int ply, Move m) {
  pv[ply][ply] = m;
  for (int i = ply + 1; i < pv_length[ply + 1]; ++i) pv[ply][i] = pv[ply + 1][i];
  pv_length[ply] = std::max(pv_length[ply + 1], ply + 1);
}

// What every node does first, full-width or quiescent: its budget, its count, and the scores it
// has before any move is looked at (an end of the game, the ply limit).
std::optional<int> Searcher::Impl::enter_node(int ply) {
  pv_length[ply] = ply;
  if (out_of_budget()) return 0;
  ++nodes;
  seldepth = std::max(seldepth, ply);
  if (const std::optional<int> end = node_end_before_moves(*pos, ply)) return end;
  // A position repeated since the root is scored as its repetition rule ends the cycle played on
  // (judge_cycle); it had a legal move when it first occurred, so it has one now.
  if (const Verdict cycle = judge_cycle(*pos, ply); cycle.finished()) {
    line_round_cycle(ply, cycle.occurrences);
    return score_of(cycle, *pos, ply);
  }
  if (ply >= MaxPly - 1) return static_eval();
  return std::nullopt;
}

// The line from a repeated position goes round the cycle again until the position's `occurrences`-th
// occurrence, where the game ends as the search scored it: a line a player can follow to the end.
void Searcher::Impl::line_round_cycle(int ply, int occurrences) {
  const int span = repetition_span(*pos, 2);
  int at = ply;
  for (int round = 2; round < occurrences; ++round)
    for (int back = span - 1; back >= 0 && at < MaxPly; --back) pv[ply][at++] = pos->state_back(back).move;
  pv_length[ply] = at;
}

int Searcher::Impl::search(int alpha, int beta, int depth, int ply, bool can_null, bool checked, bool cut_node) {
  if (depth <= 0) return quiesce(alpha, beta, ply, checked);
  if (const std::optional<int> early = enter_node(ply)) return *early;

  // On the principal line by the window it was given: the mate bounds below may narrow it to a null
  // window, but a table's score there would cut the line's moves short.
  const bool pv_node = beta - alpha > 1;
  // No line from here can beat a mate already found nearer the root.
  alpha = std::max(alpha, -Mate + ply);
  beta = std::min(beta, Mate - ply - 1);
  if (alpha >= beta) return alpha;

  const std::uint64_t key = table_key(*pos);
  const TTEntry* entry = tt.probe(key);
  const TTEntry hit = entry ? *entry : TTEntry();  // the slot may be overwritten below this node
  Move hash_move = ply == 0 ? root_move : hit.move;
  // A search that leaves a move out is no search of the whole position: the table neither answers
  // nor learns from it, and it does not pass.
  const Move excluded = excluded_at[ply];
  if (entry && !pv_node && !excluded && entry->depth >= depth)
    if (const std::optional<int> score = proven_score(*entry, ply, alpha, beta)) return *score;

  const bool decisive_window = std::abs(beta) >= DecisiveBound || std::abs(alpha) >= DecisiveBound;
  const int stand = checked ? -Infinite : static_eval(entry);
  stand_at[ply] = checked ? TTEntry::NoEval : stand;
  // Better than two plies ago, when the same side was to move: the line is going its way, and
  // its moves are pruned less.
  const bool improving = !checked && ply >= 2 && stand_at[ply - 2] != TTEntry::NoEval && stand > stand_at[ply - 2];
  // An earlier search's score bounds the position better than its static evaluation, on the side
  // its bound holds.
  const int estimate = checked || !entry ? stand : better_estimate(*entry, ply, stand);

  // Far enough above beta that the opponent's best reply can hardly bring it back.
  if (!pv_node && !checked && !excluded && depth <= ReverseFutilityDepth && !decisive_window &&
      estimate - margin(ReverseFutilityMargin) * (depth - improving) >= beta)
    return estimate;

  if (!pv_node && can_null && !excluded && depth >= 3 && estimate >= beta && may_pass_for_null(checked)) {
    const int reduction = 3 + depth / 3 + std::min((estimate - beta) / margin(NullMarginPerPly), 3);
    pos->do_move(Move::pass());
    tt.prefetch(table_key(*pos));
    const int score = -search(-beta, -beta + 1, depth - 1 - reduction, ply + 1, false, in_check(*pos), !cut_node);
    pos->undo_move();
    if (aborted) return 0;
    if (score >= beta) return score >= DecisiveBound ? beta : score;
  }

  // Without a move from an earlier search this node is likely not worth its full depth.
  if (!hash_move && depth >= 4) --depth;

  NodeMoves moves(frames, *pos, Keep::All, checked, ply, eval.known_moves(*pos, eval_memo));
  MoveOrder order(*pos, moves.list, moves.frame->scores, hash_move, *histories, ply, eval);
  const int original_alpha = alpha;
  int best = -Infinite;
  Move best_move;
  int tried = 0;  // the first legal move is always searched, so none was where none is tried
  int quiets_tried = 0;
  Move quiets[64];
  const int* const follows[MostContinuationPlies] = {histories->replies(*pos, 0), histories->replies(*pos, 1)};
  const bool may_prune = ply > 0 && !checked && !decisive_window;
  // The hash move, proven good enough here by a search nearly as deep, may be the only move that
  // is: searched a ply deeper, as a capture that is the only answer would be.
  const int hash_score = from_tt(hit.score, ply);
  const bool singular_candidate = ply > 0 && !excluded && depth >= SingularDepth && hash_move &&
                                  (hit.bound == Bound::Lower || hit.bound == Bound::Exact) &&
                                  hit.depth >= depth - 3 && std::abs(hash_score) < DecisiveBound;
  for (Move m = order.next(); m; m = order.next()) {
    if (m == excluded || (ply == 0 && is_banned(m))) continue;
    int extension = 0;
    // The hash move's legality is known before its singularity is tested; any other move's is asked
    // only where it is not given up first.
    const bool singular_test = singular_candidate && m == hash_move;
    if (singular_test) {
      if (!moves.legal_move(m)) continue;
      const int singular_beta = hash_score - margin(SingularMarginPerPly) * depth;
      excluded_at[ply] = m;
      const int others = search(singular_beta - 1, singular_beta, (depth - 1) / 2, ply, false, checked, cut_node);
      excluded_at[ply] = Move();
      pv_length[ply] = ply;  // the test's line is no line of this node
      if (aborted) return 0;
      if (others < singular_beta) extension = 1;
      // Another move too holds beta by the margin: this node fails high whichever it plays.
      else if (singular_beta >= beta) return singular_beta;
    }
    const bool quiet = !is_capture(*pos, m) && m.promotion_kind() < 0;
    // The depth a late-move reduction would leave this move: how shallow its search would be.
    const int lmr_depth = std::max(depth - 1 - reduction_for(depth, tried), 0);
    // Quiet moves at a node this near the horizon, hopeless or long searched: only a check could
    // still matter. Not a pass, where the rules allow one: sorted last, it would be given up at
    // nearly every node, and a pass can be what holds or ends a standoff.
    const bool prunable =
        quiet && !m.is_pass() && tried > 0 && may_prune && best > -DecisiveBound &&
        ((!pv_node && depth <= LateMoveDepth && quiets_tried >= late_move_count(depth, improving)) ||
         (lmr_depth <= FutilityDepth && stand + margin(futility_margin(lmr_depth)) <= alpha));
    const bool loses_exchange =
        !prunable && !m.is_pass() && tried > 0 && may_prune && !pv_node && depth <= ExchangeDepth &&
        best > -DecisiveBound &&
        !see_ge(*pos, m, quiet ? -margin(QuietExchangeMargin) * lmr_depth * lmr_depth : -margin(CaptureExchangeMargin) * depth,
                eval);
    // A move given up unless it checks need not be made where it surely does not.
    const bool may_check = moves.checks.may_check(m);
    if ((prunable || loses_exchange) && !may_check) continue;
    if (!singular_test && !moves.legal_move(m)) continue;
    const bool killer = m == histories->killers[ply][0] || m == histories->killers[ply][1];
    const int history = quiet ? histories->quiet_score(*pos, m, follows) : 0;
    pos->do_move(m);
    tt.prefetch(table_key(*pos));
    const bool gives_check = may_check && in_check(*pos);
    if ((prunable || loses_exchange) && !gives_check) {
      pos->undo_move();
      continue;
    }
    // Checks are searched a ply deeper, as are singular moves, up to twice the nominal depth so
    // that a long run of them cannot run away.
    if (gives_check && extends(m)) extension = 1;
    const int new_depth = depth - 1 + (ply < 2 * root_depth ? extension : 0);
    int score;
    if (tried == 0) {
      score = -search(-beta, -alpha, new_depth, ply + 1, true, gives_check, !pv_node && !cut_node);
    } else {
      // Late quiet moves are searched shallower first; one that surprises gets its full depth. Not
      // where a won game is in the window: the shortest win often needs a quiet move sorted late
      // (a pass, which sorts last, that leaves the other side to break a standoff or lose on
      // points), and reduced it is found only iterations later, after a longer one.
      int reduction = 0;
      if (depth >= 3 && tried >= 2 && quiet && !decisive_window && (!checked || tuning.reduce_evasions) && !gives_check) {
        reduction = reduction_for(depth, tried) - pv_node + !improving + 2 * cut_node - killer - history / HistoryPerPly;
        reduction = std::clamp(reduction, 0, new_depth - 1);
      }
      score = -search(-alpha - 1, -alpha, new_depth - reduction, ply + 1, true, gives_check, true);
      if (score > alpha && reduction) score = -search(-alpha - 1, -alpha, new_depth, ply + 1, true, gives_check, !cut_node);
      if (score > alpha && score < beta) score = -search(-beta, -alpha, new_depth, ply + 1, true, gives_check, false);
    }
    pos->undo_move();
    if (aborted) return 0;
    ++tried;
    if (quiet && quiets_tried < 64) quiets[quiets_tried] = m;
    quiets_tried += quiet;
    if (score <= best) continue;
    best = score;
    best_move = m;
    if (score <= alpha) continue;
    alpha = score;
    update_pv(ply, m);
    if (alpha >= beta) {
      if (quiet) histories->reward(*pos, m, ply, depth, quiets, std::min(quiets_tried - 1, 64));
      break;
    }
  }
  if (tried == 0) return excluded ? alpha : *node_end(*pos, false, ply);
  if (!excluded)
    tt.store(key, best_move, to_tt(best, ply), checked ? TTEntry::NoEval : stand, depth,
           bound_of(best, original_alpha, beta));
  return best;
}

// The root, in a window around the previous iteration's score that widens until the score falls
// inside it: a narrow window prunes more, and the score rarely moves far between iterations.
int Searcher::Impl::search_root(int depth, int previous) {
  const bool checked = in_check(*pos);
  if (depth < 5 || std::abs(previous) >= DecisiveBound) return search(-Infinite, Infinite, depth, 0, false, checked, false);
  int window = AspirationWindow;
  int alpha = std::max(previous - window, -Infinite), beta = std::min(previous + window, Infinite);
  for (;;) {
    const int score = search(alpha, beta, depth, 0, false, checked, false);
    if (aborted || (score > alpha && score < beta)) return score;
    window *= 2;
    if (window > 1000) return search(-Infinite, Infinite, depth, 0, false, checked, false);
    if (score <= alpha) alpha = std::max(score - window, -Infinite);
    else beta = std::min(score + window, Infinite);
  }
}

// Captures (and promotions) only, until the position is quiet; every reply when in check.
int Searcher::Impl::quiesce(int alpha, int beta, int ply, bool checked) {
  if (const std::optional<int> early = enter_node(ply)) return *early;

  // Any search of this position answers a window it bounds, however shallow; on the principal
  // line only with a score that is no win or loss: the table keeps no moves, and an announced
  // win's line must reach its last move.
  const std::uint64_t key = table_key(*pos);
  const TTEntry* entry = tt.probe(key);
  if (entry)
    if (const std::optional<int> score = proven_score(*entry, ply, alpha, beta);
        score && (beta - alpha == 1 || std::abs(*score) < DecisiveBound))
      return *score;

  // Out of check the side to move may stand on its evaluation rather than capture; a stalemate is
  // left to the full-width search.
  const int original_alpha = alpha;
  const int stand = checked ? TTEntry::NoEval : static_eval(entry);
  int best = -Infinite;
  if (!checked) {
    best = stand;
    if (best >= beta) {
      if (!entry) tt.store(key, Move(), to_tt(best, ply), stand, 0, Bound::Lower);
      return best;
    }
    alpha = std::max(alpha, best);
  }
  NodeMoves moves(frames, *pos, checked ? Keep::All : Keep::Captures, checked, ply, eval.known_moves(*pos, eval_memo));
  MoveOrder order(*pos, moves.list, moves.frame->scores, entry ? entry->move : Move(), *histories, ply, eval);
  Move best_move;
  bool any_legal = false;
  for (Move m = order.next(); m; m = order.next()) {
    if (!checked && m.promotion_kind() < 0 &&
        (best + captured_value(m) + DeltaMargin <= alpha || order.losing()))
      continue;
    if (!moves.legal_move(m)) continue;
    any_legal = true;
    const bool may_check = moves.checks.may_check(m);
    pos->do_move(m);
    tt.prefetch(table_key(*pos));
    const int score = -quiesce(-beta, -alpha, ply + 1, may_check && in_check(*pos));
    pos->undo_move();
    if (aborted) return 0;
    if (score <= best) continue;
    best = score;
    best_move = m;
    if (score <= alpha) continue;
    alpha = score;
    update_pv(ply, m);
    if (alpha >= beta) break;
  }
  if (checked && !any_legal) return *node_end(*pos, false, ply);
  tt.store(key, best_move, to_tt(best, ply), stand, 0, bound_of(best, original_alpha, beta));
  return best;
}

Searcher::Searcher(std::shared_ptr<const Variant> variant, std::size_t hash_mb)
    : impl_(std::make_unique<Impl>(std::move(variant), hash_mb)) {}

Searcher::~Searcher() = default;

void Searcher::set_hash_size(std::size_t mb) { impl_->tt.resize(mb); }

int Searcher::evaluate(const Position& pos) const { return impl_->eval(pos); }

void Searcher::clear() {
  impl_->tt.clear();
  impl_->histories->clear();
}

void Searcher::stop() { stop_.store(true, std::memory_order_relaxed); }

Move Searcher::search(const Position& root, const Limits& limits, const std::function<void(const Report&)>& on_report) {
  Impl& s = *impl_;
  Position pos(root);
  const TimeManager time(limits, pos.side_to_move());
  s.pos = &pos;
  s.limits = &limits;
  s.time = &time;
  s.stop_requested = &stop_;
  s.nodes = 0;
  s.may_abort = false;
  s.aborted = false;
  s.root_move = Move();
  std::fill(std::begin(s.excluded_at), std::end(s.excluded_at), Move());  // a hook's interrupt may leave one
  s.root_banned = limits.banned;

  // The root's moves are found whatever the time (the search must have one to play), but a stop
  // ends that too: hooks that spend their whole budget on every call can make it take a second,
  // and a stop is answered at once, with no move.
  MoveList moves;
  MoveHooks* hooks = pos.move_hooks();
  if (hooks) hooks->set_interrupt([this] { return stop_.load(std::memory_order_relaxed); });
  bool ended = false;
  if (!limits.root_moves.empty()) {
    for (const Move m : limits.root_moves) moves.add(m);
  } else {
    try {
      generate_legal(pos, moves);
      // A move the game's history refuses (a perpetual carried on, a shuttle too many) is none to
      // the game (Game::legal_moves). The tree scores it as lost at once; where every other move
      // loses as soon, the root would play it.
      int allowed = 0;
      for (int i = 0; i < moves.size; ++i)
        if (judge_move(pos, moves.moves[i]).refused) s.root_banned.push_back(moves.moves[i]);
        else ++allowed;
      ended = node_end(pos, allowed > 0, 0).has_value();
    } catch (const HookInterrupted&) {
      ended = true;
    }
  }
  // The moves the root may play come first, so that moves.moves[0] is one of them when any is.
  const auto allowed_end =
      std::stable_partition(moves.moves, moves.moves + moves.size, [&s](Move m) { return !s.is_banned(m); });
  if (ended || allowed_end == moves.moves) {
    stop_.store(false);
    return Move();
  }

  // A slow hook is stopped inside its call once the time is up or a stop comes, first iteration or
  // not: the search then plays the best move found so far, or else the first legal one.
  s.check_mask = hooks ? 0 : 1023;
  if (hooks) hooks->set_interrupt([&s] { return s.interrupted(); });

  int previous = 0;
  const bool unbounded = limits.infinite || (!limits.depth && !limits.nodes && !time.timed());
  Move best;
  for (int depth = 1; depth < MaxPly; ++depth) {
    if (!limits.infinite && limits.depth && depth > limits.depth) break;
    s.root_depth = depth;
    s.seldepth = 0;
    int score = 0;
    try {
      score = s.search_root(depth, previous);
    } catch (const HookInterrupted&) {
      s.aborted = true;
    }
    if (s.aborted) {
      // A root move that beat the previous best before time ran out was searched to this depth.
      if (s.pv_length[0] > 0) best = s.pv[0][0];
      if (!best) best = moves.moves[0];
      break;
    }
    s.may_abort = true;
    best = s.root_move = s.pv[0][0];
    previous = score;
    if (on_report) {
      Report report;
      report.depth = depth;
      report.seldepth = s.seldepth;
      report.score_cp = score;
      report.mate_in = mate_in(score);
      report.nodes = s.nodes;
      report.time_ms = time.elapsed_ms();
      report.pv.assign(s.pv[0], s.pv[0] + s.pv_length[0]);
      on_report(report);
    }
    if (!limits.infinite && (stop_.load() || time.iteration_unaffordable())) break;
  }
  // UCI's `go infinite` answers only after `stop`, however soon the search ran out of depth.
  if (unbounded)
    while (!stop_.load()) std::this_thread::sleep_for(std::chrono::milliseconds(1));
  stop_.store(false);
  return best;
}

}  // namespace palace::search
