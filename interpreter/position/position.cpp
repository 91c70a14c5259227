#include "position/position.h"

#include <algorithm>
#include <cassert>
#include <cstdlib>

#include "movegen/movegen.h"
#include "position/endgame_count.h"

namespace palace {

namespace {

// After a move: where checks are counted and the move gives check, the mover needs one fewer.
[[gnu::noinline]] void count_check(const Position& pos, std::uint8_t& needed, std::uint64_t& hash) {
  if (needed == 0 || !in_check(pos)) return;
  const Side mover = opponent(pos.side_to_move());
  hash ^= pos.variant().checks_key(mover, needed) ^ pos.variant().checks_key(mover, needed - 1);
  --needed;
}

}  // namespace

Position::Position(std::shared_ptr<const Variant> variant)
    : variant_(std::move(variant)),
      hooks_(*variant_),
      bit_words_(std::uint8_t(variant_->bitboards() ? 1 : variant_->wide_bitboards() ? 2 : 0)),
      board_trials_(!variant_->has_runtime_hooks() && !variant_->explosive()) {
  states_.reserve(1024);
  edits_.reserve(256);
  set_start();
}

void Position::clear() {
  board_.fill(NoPiece);
  side_bits_.fill({});
  piece_bits_.fill({});
  count_ = {0, 0};
  royal_ = {NoPoint, NoPoint};
  hand_ = Hand();
  states_.clear();
  states_.reserve(1024);
  states_.emplace_back();
  edits_.clear();
  const int checks = variant_->ends().get<ChecksGiven>().limit;
  states_.back().checks_needed = {std::uint8_t(checks), std::uint8_t(checks)};
}

template <int Words>
void Position::put(Piece p, Point s) {
  const Side side = side_of(p);
  board_[s] = p;
  if constexpr (Words > 0) {
    flip<Words>(side_bits_[side], s);
    flip<Words>(piece_bits_[p], s);
  }
  list_index_[s] = std::uint8_t(count_[side]);
  list_[side][count_[side]++] = s;
  if (variant_->royal(kind_of(p))) royal_[side] = s;
}

// Out of line, as it was while FEN reading shared this file: inlined into do_move's capture, it
// cost every move two instructions of register saving (callgrind, docs/engine-log.md 2026-11-28).
template <int Words>
[[gnu::noinline]] void Position::remove(Point s) {
  const Piece p = board_[s];
  const Side side = side_of(p);
  const Point last = list_[side][--count_[side]];
  list_[side][list_index_[s]] = last;
  list_index_[last] = list_index_[s];
  board_[s] = NoPiece;
  if constexpr (Words > 0) {
    flip<Words>(side_bits_[side], s);
    flip<Words>(piece_bits_[p], s);
  }
  if (royal_[side] == s) royal_[side] = NoPoint;
}

void Position::put(Piece p, Point s) { bit_words_ == 1 ? put<1>(p, s) : bit_words_ ? put<2>(p, s) : put<0>(p, s); }
void Position::remove(Point s) { bit_words_ == 1 ? remove<1>(s) : bit_words_ ? remove<2>(s) : remove<0>(s); }

// Inline, as it was before it kept bitboards: out of line it cost every move a call.
template <int Words>
[[gnu::always_inline]] inline void Position::relocate(Point from, Point to) {
  const Piece p = board_[from];
  board_[to] = p;
  board_[from] = NoPiece;
  if constexpr (Words == 1) {
    const Bitboard change = bit(from) | bit(to);
    side_bits_[side_of(p)][0] ^= change;
    piece_bits_[p][0] ^= change;
  } else if constexpr (Words == 2) {
    for (BitWords* set : {&side_bits_[side_of(p)], &piece_bits_[p]}) {
      flip<Words>(*set, from);
      flip<Words>(*set, to);
    }
  }
  list_index_[to] = list_index_[from];
  list_[side_of(p)][list_index_[to]] = to;
  if (royal_[side_of(p)] == from) royal_[side_of(p)] = to;
}

template <int Words>
void Position::retype(Point s, Piece p) {
  if constexpr (Words > 0) {
    flip<Words>(piece_bits_[board_[s]], s);
    flip<Words>(piece_bits_[p], s);
  }
  board_[s] = p;
}

std::uint64_t Position::compute_hash() const {
  const StateRecord& st = states_.back();
  std::uint64_t h = side_ ? variant_->side_key() : 0;
  for (Point s = Point(0); s < variant_->squares(); ++s)
    if (board_[s]) h ^= variant_->piece_key(board_[s], s);
  if (st.ghost != NoPoint) h ^= variant_->ghost_key(st.ghost);
  if (variant_->ends().get<ChecksGiven>().limit)
    for (Side s = First; s < SideCount; ++s) h ^= variant_->checks_key(s, st.checks_needed[s]);
  if (variant_->has_hands())
    for (Side s = First; s < SideCount; ++s)
      for (Kind k : variant_->hand_kinds())
        for (int n = 1; n <= hand_.count[s][k]; ++n) h ^= variant_->hand_key(s, k, n);
  return h ^ variant_->rights_key(st.rights);
}

// A hand's hash holds one key for each piece of a kind held: the n-th piece's key comes and goes
// with it.
std::uint64_t Position::to_hand(Side side, Kind kind) { return variant_->hand_key(side, kind, ++hand_.count[side][kind]); }
std::uint64_t Position::from_hand(Side side, Kind kind) { return variant_->hand_key(side, kind, hand_.count[side][kind]--); }

void Position::set_start() {
  clear();
  const RuleSet& rules = variant_->rules();
  for (Side s = First; s < SideCount; ++s) {
    for (const Placement& p : rules.setup[s]) put(make_piece(s, p.kind), p.square);
    if (variant_->has_hands())
      for (Kind k : variant_->hand_kinds()) hand_.count[s][k] = rules.hands.at_start[s][k];
  }
  side_ = First;
  fullmove_base_ = 1;
  start_side_ = 0;
  StateRecord& st = states_.back();
  // A compound move's right is held at the start whenever both its pieces stand ready; castling
  // from any start, with the outermost partner of each wing.
  const auto& compounds = variant_->compound_moves();
  for (std::size_t i = 0; i < compounds.size(); ++i) {
    const CompoundMove& c = compounds[i];
    if (rules.compound_moves[i].wing < 0 && board_[c.from] == make_piece(c.side, c.kind) &&
        board_[c.partner_from] == make_piece(c.side, c.partner))
      st.rights |= std::uint16_t(1u << c.right);
  }
  for (Side s = First; s < SideCount; ++s)
    for (std::size_t w = 0; w < rules.castling.wings.size(); ++w)
      if (const int i = outermost_castling(s, int(w)); i >= 0) st.rights |= std::uint16_t(1u << compounds[i].right);
  st.royals_facing = facing_flag();
  st.count_blocked = count_blocked(*this);
  st.hash = compute_hash();
}

Point Position::castling_piece(Side side) const {
  const CastlingDef& c = variant_->rules().castling;
  if (c.kind < 0) return NoPoint;
  const BoardDef& board = variant_->board();
  for (int file = 0; file < board.files; ++file)
    if (const Point s = board.square(file, c.home_rank[side]); board_[s] == make_piece(side, c.kind)) return s;
  return NoPoint;
}

int Position::castling_move(Side side, Point partner_from) const {
  const Point from = castling_piece(side);
  const auto& compounds = variant_->compound_moves();
  for (std::size_t i = 0; i < compounds.size(); ++i)
    if (variant_->rules().compound_moves[i].wing >= 0 && compounds[i].side == side && compounds[i].from == from &&
        compounds[i].partner_from == partner_from)
      return int(i);
  return -1;
}

int Position::outermost_castling(Side side, int wing) const {
  const CastlingDef& c = variant_->rules().castling;
  const Point from = castling_piece(side);
  if (from == NoPoint) return -1;
  const BoardDef& board = variant_->board();
  const bool right = c.wings[std::size_t(wing)].partners_right;
  // From the board's edge on the wing's side in towards the piece.
  for (int file = right ? board.files - 1 : 0; file != board.file_of(from); file += right ? -1 : 1)
    if (const Point s = board.square(file, c.home_rank[side]); board_[s] == make_piece(side, c.partner))
      return castling_move(side, s);
  return -1;
}

Point Position::beyond_ghost(Point ghost, Side mover) const {
  const BoardDef& board = variant_->board();
  const int rank = board.rank_of(ghost) + variant_->rules().sides[mover].forward;
  return rank >= 0 && rank < board.ranks ? board.square(board.file_of(ghost), rank) : NoPoint;
}

bool Position::on_ghost_line(Point s) const {
  const BoardDef& board = variant_->board();
  const StateRecord& st = state();
  const int file = board.file_of(st.ghost), rank = board.rank_of(st.ghost);
  const int df = board.file_of(st.ghost_end) - file, dr = board.rank_of(st.ghost_end) - rank;
  const int sf = board.file_of(s) - file, sr = board.rank_of(s) - rank;
  const int n = std::max(std::abs(df), std::abs(dr)), k = std::max(std::abs(sf), std::abs(sr));
  return k <= n && sf * n == df * k && sr * n == dr * k;
}

Point Position::step_toward(Point from, Point to) const {
  const BoardDef& board = variant_->board();
  auto sign = [](int x) { return (x > 0) - (x < 0); };
  return board.square(board.file_of(from) + sign(board.file_of(to) - board.file_of(from)),
                      board.rank_of(from) + sign(board.rank_of(to) - board.rank_of(from)));
}

bool Position::royal_may_be_taken() const {
  const MoveRules& rules = variant_->move_rules();
  return rules.facing_royals == FacingRule::Standoff && rules.pass != PassRule::Never;
}

bool Position::royals_facing() const {
  const Point a = royal_[0], b = royal_[1];
  if (a == NoPoint || b == NoPoint || variant_->board().file_of(a) != variant_->board().file_of(b)) return false;
  // Up the file from the lower royal, which every board has as a line, to the higher one.
  constexpr int Up = 0;
  const Point high = std::max(a, b);
  for (const Point* point = variant_->line_points(variant_->line(std::min(a, b), Up)); *point != high; ++point)
    if (board_[*point]) return false;
  return true;
}

// Only the facing-royals rules read the flag; where facing is ordinary, skip the file walk.
bool Position::facing_flag() const {
  return variant_->move_rules().facing_royals != FacingRule::Allowed && royals_facing();
}

template <int Words>
void Position::make(Move m) {
  const Variant& v = *variant_;
  assert(m.is_pass() || m.type() == MoveType::Drop || (board_[m.from()] && side_of(board_[m.from()]) == side_));
  states_.push_back(states_.back());
  StateRecord& st = states_.back();
  const StateRecord& prev = states_[states_.size() - 2];
  std::uint64_t h = st.hash ^ v.side_key();
  st.move = m;
  st.captured = NoPiece;
  st.moved = NoPiece;
  st.edited = 0;
  if (st.ghost != NoPoint) h ^= v.ghost_key(st.ghost);
  st.ghost = st.ghost_end = st.ghost_victim = NoPoint;
  // Saturates rather than wrapping to 0, which would undo a move limit reached 65,536 plies ago.
  if (st.quiet_plies < UINT16_MAX) ++st.quiet_plies;

  if (m.type() == MoveType::Compound) {
    // Both pieces are lifted before either lands: each may land where the other stood.
    const CompoundMove& c = v.compound_moves()[m.extra()];
    const Piece p = board_[c.from], partner = board_[c.partner_from];
    st.moved = p;
    h ^= v.piece_key(p, c.from) ^ v.piece_key(p, c.to) ^ v.piece_key(partner, c.partner_from) ^ v.piece_key(partner, c.partner_to);
    remove<Words>(c.partner_from);
    if (c.from != c.to) relocate<Words>(c.from, c.to);
    put<Words>(partner, c.partner_to);
  } else if (m.type() == MoveType::Drop) {
    const Piece p = make_piece(side_, m.drop_kind());
    st.moved = p;
    h ^= from_hand(side_, m.drop_kind()) ^ v.piece_key(p, m.to());
    put<Words>(p, m.to());
    if (v.resets_move_limit(m.drop_kind())) st.quiet_plies = 0;
  } else if (!m.is_pass()) {
    const Point from = m.from(), to = m.to();
    const Piece p = board_[from];
    st.moved = p;
    const Point victim = m.type() == MoveType::CaptureGhost ? prev.ghost_victim : to;
    if (board_[victim]) {
      st.captured = board_[victim];
      h ^= v.piece_key(st.captured, victim);
      remove<Words>(victim);
      st.quiet_plies = 0;
      if (v.captures_to_hand()) h ^= to_hand(side_, v.joins_hand_as(kind_of(st.captured)));
    }
    h ^= v.piece_key(p, from) ^ v.piece_key(p, to);
    relocate<Words>(from, to);
    if (v.resets_move_limit(kind_of(p))) st.quiet_plies = 0;
    if (m.promotion_kind() >= 0) {
      const Piece promoted = make_piece(side_, m.promotion_kind());
      h ^= v.piece_key(p, to) ^ v.piece_key(promoted, to);
      retype<Words>(to, promoted);
    } else if (m.type() == MoveType::LeaveGhost) {
      st.ghost = Point(m.extra());
      st.ghost_end = step_toward(to, st.ghost);
      st.ghost_victim = to;
      h ^= v.ghost_key(st.ghost);
    }
    if (st.captured && v.explosive()) [[unlikely]]
      explode(to, h);
  }
  if (v.any_edits_after_move()) [[unlikely]]
    run_after_move_hook(h);
  if (!m.is_pass() && st.rights) {
    std::uint16_t lost = v.rights_lost_at(m.from()) | v.rights_lost_at(m.to()) | v.rights_lost_by(st.moved);
    if (st.edited) [[unlikely]]
      for (int i = 1; i <= st.edited; ++i) lost |= v.rights_lost_at(edits_[edits_.size() - i].first);
    const std::uint16_t rights = std::uint16_t(st.rights & ~lost);
    if (rights != st.rights) {
      h ^= v.rights_key(st.rights) ^ v.rights_key(rights);
      st.rights = rights;
    }
  }
  side_ = opponent(side_);
  if (v.ends().get<ChecksGiven>().limit) [[unlikely]]
    count_check(*this, st.checks_needed[opponent(side_)], h);
  if (v.ends().get<EndgameCount>().on()) [[unlikely]]
    advance_endgame_count(*this, st);
  st.hash = h;
  st.royals_facing = facing_flag();
  assert(is_consistent());  // a new rule that breaks a table fails here, not plies later
}

// A capture on `centre` removes the capturer and every neighbour a blast does not spare. Kept out
// of line, like count_check, so that do_move stays as small as it was for every other game.
[[gnu::noinline]] void Position::explode(Point centre, std::uint64_t& hash) {
  edit(centre, NoPiece, hash);
  for (const Point s : variant_->neighbours(centre))
    if (board_[s] && variant_->blown_up(kind_of(board_[s]))) edit(s, NoPiece, hash);
}

// The moved kind's after_move hook (position/move_hooks.h) changes the board once the move is made,
// the mover still to move. A hook that fails leaves the position as it was before the move.
[[gnu::noinline]] void Position::run_after_move_hook(std::uint64_t& hash) {
  StateRecord& st = states_.back();
  const Kind kind = kind_of(st.moved);
  if (st.move.is_pass() || !variant_->edits_after_move(kind)) return;
  // No drop comes here: these hooks are refused where pieces go to a hand (hooks/load_variant.cpp).
  Point from = st.move.from(), to = st.move.to();
  if (st.move.type() == MoveType::Compound) {
    const CompoundMove& c = variant_->compound_moves()[st.move.extra()];
    from = c.from;
    to = c.to;
  }
  std::vector<PointEdit> edits;
  try {
    hooks_.get()->after_move(*this, kind, from, to, st.moved, st.captured, edits);
  } catch (...) {
    side_ = opponent(side_);  // as undo_move expects to find it
    undo_move();
    throw;
  }
  for (const PointEdit& e : edits) {
    // A piece that skipped a point may no longer be taken there once either point changes.
    if (st.ghost != NoPoint && (is_ghost(e.at) || e.at == st.ghost_victim)) {
      hash ^= variant_->ghost_key(st.ghost);
      st.ghost = st.ghost_end = st.ghost_victim = NoPoint;
    }
    edit(e.at, e.piece, hash);
  }
}

// Every change a side effect makes to the board goes through here, so that undo_move restores it.
void Position::edit(Point s, Piece p, std::uint64_t& hash) {
  edits_.emplace_back(s, board_[s]);
  ++states_.back().edited;
  if (board_[s]) {
    hash ^= variant_->piece_key(board_[s], s);
    remove(s);
  }
  if (p) {
    put(p, s);
    hash ^= variant_->piece_key(p, s);
  }
}

bool Position::is_consistent() const {
  int on_board[SideCount] = {0, 0};
  Point royals[SideCount] = {NoPoint, NoPoint};
  std::array<BitWords, SideCount> side_bits{};
  std::array<BitWords, PieceCodes> piece_bits{};
  for (Point s = Point(0); s < variant_->squares(); ++s) {
    const Piece p = board_[s];
    if (!p) continue;
    const Side side = side_of(p);
    flip<2>(side_bits[side], s);
    flip<2>(piece_bits[p], s);
    if (kind_of(p) < 0 || kind_of(p) >= variant_->kinds()) return false;
    if (list_index_[s] >= count_[side] || list_[side][list_index_[s]] != s) return false;
    ++on_board[side];
    if (variant_->royal(kind_of(p))) royals[side] = s;
  }
  for (Side side = First; side < SideCount; ++side)
    if (on_board[side] != count_[side] || royals[side] != royal_[side]) return false;
  if (bit_words_ && (side_bits != side_bits_ || piece_bits != piece_bits_)) return false;
  return states_.back().royals_facing == facing_flag() && states_.back().hash == compute_hash();
}

template <int Words>
void Position::unmake() {
  assert(states_.size() > 1);
  const StateRecord& st = states_.back();
  const Move m = st.move;
  side_ = opponent(side_);
  if (st.edited) [[unlikely]]
    for (int i = 0; i < st.edited; ++i) {
      const auto [square, former] = edits_.back();
      edits_.pop_back();
      if (board_[square]) remove<Words>(square);
      if (former) put<Words>(former, square);
    }
  if (m.type() == MoveType::Compound) {
    const CompoundMove& c = variant_->compound_moves()[m.extra()];
    const Piece partner = board_[c.partner_to];
    remove<Words>(c.partner_to);
    if (c.from != c.to) relocate<Words>(c.to, c.from);
    put<Words>(partner, c.partner_from);
  } else if (m.type() == MoveType::Drop) {
    remove<Words>(m.to());
    ++hand_.count[side_][m.drop_kind()];
  } else if (!m.is_pass()) {
    const Point from = m.from(), to = m.to();
    // A promotion taken back. Without bitboards, writing the piece back costs less than asking.
    if (!Words || board_[to] != st.moved) [[unlikely]]
      retype<Words>(to, st.moved);
    relocate<Words>(to, from);
    if (st.captured) {
      put<Words>(st.captured, m.type() == MoveType::CaptureGhost ? states_[states_.size() - 2].ghost_victim : to);
      if (variant_->captures_to_hand()) --hand_.count[side_][variant_->joins_hand_as(kind_of(st.captured))];
    }
  }
  states_.pop_back();
  assert(is_consistent());
}

template void Position::make<0>(Move m);
template void Position::make<1>(Move m);
template void Position::make<2>(Move m);
template void Position::unmake<0>();
template void Position::unmake<1>();
template void Position::unmake<2>();

std::string Position::move_text(Move m) const {
  if (m.is_pass()) return "pass";
  const BoardDef& board = variant_->board();
  if (m.type() == MoveType::Drop) return variant_->drop_prefix(m.drop_kind()) + board.point_name(m.to());
  std::string text = board.point_name(m.from()) + board.point_name(m.to());
  if (m.promotion_kind() >= 0) text += variant_->promotion_suffix(m.promotion_kind());
  return text;
}

}  // namespace palace

