#include "game/evaluator.h"

#include <algorithm>
#include <sstream>
#include <vector>

#include "movegen/movegen.h"

namespace palace {

namespace {

GameState win(Side winner, std::string reason) { return {GameState::Kind::Win, winner, std::move(reason)}; }
GameState draw(std::string reason) { return {GameState::Kind::Draw, 0, std::move(reason)}; }

std::string number(double value) {
  std::ostringstream out;
  out << value;
  return out.str();
}

GameState by_points(const Position& pos, const std::string& what) {
  const double p0 = points(pos, 0), p1 = points(pos, 1);
  if (p0 == p1) return draw(what + ", " + number(p0) + " to " + number(p1) + " points");
  const Side winner = p0 > p1 ? 0 : 1;
  return win(winner, what + ", " + number(std::max(p0, p1)) + " to " + number(std::min(p0, p1)) + " points");
}

// Ends that count points where the variant counts, and are drawn where it does not.
GameState counted_or_drawn(const Position& pos, const std::string& what) {
  return pos.variant().game_rules().counting ? by_points(pos, what) : draw(what);
}

std::vector<int> non_royal_kinds(const Position& pos, Side side) {
  std::vector<int> kinds;
  for (int i = 0; i < pos.piece_count(side); ++i) {
    const int kind = kind_of(pos.at(pos.piece_square(side, i)));
    if (!pos.variant().royal(kind)) kinds.push_back(kind);
  }
  std::sort(kinds.begin(), kinds.end());
  return kinds;
}

// Plies back to the occurrence of the current position that makes it the n-th, or 0 when it is not
// there yet. A capture or a reset move cannot be undone, so positions before one are never equal to
// this one and the search stops there.
int repetition_span(const Position& pos, int count) {
  const int window = std::min<int>(pos.state().quiet_plies, pos.plies_recorded());
  const std::uint64_t hash = pos.state().hash;
  int seen = 1;
  for (int back = 2; back <= window; back += 2)
    if (pos.state_back(back).hash == hash && ++seen == count) return back;
  return 0;
}

// The side that gave check with every one of its moves over the last `span` plies, if exactly one
// did. A copy is unwound ply by ply: the side to move in each earlier position shows whether the
// move that led to it gave check.
int perpetual_checker(const Position& pos, int span) {
  Position scratch(pos);
  bool every_move_checked[SideCount] = {true, true};
  for (int ply = 0; ply < span; ++ply) {
    const Side mover = opponent(scratch.side_to_move());
    if (!in_check(scratch)) every_move_checked[mover] = false;
    scratch.undo_move();
  }
  if (every_move_checked[0] == every_move_checked[1]) return -1;
  return every_move_checked[0] ? 0 : 1;
}

}  // namespace

double points(const Position& pos, Side side) {
  const Variant& v = pos.variant();
  double total = v.game_rules().count_bonus[side];
  for (int i = 0; i < pos.piece_count(side); ++i) total += v.rules().pieces[kind_of(pos.at(pos.piece_square(side, i)))].value;
  return total;
}

GameState evaluate(Position& pos) {
  const GameRules& rules = pos.variant().game_rules();
  const Side us = pos.side_to_move();

  switch (ended_by_rule(pos)) {
    case RuleEnd::Standoff: return counted_or_drawn(pos, "standoff");
    case RuleEnd::BothPassed: return counted_or_drawn(pos, "both sides passed");
    case RuleEnd::None: break;
  }

  // A royal can only be missing where a player may pass in check and the opponent took it; the
  // game ended with that capture, whether or not the loser could still move.
  for (const Side side : {us, opponent(us)})
    if (pos.royal(side) == NoSquare) return win(opponent(side), "royal captured");

  MoveList list;
  generate_legal(pos, list);
  if (list.size == 0) {
    if (in_check(pos)) return win(opponent(us), "checkmate");
    switch (rules.stalemate) {
      case Outcome::Loss: return win(opponent(us), "stalemate");
      case Outcome::Win: return win(us, "stalemate");
      case Outcome::Draw: break;
    }
    return draw("stalemate");
  }

  if (rules.repetition_count > 0) {
    if (const int span = repetition_span(pos, rules.repetition_count)) {
      if (rules.perpetual_check_loses)
        if (const int checker = perpetual_checker(pos, span); checker >= 0)
          return win(opponent(Side(checker)), "perpetual check");
      return rules.repetition_by_counting ? by_points(pos, "repetition") : draw("repetition");
    }
  }

  if (rules.move_limit_plies > 0 && pos.state().quiet_plies >= rules.move_limit_plies) return draw("move limit");

  if (!rules.insufficient_material.empty()) {
    const auto& lists = rules.insufficient_material;
    auto cannot_mate = [&](Side side) { return std::find(lists.begin(), lists.end(), non_royal_kinds(pos, side)) != lists.end(); };
    if (cannot_mate(0) && cannot_mate(1)) return draw("insufficient material");
  }
  return {};
}

}  // namespace palace
