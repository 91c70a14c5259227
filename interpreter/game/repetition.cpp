#include "game/repetition.h"

#include <algorithm>
#include <optional>
#include <sstream>
#include <vector>

#include "core/point_set.h"
#include "movegen/movegen.h"

namespace palace {

namespace {

// The last `plies` moves, oldest first, unwinding `scratch` to the position before them.
std::vector<Move> last_moves(Position& scratch, int plies) {
  std::vector<Move> moves(static_cast<std::size_t>(plies));
  for (int i = plies - 1; i >= 0; --i) {
    moves[std::size_t(i)] = scratch.state().move;
    scratch.undo_move();
  }
  return moves;
}

// `pos` with the other side to move and nothing else changed, for asking what the side that just
// moved threatens. Only the FEN's side field changes; an en passant point belongs to the side to
// move, so it goes.
Position turned(const Position& pos) {
  std::istringstream fields(pos.fen());
  std::vector<std::string> words;
  for (std::string w; fields >> w;) words.push_back(w);
  words[1].assign(1, words[1] == "w" ? 'b' : 'w');
  if (words.size() > 3) words[3].assign(1, '-');
  std::string fen = words[0];
  for (std::size_t i = 1; i < words.size(); ++i) fen.append(1, ' ').append(words[i]);
  Position out(pos.variant_ptr());
  // A fresh position's hooks ask nothing: these must stop when the original's are asked to.
  if (out.move_hooks() && pos.move_hooks()) out.move_hooks()->set_interrupt(pos.move_hooks()->interrupt());
  out.set_fen(fen);
  return out;
}

// A capture the side to move of a position could make whose pair of kinds the chase rule weighs,
// and whether it counts there: its victim would be lost for nothing (no legal recapture, where the
// rule asks for that). `undermined`: some enemy piece attacks the point but could not legally
// recapture (pinned, or the capture leaves its king in check), the protection the rule sees through.
struct Threat {
  Point from, to;
  bool counts;
  bool undermined;
};

// Whether the side to move of `pos` may legally capture on `target`; with `from` given, only from
// there.
bool may_capture_on(Position& pos, Point target, Point from = NoPoint) {
  MoveList captures;
  generate_legal(pos, captures, Keep::Captures);
  return std::any_of(captures.begin(), captures.end(), [&](Move m) {
    return !m.is_pass() && m.to() == target && (from == NoPoint || m.from() == from);
  });
}

// Whether the piece on `victim` stands where the rule lets it be chased (`chase_zones`).
bool chaseable_there(const Position& pos, Point victim) {
  const auto& zones = pos.variant().ends().get<Repetition>().chase_zones;
  const Piece p = pos.at(victim);
  if (zones.empty() || zones[std::size_t(kind_of(p))] < 0) return true;
  return pos.variant().rules().sides[side_of(p)].zones[std::size_t(zones[std::size_t(kind_of(p))])][victim];
}

// The captures the side to move of `pos` threatens that the chase table weighs. `reply` is `pos`
// with the other side to move, built when a `chase_unless_mutual` pair needs it.
std::vector<Threat> threats(Position& pos) {
  const auto& chases = pos.variant().ends().get<Repetition>().chases;
  std::vector<Threat> out;
  std::optional<Position> reply;
  MoveList captures;
  generate_legal(pos, captures, Keep::Captures);
  for (const Move m : captures) {
    const Piece victim = pos.at(m.to());
    if (m.is_pass() || !victim || !chaseable_there(pos, m.to())) continue;
    const Kind attacker = kind_of(pos.at(m.from()));
    const Chase how = chases[std::size_t(attacker)][std::size_t(kind_of(victim))];
    if (how == Chase::Never) continue;
    Threat t{m.from(), m.to(), true, false};
    if (how != Chase::Always) {
      pos.do_move(m);
      t.counts = !may_capture_on(pos, m.to());
      t.undermined = t.counts && attacked(pos, m.to(), pos.side_to_move(), attacker);
      pos.undo_move();
    }
    if (t.counts && how == Chase::UnlessMutual) {
      if (!reply) reply.emplace(turned(pos));
      t.counts = !may_capture_on(*reply, m.from(), m.to());
    }
    out.push_back(t);
  }
  return out;
}

// The enemy pieces the move `m` newly chases: `after` is what its side threatens after it, `before`
// what it threatened before it. A threat is new when its attack is (the piece could not capture the
// victim before, from where it stood: the moved piece's attack, or one the move uncovered) or when
// it counts now only because the victim's protector can no longer legally capture back (the move
// pinned it, or the capture would now give a check the recapture does not answer). A protector that
// merely stopped reaching the point (its line blocked) makes no chase: the attack stood before, and
// the AXF rules judge what the chasing move attacks.
PointSet newly_chased(const std::vector<Threat>& before, const std::vector<Threat>& after, Move m) {
  PointSet victims;
  for (const Threat& t : after) {
    if (!t.counts) continue;
    const Point was = !m.is_pass() && t.from == m.to() ? m.from() : t.from;
    const auto old = std::find_if(before.begin(), before.end(), [&](const Threat& b) { return b.from == was && b.to == t.to; });
    if (old == before.end() || (!old->counts && t.undermined)) victims.set(t.to);
  }
  return victims;
}

// The hash of the position `back` plies ago without the point a leap skipped: positions whose
// hashes differ here are different, whatever the leap's point makes of them.
std::uint64_t ghostless_key(const Position& pos, int back) {
  const StateRecord& st = pos.state_back(back);
  return st.ghost == NoPoint ? st.hash : st.hash ^ pos.variant().ghost_key(st.ghost);
}

// The hash of the position `back` plies ago as repetitions compare it: positions are the same when
// the same moves are possible in them (FIDE 9.2.3.1), so a point a leap skipped counts only where
// a capture on it is legal. The FEN keeps the point either way. Finding that out replays the game,
// so it is asked only of positions whose ghostless keys already match.
std::uint64_t repetition_key(const Position& pos, int back) {
  const StateRecord& st = pos.state_back(back);
  if (st.ghost == NoPoint) return st.hash;
  Position then(pos);
  for (int i = 0; i < back; ++i) then.undo_move();
  MoveList captures;
  generate_legal(then, captures, Keep::Captures);
  for (const Move m : captures)
    if (m.type() == MoveType::CaptureGhost) return st.hash;
  return st.hash ^ pos.variant().ghost_key(st.ghost);
}

}  // namespace

int repetition_span(const Position& pos, int count) {
  // A capture or a reset move cannot be undone, so positions before one are never equal to this
  // one and the search stops there.
  const int window = std::min<int>(pos.state().quiet_plies, pos.plies_recorded());
  if (window < 2) return 0;
  const std::uint64_t ghostless = ghostless_key(pos, 0);
  std::optional<std::uint64_t> key;
  int seen = 1;
  for (int back = 2; back <= window; back += 2) {
    if (ghostless_key(pos, back) != ghostless) continue;
    if (!key) key = repetition_key(pos, 0);
    if (repetition_key(pos, back) == *key && ++seen == count) return back;
  }
  return 0;
}

int perpetual_checker(const Position& pos, int span) {
  // The side to move in each earlier position shows whether the move that led to it gave check.
  Position scratch(pos);
  bool every_move_checked[SideCount] = {true, true};
  for (int ply = 0; ply < span; ++ply) {
    const Side mover = opponent(scratch.side_to_move());
    if (!in_check(scratch)) every_move_checked[mover] = false;
    scratch.undo_move();
  }
  if (every_move_checked[0] == every_move_checked[1]) return NoSide;
  return every_move_checked[0] ? 0 : 1;
}

Chaser perpetual_chaser(const Position& pos, int span) {
  Position scratch(pos);
  const std::vector<Move> moves = last_moves(scratch, span);
  // Per side, the enemy pieces chased by every one of its moves so far, followed as they move.
  PointSet chasing[SideCount];
  bool moved[SideCount] = {false, false};
  for (const Move m : moves) {
    const Side mover = scratch.side_to_move();
    const std::vector<Threat> before = threats(scratch);
    scratch.do_move(m);
    PointSet& hunted = chasing[opponent(mover)];
    if (!m.is_pass() && hunted[m.from()]) {
      hunted.reset(m.from());
      hunted.set(m.to());
    }
    Position threat = turned(scratch);
    const PointSet fresh = newly_chased(before, threats(threat), m);
    chasing[mover] = moved[mover] ? chasing[mover] & fresh : fresh;
    moved[mover] = true;
  }
  const bool chaser[SideCount] = {chasing[0].any(), chasing[1].any()};
  if (chaser[0] == chaser[1]) return {};
  const Side side = chaser[0] ? First : Second;
  Point victim = Point(0);
  while (!chasing[side][victim]) ++victim;
  return {side, victim};
}

bool moved_back_and_forth(const Position& pos, int moves) {
  const int plies = 2 * (moves - 1) + 1;  // the side's moves and the replies between them
  if (pos.plies_recorded() < plies) return false;
  for (int i = 0; i + 1 < moves; ++i) {
    const Move later = pos.state_back(2 * i).move, earlier = pos.state_back(2 * i + 2).move;
    if (later.is_pass() || earlier.is_pass() || later.from() != earlier.to() || later.to() != earlier.from()) return false;
  }
  for (int i = 0; i < moves; ++i)
    if (pos.state_back(2 * i).captured) return false;
  // A piece may shuttle to answer checks: the position before each of the side's moves.
  Position scratch(pos);
  for (int ply = 0; ply < plies; ++ply) {
    scratch.undo_move();
    if (ply % 2 == 0 && in_check(scratch)) return false;
  }
  return true;
}

namespace {

// Whether a piece of `kind` of `side` may stand somewhere the other side's royal piece may.
bool may_enter_royal_area(const RuleSet& rules, Side side, Kind kind) {
  const int own = rules.pieces[std::size_t(kind)].stay_in;
  for (std::size_t k = 0; k < rules.pieces.size(); ++k) {
    if (!rules.pieces[k].royal) continue;
    const int theirs = rules.pieces[k].stay_in;
    if (own < 0 || theirs < 0) return true;
    return (rules.sides[side].zones[std::size_t(own)] & rules.sides[opponent(side)].zones[std::size_t(theirs)]).any();
  }
  return true;
}

bool reverses(Move later, Move earlier) {
  return !later.is_pass() && !earlier.is_pass() && later.type() == MoveType::Normal && earlier.type() == MoveType::Normal &&
         later.from() == earlier.to() && later.to() == earlier.from();
}

}  // namespace

bool shuttled_after_arriving(const Position& pos, int moves) {
  // Plies are counted back from the last move, M1 = state_back(0); the mover made the odd ones.
  const int recorded = pos.plies_recorded();
  int quiet = 0;  // plies back to the last capture
  while (quiet < recorded && !pos.state_back(quiet).captured) ++quiet;
  if (quiet < 4) return false;
  auto move = [&](int m) { return m <= recorded ? pos.state_back(m - 1).move : Move(); };
  const Move last = move(1);
  if (last.is_pass() || last.type() != MoveType::Normal) return false;
  const Side mover = opponent(pos.side_to_move());
  if (!may_enter_royal_area(pos.variant().rules(), mover, kind_of(pos.at(last.to())))) return false;
  int count = reverses(move(3), last) ? 2 : move(3).is_pass() ? 1 : 0;
  if (count == 0) return false;
  // The mover in check before its move M(m): the position m plies back.
  Position scratch(pos);
  int undone = 0;
  auto checked_before = [&](int m) {
    for (; undone < m; ++undone) scratch.undo_move();
    return in_check(scratch);
  };
  if (checked_before(1) || checked_before(3)) return false;
  for (int i = 4; i <= quiet; i += 2) {
    if (i + 1 <= quiet && checked_before(i + 1)) return false;
    if (count < moves) {
      if (!reverses(move(i + 1), count == 1 ? last : move(i - 1))) return false;
      ++count;
    } else {
      const Move arrival = move(i + 1);
      return i + 1 <= recorded && !pos.state_back(i).captured && !arrival.is_pass() && arrival.to() == move(i - 1).from();
    }
  }
  return false;
}

}  // namespace palace
