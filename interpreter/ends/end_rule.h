// What every end rule module is made of (docs/adding-a-rule.md walks through one). A module is a
// struct in a file of its own under ends/, listed once in ends/registry.h, which gives it its place
// in the order the rules are asked. It holds:
//   keys      std::array<KeySpec, N>: its entries under `ends:`, each with its type, default, range
//             and meaning written once; the loader's unknown-key check, rules/REFERENCE.md and the
//             JSON Schema read them from here (an empty array: the module reads no key of its own)
//   settings  its members, as the file sets them, with the defaults a file that omits the keys gets
//   read()    `void read(const ConfigNode& ends, const RuleSet& rules)`: its settings from the `ends:`
//             map, failing at the node at fault (file:line:col, key path, why)
//   stage     BeforeMoves where the position alone decides (the move generator then lists no move
//             once such a rule has ended the game), AfterMoves where the rule needs the side to move's
//             legal moves or the game's history
//   judge()   `template <class Pos> bool judge(const Pos&, Judging&) const`: true, with
//             Judging::result set, where the rule ends the game; false otherwise, having noted in
//             Judging::going_on what the rule lets a player claim. It answers false at once where
//             the variant does not use the rule, so the judge costs a variant only the rules it has.
// The judge is a template over the position because the position's layer (board) sits above this
// one: the rule is written against its interface here and instantiated where the position is known
// (movegen for the BeforeMoves rules, game/evaluator.cpp for all), so the rule stays in one file.
#pragma once

#include <array>
#include <optional>

#include "core/outcome.h"
#include "core/types.h"
#include "ends/verdict.h"
#include "loader/config_tree.h"
#include "loader/key_table.h"

namespace palace {

struct RuleSet;

// What an end rule gives the side it names.
enum class SideResult : std::uint8_t { Loss, Draw, Win };
// What a repetition rule does to the side it blames: nothing, the game lost, the move refused, or
// the side bound to vary, losing only when its next move repeats the cycle again.
enum class Sanction : std::uint8_t { None, Loss, Illegal, MustVary };
// Whether an attack of one kind on another is a chase: never, when the victim is unprotected, when it
// is unprotected and cannot capture the attacker back either, always.
enum class Chase : std::uint8_t { Never, Unprotected, UnlessMutual, Always };

enum class Stage : std::uint8_t { BeforeMoves, AfterMoves };

// The words of a SideResult, for the keys that take one (stalemate, bare_royal, no_pieces, ...).
inline constexpr const char* SideResults = "loss|draw|win";
SideResult read_side_result(const ConfigNode& node);

// What an end rule's word gives the side it names: the other side wins its loss.
inline Outcome outcome_for(Side side, SideResult result, Termination termination) {
  switch (result) {
    case SideResult::Loss: return {termination, opponent(side)};
    case SideResult::Win: return {termination, side};
    case SideResult::Draw: break;
  }
  return {termination, std::nullopt};
}

// The settings of the module R in the variant `pos` plays: a rule that asks another's (a standoff
// decided by counting asks counting's).
template <class R, class Pos>
const R& end_rule(const Pos& pos) {
  return pos.variant().ends().template get<R>();
}

// What the judge knows while it asks the rules in turn, and what they answer.
struct Judging {
  int legal_moves = 1;  // the side to move's legal moves, as the caller counted them (0: none)
  Verdict result;       // how the game ended, once a rule has said so
  Verdict going_on;     // for a game that goes on: the draw a player may claim, the perpetual to vary

  bool ends(const Verdict& how) {
    result = how;
    return true;
  }
  bool ends(Outcome how) {
    static_cast<Outcome&>(result) = how;
    return true;
  }
  bool win(Side winner, Termination termination) { return ends(Outcome{termination, winner}); }
  bool draw(Termination termination) { return ends(Outcome{termination, std::nullopt}); }
};

}  // namespace palace
