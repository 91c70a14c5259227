#include "game/explain.h"

#include <algorithm>
#include <optional>
#include <vector>

#include "compiler/routes.h"
#include "core/text.h"
#include "game/evaluator.h"
#include "movegen/movegen.h"

namespace palace {

namespace {

std::string plural(const std::string& noun) {
  const bool sibilant = !noun.empty() && (noun.back() == 's' || noun.back() == 'x' || noun.back() == 'z' ||
                                          noun.ends_with("ch") || noun.ends_with("sh"));
  return noun + (sibilant ? "es" : "s");
}

// YAML keys use underscores and dashes where a sentence has spaces.
std::string spoken(std::string key) {
  std::replace(key.begin(), key.end(), '_', ' ');
  std::replace(key.begin(), key.end(), '-', ' ');
  return key;
}

// What one request is about: the board, the piece on `from` and the point it wants to reach.
struct Request {
  Position& pos;
  const Variant& v;
  Side us;
  Point from, to;
  Kind kind;
  const PieceDef& def;

  std::string square(Point s) const { return v.board().point_name(s); }
  std::string kind_name(Kind k) const { return v.kind_name(k); }
  std::string piece_on(Point s) const { return kind_name(kind_of(pos.at(s))); }
  std::string zone(int z) const { return spoken(v.rules().zone_names[z]); }
  bool in_zone(int z, Point s) const { return v.rules().sides[us].zones[z][s]; }
};

std::string zone_reason(const Request& r, const MovePart& part) {
  if (part.from_zone >= 0 && !r.in_zone(part.from_zone, r.from))
    return "the " + r.def.name + " can make that move only from within its " + r.zone(part.from_zone) + " zone";
  if (r.def.stay_in >= 0 && !r.in_zone(r.def.stay_in, r.to)) return "the " + r.def.name + " must stay in its " + r.zone(r.def.stay_in);
  if (part.to_zone >= 0 && !r.in_zone(part.to_zone, r.to))
    return "the " + r.def.name + " can make that move only into its " + r.zone(part.to_zone) + " zone";
  return "";
}

std::string path_reason(const Request& r, const Route& route) {
  if (route.part->kind != PartKind::Hop) {
    for (const Point s : route.between)
      if (r.pos.at(s)) return r.def.name + " on " + r.square(r.from) + " is blocked at " + r.square(s);
    return "";
  }
  std::vector<Point> screens;
  for (const Point s : route.between)
    if (r.pos.at(s)) screens.push_back(s);
  if (screens.size() != 1) return "the " + r.def.name + " on " + r.square(r.from) + " needs exactly one piece to jump over";
  if (!r.v.may_jump(r.kind, kind_of(r.pos.at(screens[0]))))
    return with_article(r.def.name) + " cannot jump over " + with_article(r.piece_on(screens[0]));
  const int past_screen = int(route.between.end() - std::find(route.between.begin(), route.between.end(), screens[0]));
  if (const int most = route.part->after_screen; most && past_screen > most)
    return "the " + r.def.name + " lands at most " + std::to_string(most) + " point" + (most == 1 ? "" : "s") +
           " past the piece it jumps over";
  return "";
}

std::string destination_reason(const Request& r, const MovePart& part) {
  const Piece occupant = r.pos.at(r.to);
  if (occupant && side_of(occupant) == r.us) return "your own " + r.piece_on(r.to) + " stands on " + r.square(r.to);
  if (occupant) {
    if (!(part.mode & CanCapture)) return "the " + r.def.name + " on " + r.square(r.from) + " cannot capture on " + r.square(r.to);
    if (!r.v.may_capture(r.kind, kind_of(occupant))) return with_article(r.def.name) + " cannot capture " + with_article(r.piece_on(r.to));
    return "";
  }
  if (part.mode & CanMove) return "";
  const StateRecord& st = r.pos.state();
  if (part.takes_ghost && r.pos.is_ghost(r.to) && r.v.may_capture(r.kind, kind_of(r.pos.at(st.ghost_victim)))) return "";
  return "the " + r.def.name + " on " + r.square(r.from) + " can go to " + r.square(r.to) + " only by capturing";
}

std::string movement_reason(const Request& r) {
  const std::vector<Route> reaching = routes_between(r.v, r.us, r.kind, r.from, r.to);
  if (reaching.empty())
    return with_article(r.def.name) + " cannot move from " + r.square(r.from) + " to " + r.square(r.to);
  // Each route is checked in the order a move is: zones, then the path, then the destination. The
  // route that got furthest says the most: a piece that slides to move and hops to capture, asked
  // to land beyond a screen on an empty point, is "blocked" as a slide but, truly, may go there
  // "only by capturing".
  std::string best;
  int best_stage = -1;
  for (const Route& route : reaching) {
    const std::string checks[] = {zone_reason(r, *route.part), path_reason(r, route), destination_reason(r, *route.part)};
    const auto failed = std::find_if(std::begin(checks), std::end(checks), [](const std::string& s) { return !s.empty(); });
    // A route with nothing against it while movegen still refused: say so rather than guess.
    if (failed == std::end(checks)) return UnexplainedRefusal;
    const int stage = int(failed - std::begin(checks));
    if (stage > best_stage) {
      best_stage = stage;
      best = *failed;
    }
  }
  return best;
}

// Why a compound move (one that carries a partner along) starting and ending here is refused,
// or nullopt when the request is not one.
std::optional<std::string> compound_reason(const Request& r) {
  const auto& compounds = r.v.compound_moves();
  for (std::size_t i = 0; i < compounds.size(); ++i) {
    const CompoundMove& c = compounds[i];
    if (c.side != r.us || c.from != r.from || c.written_to != r.to || c.kind != r.kind) continue;
    // Written as taking the partner, it is a castling only where the partner stands.
    if (c.written_to == c.partner_from && r.pos.at(c.partner_from) != make_piece(r.us, c.partner)) continue;
    const std::string name = spoken(r.v.rules().compound_moves[i].name);
    if (!(r.pos.state().rights & (1u << c.right)))
      return name + " is no longer allowed: the " + r.kind_name(c.kind) + " or the " + r.kind_name(c.partner) +
             " has moved or been captured";
    for (const Point s : c.must_be_empty)
      if (r.pos.at(s)) return name + " needs " + r.square(s) + " to be empty";
    for (const Point s : c.must_be_safe)
      if (safe_point_attacked(r.pos, c, s)) return name + " is not allowed while " + r.square(s) + " is attacked";
  }
  return std::nullopt;
}

// The first enemy piece that could take the royal on `royal`, as the enemy's own moves show it.
Point attacker_of(const Position& pos, Point royal) {
  MoveList replies;
  generate_pseudo_legal(pos, replies);
  for (const Move m : replies)
    if (!m.is_pass() && m.to() == royal) return m.from();
  return NoPoint;
}

// A move the pieces allow, refused for what it does to the mover's royal.
std::string safety_reason(const Request& r, Move m) {
  const FacingRule facing = r.v.move_rules().facing_royals;
  const bool facing_before = r.pos.state().royals_facing;
  const Point royal_before = r.pos.royal(r.us);
  const std::string royal_before_name = royal_before != NoPoint ? r.piece_on(royal_before) : "";
  r.pos.do_move(m);
  std::string reason;
  const Point royal = r.pos.royal(r.us);
  if (royal == NoPoint && royal_before != NoPoint) reason = "the explosion would destroy your " + royal_before_name;
  if (royal != NoPoint) {
    const std::string royal_name = r.piece_on(royal);
    if (royal_attacked(r.pos, r.us)) {
      const Point by = attacker_of(r.pos, royal);
      reason = "that leaves your " + royal_name + " in check";
      if (by != NoPoint) reason += " from the " + r.piece_on(by) + " on " + r.square(by);
    } else if (r.pos.state().royals_facing && facing == FacingRule::Forbidden) {
      reason = "the " + plural(royal_name) + " would face each other on an open file";
    } else if (r.pos.state().royals_facing && facing == FacingRule::Standoff && facing_before) {
      reason = "the " + plural(royal_name) + " face each other: break the standoff or pass";
    }
  }
  r.pos.undo_move();
  return reason.empty() ? UnexplainedRefusal : reason;
}

std::string lost_only_reason(const Request& r) {
  return with_article(r.def.name) + " promotes only to a piece its side has lost";
}

std::string promotion_reason(const Request& r, const MoveList& legal, Kind promotion_kind) {
  std::vector<Kind> offered;
  for (const Move m : legal)
    if (!m.is_pass() && m.from() == r.from && m.to() == r.to) offered.push_back(m.promotion_kind());
  const bool may_stay = std::find(offered.begin(), offered.end(), NoKind) != offered.end();
  if (promotion_kind < 0) {
    std::string letters;
    for (const Kind k : offered)
      if (k >= 0) letters += (letters.empty() ? "" : ", ") + r.v.promotion_suffix(k);
    return with_article(r.def.name) + " must promote on " + r.square(r.to) + ": add one of " + letters;
  }
  if (may_stay && offered.size() == 1 && !r.def.promotion_to_lost_only)
    return with_article(r.def.name) + " does not promote on " + r.square(r.to);
  if (promotion_kind >= r.v.kinds()) return "there is no such piece to promote to";
  const auto& kinds = r.def.promotion_kinds;
  if (r.def.promotion_to_lost_only && std::find(kinds.begin(), kinds.end(), promotion_kind) != kinds.end())
    return lost_only_reason(r) + ", and no " + r.kind_name(promotion_kind) + " of " + capitalised(r.v.side_name(r.us)) +
           "'s has been captured";
  return with_article(r.def.name) + " cannot promote to " + with_article(r.kind_name(promotion_kind));
}

}  // namespace

std::string with_article(const std::string& noun) {
  const bool vowel = !noun.empty() && std::string("aeiouAEIOU").find(noun[0]) != std::string::npos;
  return (vowel ? "an " : "a ") + noun;
}

// Why a move movegen allows is refused by a rule about the game's history, or "" when it is not.
std::string history_reason(Position& pos, Move m) {
  const Verdict verdict = judge_move(pos, m);
  if (!verdict.refused) return "";
  const Variant& v = pos.variant();
  switch (verdict.termination) {
    case Termination::Shuttle:
      return "the " + v.kind_name(kind_of(pos.at(m.from()))) + " may not move back and forth between " +
             v.board().point_name(m.from()) + " and " + v.board().point_name(m.to()) + " " +
             std::to_string(v.ends().get<Repetition>().shuttle_moves) + " times in a row";
    case Termination::PerpetualCheck: return "it would repeat the position, every one of your moves a check (perpetual check)";
    case Termination::PerpetualChase:
      return "it would repeat the position, every one of your moves chasing the same piece (perpetual chase)";
    default: return UnexplainedRefusal;
  }
}

std::string explain_pass(Position& pos) {
  MoveList legal;
  generate_legal(pos, legal);
  for (const Move m : legal)
    if (m.is_pass()) return history_reason(pos, m);
  if (pos.variant().move_rules().pass == PassRule::Never) return "passing is not allowed in this variant";
  if (pos.piece_count(pos.side_to_move()) == 0) return "you have no piece left to pass with";
  if (in_check(pos)) return "you cannot pass while in check";
  return UnexplainedRefusal;
}

std::string explain_drop(Position& pos, Kind kind, Point to) {
  const Variant& v = pos.variant();
  const Side us = pos.side_to_move();
  MoveList legal;
  generate_legal(pos, legal);
  const Move drop = Move::drop(kind, to);
  if (std::find(legal.begin(), legal.end(), drop) != legal.end()) return "";
  const PieceDef& def = v.rules().pieces[kind];
  if (!pos.in_hand(us, kind)) return "you have no " + def.name + " in hand";
  if (pos.at(to)) return v.board().point_name(to) + " is not empty";
  const std::vector<Point>& points = v.drop_points(us, kind);
  if (std::find(points.begin(), points.end(), to) == points.end()) {
    const int zone = v.rules().hands.drop_zone[kind];
    if (zone >= 0 && !v.rules().sides[us].zones[zone][to])
      return with_article(def.name) + " may be dropped only in its " + spoken(v.rules().zone_names[zone]) + " zone";
    return with_article(def.name) + " may not be dropped where it could never move";
  }
  if (v.one_per_file(kind)) {
    for (int i = 0; i < pos.piece_count(us); ++i) {
      const Point s = pos.piece_square(us, i);
      if (kind_of(pos.at(s)) == kind && v.board().file_of(s) == v.board().file_of(to))
        return "two " + plural(def.name) + " of a side may not share a file";
    }
  }
  if (v.has_move_hook(kind) && !pos.move_hooks()->allows(pos, kind, drop)) {
    const HookRef& hook = def.allow_move_hook;
    return v.rules().scripts[hook.script].name + "." + hook.function + " does not allow that drop of the " + def.name +
           " on " + v.board().point_name(to);
  }
  const Request r{pos, v, us, to, to, kind, def};
  if (in_check(pos)) return safety_reason(r, drop);
  return UnexplainedRefusal;
}

std::string explain_move(Position& pos, Point from, Point to, Kind promotion_kind) {
  if (from == to) return explain_pass(pos);
  const Variant& v = pos.variant();
  if (from >= v.squares() || to >= v.squares()) return "that is not a point of this board";

  MoveList legal;
  generate_legal(pos, legal);
  bool other_promotion = false;
  for (const Move m : legal) {
    if (m.is_pass() || m.from() != from || m.to() != to) continue;
    if (m.promotion_kind() == promotion_kind) return history_reason(pos, m);
    other_promotion = true;
  }

  const Piece piece = pos.at(from);
  if (!piece) return "there is no piece on " + v.board().point_name(from);
  const Side us = pos.side_to_move();
  if (side_of(piece) != us) return "it is " + capitalised(v.side_name(us)) + "'s turn";
  const Request r{pos, v, us, from, to, kind_of(piece), v.rules().pieces[kind_of(piece)]};
  if (other_promotion) return promotion_reason(r, legal, promotion_kind);

  MoveList pseudo;
  generate_pseudo_legal(pos, pseudo);
  for (const Move m : pseudo) {
    if (m.is_pass() || m.from() != from || m.to() != to) continue;
    // In the order movegen asks: the piece's own runtime rule first, then the royal's safety.
    if (v.has_move_hook(r.kind) && !pos.move_hooks()->allows(pos, r.kind, m)) {
      const HookRef& hook = r.def.allow_move_hook;
      return v.rules().scripts[hook.script].name + "." + hook.function + " does not allow that move of the " + r.def.name +
             " on " + r.square(from);
    }
    if (v.move_rules().captures_compulsory && !is_capture(pos, m) &&
        std::any_of(legal.begin(), legal.end(), [&](Move l) { return is_capture(pos, l); }))
      return "you must capture: captures are compulsory";
    return safety_reason(r, m);
  }
  if (auto reason = compound_reason(r)) return *reason;
  const std::string reason = movement_reason(r);
  // The movement allows it, but the piece must promote there and has nothing left to become.
  if (reason == UnexplainedRefusal && r.def.promotion_to_lost_only && (v.promotion_flags(us, r.kind, to) & MustPromote))
    return lost_only_reason(r) + ", must promote on " + r.square(to) + ", and " + capitalised(v.side_name(us)) +
           " has lost none of them";
  return reason;
}

std::string example_move(const std::shared_ptr<const Variant>& variant) {
  Position pos(variant);
  MoveList legal;
  generate_legal(pos, legal);
  const BoardDef& board = variant->board();
  auto leaps = [&](Point s) {
    const auto& parts = variant->rules().pieces[kind_of(pos.at(s))].parts;
    return std::any_of(parts.begin(), parts.end(), [](const MovePart& p) { return p.kind == PartKind::Leap; });
  };
  // Doubled coordinates keep the centre of an even-sized board on the grid.
  auto off_centre = [&](Point s) {
    const int df = 2 * board.file_of(s) - (board.files - 1), dr = 2 * board.rank_of(s) - (board.ranks - 1);
    return df * df + dr * dr;
  };
  std::optional<std::pair<int, std::string>> best;
  std::string first;
  for (const Move m : legal) {
    if (m.is_pass()) continue;
    const std::string text = pos.move_text(m);
    if (first.empty() || text < first) first = text;
    if (m.drop_kind() >= 0 || !leaps(m.from())) continue;
    const std::pair<int, std::string> rank{off_centre(m.to()), text};
    if (!best || rank < *best) best = rank;
  }
  if (best) return best->second;
  return first.empty() ? board.point_name(Point(0)) + board.point_name(board.square(0, 1)) : first;
}

}  // namespace palace
