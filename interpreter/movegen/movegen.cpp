#include "movegen/movegen.h"

#include <bit>
#include <vector>

#include "ends/registry.h"
#include "movegen/bitboard_moves.h"
#include "movegen/destinations.h"

namespace palace {

namespace {

// A runtime hook's say on a move of a kind that names one.
bool hook_allows(const Position& pos, Kind kind, Move m) { return pos.move_hooks()->allows(pos, kind, m); }

// Whether an attack the tables found is one the piece's runtime hook would allow as a move, so
// that checks and moves agree. Without runtime hooks this is `true` at compile time: the attack
// test of most variants stays a loop with no call in it.
template <bool Hooks>
bool hook_permits(const Position& pos, Kind kind, Point from, Point target) {
  if constexpr (Hooks) return !pos.variant().has_move_hook(kind) || hook_allows(pos, kind, Move(from, target));
  return true;
}

// Whether `us` has fewer pieces of `kind` on the board than it set up.
bool has_lost(const Position& pos, Side us, Kind kind) {
  int on_board = 0;
  for (int i = 0; i < pos.piece_count(us); ++i) on_board += kind_of(pos.at(pos.piece_square(us, i))) == kind;
  return on_board < pos.variant().setup_count(us, kind);
}

// Out of line, so that the common case below stays small enough to inline into the generator.
// The promoted piece is another kind, so a leap that promotes leaves no ghost behind (as the
// reference engine's promoting double step leaves no en passant point).
[[gnu::noinline]] void add_promotions(const Position& pos, MoveList& list, Side us, Kind kind, Move m, std::uint8_t promotion) {
  const Variant& v = pos.variant();
  if (!(promotion & MustPromote)) list.add(m);
  const bool lost_only = v.rules().pieces[kind].promotion_to_lost_only;
  for (Kind k : v.promotion_kinds(kind))
    if (!lost_only || has_lost(pos, us, k)) list.add(Move::promotion(m.from(), m.to(), k));
}

// `m` a plain move or a leap leaving a ghost.
void add_move(const Position& pos, const Variant& v, MoveList& list, Side us, Kind kind, Move m) {
  const std::uint8_t promotion = std::uint8_t((v.promotion_flags(us, kind, m.to()) & (PromotesArriving | MustPromote)) |
                                              (v.promotion_flags(us, kind, m.from()) & PromotesLeaving));
  if (promotion) add_promotions(pos, list, us, kind, m, promotion);
  else list.add(m);
}

}  // namespace

void add_move_with_promotions(const Position& pos, MoveList& list, Side us, Kind kind, Move m) {
  add_move(pos, pos.variant(), list, us, kind, m);
}

void keep_royal_safe(Position& pos, MoveList& list, int first) {
  int kept = first;
  for (int i = first; i < list.size; ++i)
    if (leaves_royal_safe(pos, list.moves[i])) list.moves[kept++] = list.moves[i];
  list.size = kept;
}

namespace {

// The moves of the side to move's piece on `from`, in a variant without bitboards. A kind with no
// promotion zone skips the promotion table at each of its moves, and where only captures are asked
// for, its moves to empty points.
template <bool CapturesOnly>
void generate_piece_moves(const Position& pos, MoveList& list, Point from) {
  const Variant& v = pos.variant();
  const Side us = pos.side_to_move();
  const Kind kind = kind_of(pos.at(from));
  if (v.rules().pieces[kind].promotion_zone < 0) {
    for_each_mailbox_destination<CapturesOnly>(
        pos, us, kind, from, [&](Point to, MoveType type, Point extra) { list.add(Move(from, to, type, extra)); }, NoGuard());
    return;
  }
  for_each_mailbox_destination(
      pos, us, kind, from,
      [&](Point to, MoveType type, Point extra) {
        if (type == MoveType::CaptureGhost) list.add(Move(from, to, type, extra));
        else add_move(pos, v, list, us, kind, Move(from, to, type, extra));
      },
      NoGuard());
}

// Whether the list holds a move of the piece on `from` to `to`, compound moves aside.
bool listed(const MoveList& list, Point from, Point to) {
  for (const Move m : list)
    if (m.type() != MoveType::Compound && m.from() == from && m.to() == to) return true;
  return false;
}

// The moves add_moves hooks give the side to move's pieces beyond their movement: each an ordinary
// move of the piece, promotions included, and none made twice. The compiled move bound cannot
// count them, so they are refused beyond what the list holds.
[[gnu::noinline]] void generate_added_moves(const Position& pos, MoveList& list) {
  const Variant& v = pos.variant();
  const Side us = pos.side_to_move();
  std::vector<AddedTarget> targets;
  for (int i = 0; i < pos.piece_count(us); ++i) {
    const Point from = pos.piece_square(us, i);
    const Kind kind = kind_of(pos.at(from));
    if (!v.adds_moves(kind)) continue;
    targets.clear();
    pos.move_hooks()->add_targets(pos, kind, from, targets);
    for (const AddedTarget& t : targets) {
      const Piece occupant = pos.at(t.to);
      const bool reachable = occupant ? (t.modes & CanCapture) && v.may_capture(kind, kind_of(occupant)) : (t.modes & CanMove);
      if (!reachable || listed(list, from, t.to)) continue;
      // Room for every promotion choice and a pass.
      if (list.size + int(v.promotion_kinds(kind).size()) + 2 > MaxMoves)
        throw Error("add_moves: " + v.side_name(us) + " would have more than " + std::to_string(MaxMoves) +
                    " moves in one position");
      add_move(pos, v, list, us, kind, Move(from, t.to));
    }
  }
}

void generate_compound_moves(const Position& pos, MoveList& list) {
  for_each_compound_move(pos, [&](std::uint8_t i, const CompoundMove& c) {
    bool ok = true;
    for (Point s : c.must_be_empty) ok = ok && !pos.at(s);
    for (Point s : c.must_be_safe) ok = ok && !safe_point_attacked(pos, c, s);
    if (ok) list.add(Move(c.from, c.written_to, MoveType::Compound, i));
  });
}

// Along a line out from the royal in direction `dir` where `them` has hoppers, the points whose
// change of occupant could open an attack on the royal. One plain move removes at most one piece
// from the line and puts at most one of its own there, so only the first three pieces met can
// attack after it: the first by a slide (or, where `facing`, as the other royal), the second by
// a hop over the first. Hence the empty points before the first piece where it hops here (a piece
// put there screens for it); the first piece where the second slides, faces or hops here (taken
// away or replaced, it unblocks or changes the screen) or the third hops here; the second where
// the third hops here. The royal's own moves are tested apart.
void expose_hop_line(const Position& pos, Span line, int dir, Side them, bool facing, PointSet& exposed) {
  const Variant& v = pos.variant();
  std::uint32_t met[3];
  int pieces = 0;
  for (std::uint32_t i = line.begin; i < line.end && pieces < 3; ++i)
    if (pos.at(v.line_point(i))) met[pieces++] = i;
  // Whether the n-th piece met is `them`'s and would capture on the royal by a hop, or else by a
  // slide or facing, were the pieces before it in the right place.
  const auto reaches = [&](int n, bool by_hop) {
    if (n >= pieces) return false;
    const Point s = v.line_point(met[n]);
    const Piece p = pos.at(s);
    const unsigned distance = met[n] - line.begin;
    if (side_of(p) != them) return false;
    if (by_hop) return (v.hop_reach(them, kind_of(p), s, dir) >> distance & 1) != 0;
    return (v.slide_reach(them, kind_of(p), s, dir) >> distance & 1) || (facing && v.royal(kind_of(p)));
  };
  const bool third_hops = reaches(2, true);
  if (reaches(0, true))
    for (std::uint32_t i = line.begin; i < met[0]; ++i) exposed.set(v.line_point(i));
  if (third_hops || reaches(1, false) || reaches(1, true)) exposed.set(v.line_point(met[0]));
  if (third_hops) exposed.set(v.line_point(met[1]));
}

// Points whose change of occupant could expose `royal` to `them` in this position, which must not
// be check: the blocking points of leapers aimed at it, each own piece pinned against a slider
// (or, where royals may not face, against the other royal), and along lines where `them` has
// hoppers those of expose_hop_line. A plain move touching none of them cannot leave the royal
// attacked.
PointSet exposure(const Position& pos, Point royal, Side them) {
  const Variant& v = pos.variant();
  PointSet exposed;
  const Span leaps = v.reverse_leaps(them, royal);
  for (std::uint32_t i = leaps.begin; i < leaps.end; ++i) {
    const ReverseLeap& r = v.reverse_leap(i);
    const Piece p = pos.at(r.from);
    if (p && side_of(p) == them && (r.kinds >> kind_of(p) & 1))
      for (int b = 0; b < r.block_count; ++b) exposed.set(r.blocks[b]);
  }

  const bool facing_forbidden = v.move_rules().facing_royals == FacingRule::Forbidden;
  const unsigned file_dirs = facing_forbidden ? (1u << 0 | 1u << 4) : 0;
  const std::uint8_t hops = v.hop_directions(them);
  for (unsigned dirs = v.attack_directions(them) | file_dirs; dirs; dirs &= dirs - 1) {
    const int dir = std::countr_zero(dirs);
    const Span line = v.line(royal, reverse_direction(dir));
    if (hops >> dir & 1) {
      expose_hop_line(pos, line, dir, them, file_dirs >> dir & 1, exposed);
      continue;
    }
    Point shield = NoPoint;
    for (std::uint32_t i = line.begin; i < line.end; ++i) {
      const Point s = v.line_point(i);
      const Piece p = pos.at(s);
      if (!p) continue;
      if (shield == NoPoint) {
        if (side_of(p) == them) break;
        shield = s;
        continue;
      }
      const bool slider = side_of(p) == them && (v.slide_reach(them, kind_of(p), s, dir) >> (i - line.begin) & 1);
      const bool facing = (file_dirs >> dir & 1) && side_of(p) == them && v.royal(kind_of(p));
      if (slider || facing) exposed.set(shield);
      break;
    }
  }
  return exposed;
}

// exposure() from the bitboards where the variant has them; royals that may not face and lines
// screened for hoppers are the mailbox walk's to follow.
PointSet exposure_of(const Position& pos, Point royal, Side them) {
  const Variant& v = pos.variant();
  if (v.move_rules().facing_royals != FacingRule::Forbidden) {
    if (const Bitboards* b = v.bitboards(); b && !b->hops()) return bitboard_exposure(pos, *b, royal, them);
    if (const WideBitboards* w = v.wide_bitboards(); w && !w->hops()) return bitboard_exposure(pos, *w, royal, them);
  }
  return exposure(pos, royal, them);
}

// Where captures are compulsory, a side that can capture may make no other move.
void keep_only_captures(const Position& pos, MoveList& list) {
  int kept = 0;
  for (int i = 0; i < list.size; ++i)
    if (is_capture(pos, list.moves[i])) list.moves[kept++] = list.moves[i];
  if (kept > 0) list.size = kept;
}

}  // namespace

namespace {

// The files where `side` has a piece of `kind`: a kind dropped one per file may not go there.
std::uint32_t files_holding(const Position& pos, Side side, Kind kind) {
  std::uint32_t files = 0;
  for (int i = 0; i < pos.piece_count(side); ++i) {
    const Point s = pos.piece_square(side, i);
    if (kind_of(pos.at(s)) == kind) files |= 1u << pos.variant().board().file_of(s);
  }
  return files;
}

// The empty points of the zone where `us` may drop `kind`.
template <typename B>
std::uint64_t count_drops(const Position& pos, const BasicBitboards<B>& b, Side us, Kind kind) {
  const B drops = b.drop_points(us, kind) & ~pos.occupied<B>();
  return std::uint64_t(b.count(drops));
}

// The legal drops of the side to move, into `list` unless it is null; where `counted` is given, some
// may be added to it instead of listed. Returns whether there is one. A drop cannot expose the
// royal, so only a side in check tries its drops by making them. A kind with an allow_move hook is
// asked about each of its drops, so none is counted from the bitboards.
bool add_legal_drops(Position& pos, MoveList* list, bool checked, std::uint64_t* counted) {
  const Variant& v = pos.variant();
  const Side us = pos.side_to_move();
  // Out of check every drop on an empty point of its zone is legal: perft's last ply counts them
  // from the bitboards where no file rule leaves some out.
  const bool count_from_bits = counted && !checked && (v.bitboards() || v.wide_bitboards());
  bool any = false;
  for (Kind kind : v.hand_kinds()) {
    if (!pos.in_hand(us, kind)) continue;
    if (count_from_bits && !v.one_per_file(kind) && !v.has_move_hook(kind)) {
      const std::uint64_t drops = v.bitboards() ? count_drops(pos, *v.bitboards(), us, kind)
                                                : count_drops(pos, *v.wide_bitboards(), us, kind);
      *counted += drops;
      any = any || drops;
      continue;
    }
    const std::uint32_t taken_files = v.one_per_file(kind) ? files_holding(pos, us, kind) : 0;
    for (const Point s : v.drop_points(us, kind)) {
      if (pos.at(s) || (taken_files >> v.board().file_of(s) & 1)) continue;
      const Move m = Move::drop(kind, s);
      if (v.has_move_hook(kind) && !hook_allows(pos, kind, m)) continue;
      if (checked && !leaves_royal_safe(pos, m)) continue;
      if (!list) return true;
      list->add(m);
      any = true;
    }
  }
  return any;
}

// Whether an add_moves hook of a piece of `by` lets it capture on `target`, so that a check an
// added move gives is seen as one.
[[gnu::noinline]] bool attacked_by_added_move(const Position& pos, Point target, Side by, Kind victim_kind) {
  const Variant& v = pos.variant();
  std::vector<AddedTarget> targets;
  for (int i = 0; i < pos.piece_count(by); ++i) {
    const Point from = pos.piece_square(by, i);
    const Kind kind = kind_of(pos.at(from));
    if (!v.adds_moves(kind) || !v.may_capture(kind, victim_kind)) continue;
    targets.clear();
    pos.move_hooks()->add_targets(pos, kind, from, targets);
    for (const AddedTarget& t : targets)
      if (t.to == target && (t.modes & CanCapture) && hook_permits<true>(pos, kind, from, target)) return true;
  }
  return false;
}

// The board as an attack test reads it: as it stands, or as an exchange has left it with the
// pieces it took off emptied (cheapest_attacker).
struct BoardAsIs {
  const Position& pos;
  Piece operator()(Point s) const { return pos.at(s); }
};
struct BoardEmptied {
  const Position& pos;
  const PointSet& gone;
  Piece operator()(Point s) const { return gone[s] ? NoPiece : pos.at(s); }
};

// Calls visit(from, kind) for each piece of `by` that could capture a piece of `victim_kind` on
// `target`, the board read through `at`, until it returns true; returns whether one did. The
// attack test stops at the first; an exchange looks for the cheapest of them.
template <bool Hooks, typename Board, typename Visit>
bool visit_attackers(const Position& pos, Point target, Side by, Kind victim_kind, const Board& at, Visit&& visit) {
  const Variant& v = pos.variant();
  const Span leaps = v.reverse_leaps(by, target);
  for (std::uint32_t i = leaps.begin; i < leaps.end; ++i) {
    const ReverseLeap& r = v.reverse_leap(i);
    const Piece p = at(r.from);
    if (p && side_of(p) == by && (r.kinds >> kind_of(p) & 1) && path_clear(at, r.blocks, r.block_count) &&
        v.may_capture(kind_of(p), victim_kind) && hook_permits<Hooks>(pos, kind_of(p), r.from, target) &&
        visit(r.from, kind_of(p)))
      return true;
  }

  // Walk outwards from the target against each direction `by` can slide or hop in: the first
  // piece met may slide here, the second may hop here over the first. The two walks are written
  // apart, so a direction without hoppers stops at the first piece with no screen to track.
  const std::uint8_t hops = v.hop_directions(by);
  for (unsigned dirs = v.attack_directions(by); dirs; dirs &= dirs - 1) {
    const int dir = std::countr_zero(dirs);
    const Span line = v.line(target, reverse_direction(dir));
    // Whether the first piece met, `p` on the line's point `i`, slides onto the target.
    const auto slides_here = [&](std::uint32_t i, Piece p) {
      const Point s = v.line_point(i);
      return side_of(p) == by && (v.slide_reach(by, kind_of(p), s, dir) >> (i - line.begin) & 1) &&
             v.may_capture(kind_of(p), victim_kind) && hook_permits<Hooks>(pos, kind_of(p), s, target) &&
             visit(s, kind_of(p));
    };
    if (!(hops >> dir & 1)) {
      // No hopper of `by` uses this line: only the first piece matters.
      for (std::uint32_t i = line.begin; i < line.end; ++i)
        if (const Piece p = at(v.line_point(i))) {
          if (slides_here(i, p)) return true;
          break;
        }
      continue;
    }
    std::uint32_t i = line.begin;
    while (i < line.end && !at(v.line_point(i))) ++i;
    if (i == line.end) continue;
    const Piece screen = at(v.line_point(i));
    if (slides_here(i, screen)) return true;
    const int screen_at = int(i - line.begin) + 1;  // the screen's distance from the target, in points
    for (++i; i < line.end && !at(v.line_point(i));) ++i;
    if (i == line.end) continue;
    const Point s = v.line_point(i);
    const Piece p = at(s);
    const Kind kind = kind_of(p);
    const int after_screen = v.hop_after_screen(by, kind, s, dir);
    if (side_of(p) == by && (v.hop_reach(by, kind, s, dir) >> (i - line.begin) & 1) && v.may_jump(kind, kind_of(screen)) &&
        (!after_screen || screen_at <= after_screen) && v.may_capture(kind, victim_kind) &&
        hook_permits<Hooks>(pos, kind, s, target) && visit(s, kind))
      return true;
  }
  return false;
}

template <bool Hooks, typename Board>
bool attacked_by(const Position& pos, Point target, Side by, Kind victim_kind, const Board& at) {
  if (visit_attackers<Hooks>(pos, target, by, victim_kind, at, [](Point, Kind) { return true; })) return true;
  if constexpr (Hooks)
    if (pos.variant().any_adds_moves()) return attacked_by_added_move(pos, target, by, victim_kind);
  return false;
}
}  // namespace

// Out of line, so that both walks inline into it and its many callers stay small.
[[gnu::noinline]] bool attacked(const Position& pos, Point target, Side by, Kind victim_kind) {
  if (const Bitboards* b = pos.variant().bitboards()) return bitboard_attacked(pos, *b, target, by, victim_kind);
  if (const WideBitboards* w = pos.variant().wide_bitboards()) return bitboard_attacked(pos, *w, target, by, victim_kind);
  const BoardAsIs at{pos};
  return pos.move_hooks() ? attacked_by<true>(pos, target, by, victim_kind, at) : attacked_by<false>(pos, target, by, victim_kind, at);
}

Attacker cheapest_attacker(const Position& pos, Point target, Side by, Kind victim_kind, const Emptied& gone,
                           const int* worth) {
  if (const Bitboards* b = pos.variant().bitboards())
    return bitboard_cheapest_attacker(pos, *b, target, by, victim_kind, Bitboard(gone.bits), worth);
  if (const WideBitboards* w = pos.variant().wide_bitboards())
    return bitboard_cheapest_attacker(pos, *w, target, by, victim_kind, gone.bits, worth);
  Attacker best;
  visit_attackers<false>(pos, target, by, victim_kind, BoardEmptied{pos, gone.points}, [&](Point from, Kind kind) {
    if (best.from == NoPoint || worth[kind] < worth[best.kind]) best = {from, kind};
    return false;
  });
  return best;
}

namespace {

// Where captures explode, `side`'s royal cannot be taken on `s` next to the other side's royal.
bool blast_shields(const Position& pos, Point s, Side side) {
  const Point theirs = pos.royal(opponent(side));
  return pos.variant().explosive() && theirs != NoPoint && pos.variant().adjacent(s, theirs);
}

// attacked() with the points of `gone` empty.
bool attacked_past(const Position& pos, Point target, Side by, Kind victim_kind, const Emptied& gone) {
  if (const Bitboards* b = pos.variant().bitboards()) return bitboard_attacked_past(pos, *b, target, by, victim_kind, Bitboard(gone.bits));
  if (const WideBitboards* w = pos.variant().wide_bitboards())
    return bitboard_attacked_past(pos, *w, target, by, victim_kind, gone.bits);
  const BoardEmptied at{pos, gone.points};
  return pos.move_hooks() ? attacked_by<true>(pos, target, by, victim_kind, at) : attacked_by<false>(pos, target, by, victim_kind, at);
}

}  // namespace

bool safe_point_attacked(const Position& pos, const CompoundMove& c, Point s) {
  if (pos.variant().royal(c.kind) && blast_shields(pos, s, c.side)) return false;
  const Point lifted = lifted_on(c, s);
  if (lifted == NoPoint) return attacked(pos, s, opponent(c.side), c.kind);
  Emptied gone;
  gone.add(lifted);
  return attacked_past(pos, s, opponent(c.side), c.kind, gone);
}

bool royal_attacked(const Position& pos, Side side) {
  const Point royal = pos.royal(side);
  if (royal == NoPoint || blast_shields(pos, royal, side)) return false;
  return attacked(pos, royal, opponent(side), kind_of(pos.at(royal)));
}

bool in_check(const Position& pos) { return royal_attacked(pos, pos.side_to_move()); }

void generate_pseudo_legal(const Position& pos, MoveList& list, bool captures_only, const KnownDestinations& known) {
  const Side us = pos.side_to_move();
  if (const Bitboards* b = pos.variant().bitboards()) generate_bitboard_moves(pos, *b, list, captures_only, known.one);
  else if (const WideBitboards* w = pos.variant().wide_bitboards()) generate_bitboard_moves(pos, *w, list, captures_only, known.two);
  else if (captures_only)
    for (int i = 0; i < pos.piece_count(us); ++i) generate_piece_moves<true>(pos, list, pos.piece_square(us, i));
  else
    for (int i = 0; i < pos.piece_count(us); ++i) generate_piece_moves<false>(pos, list, pos.piece_square(us, i));
  if (!pos.variant().compound_moves().empty()) generate_compound_moves(pos, list);
  if (pos.variant().any_adds_moves()) [[unlikely]]
    generate_added_moves(pos, list);
}

bool leaves_royal_safe(Position& pos, Move m) {
  const Variant& v = pos.variant();
  const Side us = pos.side_to_move();
  const FacingRule facing = v.move_rules().facing_royals;
  // Royals may never face (forbidden), or a standoff must be broken by the side to move.
  const bool must_not_face = facing == FacingRule::Forbidden || (facing == FacingRule::Standoff && pos.state().royals_facing);
  // Where the royals may come to face, a plain royal move is safe where nothing reaches its landing.
  if (m.type() == MoveType::Normal && m.promotion_kind() < 0 && !v.explosive() && !must_not_face &&
      pos.royal(us) == m.from()) {
    if (const Bitboards* b = v.bitboards()) return bitboard_royal_move_safe(pos, *b, m);
    if (const WideBitboards* w = v.wide_bitboards()) return bitboard_royal_move_safe(pos, *w, m);
  }
  if (pos.board_trials() && m.type() != MoveType::Compound && !m.is_pass()) {
    const BoardTrial trial(pos, m);
    return (pos.royal(us) == NoPoint || !royal_attacked(pos, us)) && !(must_not_face && pos.royals_facing());
  }
  const bool had_royal = pos.royal(us) != NoPoint;
  pos.do_move(m);
  const Point royal = pos.royal(us);
  bool safe = royal == NoPoint || !royal_attacked(pos, us);
  if (pos.variant().explosive()) {
    // A move may not blow up its own royal; one that blows up the other's has won, check or not.
    if (royal == NoPoint) safe = !had_royal;
    else if (pos.royal(opponent(us)) == NoPoint) safe = true;
  }
  if (must_not_face && pos.state().royals_facing) safe = false;
  pos.undo_move();
  return safe;
}

bool ended_before_moves(const Position& pos) {
  Judging judging;
  return judge_ends<Stage::BeforeMoves>(pos, judging);
}

namespace {

// The royals face each other where facing starts a standoff the side to move must break.
bool in_standoff(const Position& pos) {
  return pos.variant().move_rules().facing_royals == FacingRule::Standoff && pos.state().royals_facing;
}

// Whether the quick test may pass a plain move that touches no exposed point. Without a royal
// nothing can be pinned or checked: every move the pieces allow is legal. Where hooks add moves or
// change the board, which points a move exposes is theirs to say.
bool fast_path(const Position& pos, bool checked) {
  const Variant& v = pos.variant();
  return !checked && !in_standoff(pos) && pos.royal(pos.side_to_move()) != NoPoint && !v.any_adds_moves() &&
         !v.any_edits_after_move();
}

// A pass is a piece standing still, so a side with no piece left cannot pass (as in the reference
// engine, which plays on after a royal is taken in a standoff).
bool may_pass(const Position& pos, bool checked) {
  return pos.variant().move_rules().pass == PassRule::UnlessInCheck && pos.piece_count(pos.side_to_move()) > 0 &&
         (!checked || in_standoff(pos));
}

// Whether `keep` keeps the pseudo-legal move `m`.
bool kept(const Position& pos, Move m, Keep keep) {
  return keep == Keep::All || m.type() == MoveType::CaptureGhost || (m.type() != MoveType::Compound && pos.at(m.to())) ||
         m.promotion_kind() >= 0;
}

// The points where a move must be tried on the board, as `legal` says: those it exposes, and the
// royal pieces'.
template <typename B>
B trial_points(const Position& pos, const BasicBitboards<B>& b, const LegalityTest& legal) {
  B tried = 0;
  const PointSet& exposed = legal.exposed_points();
  for (std::size_t s = exposed._Find_first(); s < exposed.size(); s = exposed._Find_next(s)) tried |= bit<B>(Point(s));
  for (std::uint32_t kinds = b.royal_kinds(); kinds; kinds &= kinds - 1)
    tried |= pos.pieces<B>(make_piece(pos.side_to_move(), Kind(std::countr_zero(kinds))));
  return tried;
}

// generate_pseudo_legal for `legal` to test; on perft's last ply (`counted` given), where the
// variant has bitboards and `legal` lets moves skip their trial, those that need none are added to
// `counted` instead of listed (the fast path has no hook that adds moves).
void generate_to_test(const Position& pos, const LegalityTest& legal, MoveList& list, std::uint64_t* counted) {
  const Variant& v = pos.variant();
  if (!counted || !legal.skips_trials() || !(v.bitboards() || v.wide_bitboards())) return generate_pseudo_legal(pos, list);
  const auto count = [&](const auto& b) { count_bitboard_moves(pos, b, list, trial_points(pos, b, legal), *counted); };
  if (v.bitboards()) count(*v.bitboards());
  else count(*v.wide_bitboards());
  if (!v.compound_moves().empty()) generate_compound_moves(pos, list);
}

// legal_board_moves from the bitboard back end's checks and pins (Bitboards::legal_by_pins).
template <typename B>
bool legal_from_pins(Position& pos, const BasicBitboards<B>& b, MoveList& list, Keep keep, bool& checked,
                     std::uint64_t* counted) {
  const std::uint64_t counted_before = counted ? *counted : 0;
  checked = generate_bitboard_legal(pos, b, list, counted);
  const bool any_legal = list.size > 0 || (counted && *counted > counted_before);
  if (keep != Keep::All) {
    int count = 0;
    for (const Move m : list)
      if (kept(pos, m, keep)) list.moves[count++] = m;
    list.size = count;
  }
  return any_legal;
}

// The legal moves of the pieces on the board into `list`, as `keep` keeps them; returns whether any
// is legal, kept or not. Sets `checked`. Where `counted` is given (Keep::All only), the bitboard
// back end may add moves to it instead of listing them.
bool legal_board_moves(Position& pos, MoveList& list, Keep keep, bool& checked, std::uint64_t* counted) {
  if (const Bitboards* b = pos.variant().bitboards(); b && b->legal_by_pins())
    return legal_from_pins(pos, *b, list, keep, checked, counted);
  if (const WideBitboards* w = pos.variant().wide_bitboards(); w && w->legal_by_pins())
    return legal_from_pins(pos, *w, list, keep, checked, counted);
  checked = in_check(pos);
  const LegalityTest legal(pos, checked);
  const std::uint64_t counted_before = counted ? *counted : 0;
  generate_to_test(pos, legal, list, counted);
  bool any_legal = counted && *counted > counted_before;
  int count = 0;
  Point from = NoPoint;
  std::uint8_t verdict = 0;
  for (int i = 0; i < list.size; ++i) {
    const Move m = list.moves[i];
    if (m.from() != from) {
      from = m.from();
      verdict = legal.piece_verdict(from);
    }
    // A move left out is tested only until one is found legal.
    if (!kept(pos, m, keep)) {
      any_legal = any_legal || legal.board_move_legal(m, verdict);
      continue;
    }
    if (legal.board_move_legal(m, verdict)) list.moves[count++] = m;
  }
  list.size = count;
  return any_legal || count > 0;
}

// generate_legal; where `counted` is given, moves may be added to it instead of listed.
bool legal_moves(Position& pos, MoveList& list, Keep keep, std::uint64_t* counted) {
  list.size = 0;
  if (ended_before_moves(pos)) return false;
  const Variant& v = pos.variant();
  bool checked = false;
  bool any_legal = legal_board_moves(pos, list, keep, checked, counted);
  const int count = list.size;
  const bool pass = may_pass(pos, checked);
  any_legal = any_legal || pass;
  if (v.has_hands() && (keep == Keep::All || !(any_legal || count > 0)))
    any_legal = add_legal_drops(pos, keep == Keep::All ? &list : nullptr, checked, counted) || any_legal;
  if (v.move_rules().captures_compulsory) keep_only_captures(pos, list);
  if (pass && keep == Keep::All) list.add(Move::pass());
  return any_legal || count > 0;
}

}  // namespace

LegalityTest::LegalityTest(Position& pos, bool checked)
    : pos_(pos),
      royal_(pos.royal(pos.side_to_move())),
      explosive_(pos.variant().explosive()),
      fast_path_ok_(fast_path(pos, checked)),
      exposed_(fast_path_ok_ ? exposure_of(pos, royal_, opponent(pos.side_to_move())) : PointSet()) {}

CheckFilter::CheckFilter(const Position& pos, bool after_legal_move)
    : pos_(pos), us_(pos.side_to_move()), royal_(pos.royal(opponent(us_))), one_(pos.variant().bitboards()),
      two_(pos.variant().wide_bitboards()) {
  if (!pos.board_trials() || (!one_ && !two_)) return;
  const Side them = opponent(us_);
  // A move cannot give a side a royal it lacks, and a royal checked already may stay so.
  if (royal_ == NoPoint) rule_ = Rule::None;
  else if (after_legal_move || !royal_attacked(pos, them)) {
    assert(!royal_attacked(pos, them));
    rule_ = Rule::Lines;
    lines_ = one_ ? WideBitboard(bitboard_attack_lines(pos, *one_, royal_, us_)) : bitboard_attack_lines(pos, *two_, royal_, us_);
  }
}

bool LegalityTest::hook_allows(Kind kind, Move m) const { return palace::hook_allows(pos_, kind, m); }

bool generate_to_try(Position& pos, MoveList& list, Keep keep, bool checked, const KnownDestinations& known) {
  const Variant& v = pos.variant();
  // Whether a quiet move may be made depends on every capture's legality.
  if (v.move_rules().captures_compulsory) {
    generate_legal(pos, list, keep);
    return false;
  }
  list.size = 0;
  if (ended_before_moves(pos)) return false;
  generate_pseudo_legal(pos, list, keep == Keep::Captures, known);
  if (keep == Keep::Captures) {
    int count = 0;
    for (const Move m : list)
      if (kept(pos, m, keep)) list.moves[count++] = m;
    list.size = count;
    return true;
  }
  if (v.has_hands()) add_legal_drops(pos, &list, checked, nullptr);
  if (may_pass(pos, checked)) list.add(Move::pass());
  return true;
}

namespace {

bool guarded_legal_moves(Position& pos, MoveList& list, Keep keep, std::uint64_t* counted) {
  if (!pos.move_hooks()) return legal_moves(pos, list, keep, counted);
  // A runtime hook may fail while a move is tried on the board: take that move back.
  const int plies = pos.plies_recorded();
  try {
    return legal_moves(pos, list, keep, counted);
  } catch (...) {
    while (pos.plies_recorded() > plies) pos.undo_move();
    throw;
  }
}

// The number of legal moves, found as generate_legal lists them but, where the bitboard back end
// can, counted a piece at a time rather than listed: perft's last ply. Where captures are
// compulsory, which moves count depends on the whole list.
std::uint64_t count_legal(Position& pos) {
  MoveList list;
  std::uint64_t counted = 0;
  guarded_legal_moves(pos, list, Keep::All, pos.variant().move_rules().captures_compulsory ? nullptr : &counted);
  return counted + std::uint64_t(list.size);
}

}  // namespace

bool generate_legal(Position& pos, MoveList& list, Keep keep) { return guarded_legal_moves(pos, list, keep, nullptr); }

void set_played_fen(Position& pos, const std::string& fen, FenRights rights) {
  Position next(pos);
  next.set_fen(fen, rights);
  const Side mover = opponent(next.side_to_move());
  // A game a rule has ended (a royal blown up) may leave the winner attacked.
  if (!next.royal_may_be_taken() && !ended_before_moves(next) && royal_attacked(next, mover))
    throw FenError("FEN: " + next.variant().side_name(mover) + " is in check, but it is " +
                   next.variant().side_name(next.side_to_move()) + "'s turn");
  pos = std::move(next);
}

std::uint64_t perft(Position& pos, int depth, const std::atomic<bool>* stop) {
  if (depth <= 0) return 1;
  if (stop != nullptr && stop->load(std::memory_order_relaxed)) return 0;
  if (depth == 1) return count_legal(pos);
  MoveList list;
  generate_legal(pos, list);
  std::uint64_t nodes = 0;
  for (const Move m : list) {
    pos.do_move(m);
    nodes += perft(pos, depth - 1, stop);
    pos.undo_move();
  }
  return nodes;
}

}  // namespace palace
