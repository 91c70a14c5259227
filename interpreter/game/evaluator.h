// The end of a game, judged by the variant's end rules (`ends:`, one module each under ends/): whether a
// position is finished, who won and why. The game layer, the engine's search and the referee all ask
// here, so every end is decided in one place.
#pragma once

#include "ends/verdict.h"
#include "position/position.h"

namespace palace {

// The state of the game at `pos`, the moves that led there included (repetition needs them),
// given how many legal moves the side to move has (generate_legal's count; the caller has it). The
// end rules are asked in the order ends/registry.h lists them, so that a position that ends several
// ways gets one answer: the first rule's that ends it. A position that goes on may carry a draw the
// side to move can claim (the earlier count of a repetition or move limit with `claim:`), or a
// perpetual its side must vary from. A refused Verdict names the move's mover as loser, so the
// search scores it as such; the game refuses the move instead (judge_move).
Verdict judge(const Position& pos, int legal_move_count);

// A cycle as a search sees it: where `pos` occurred once before, fewer than `plies` plies ago, and
// no perpetual is blamed for the plies between, the players could play the cycle again up to the
// repetition rule's count, so it is judged as that count would be (a draw where the draw may be
// claimed before); unfinished otherwise. The search asks this with the plies since its root, as the
// reference engine judges a repetition after the root at its second occurrence: a cycle the side
// ahead can keep is then a win found at its first repetition, and mate distances agree. Where a
// perpetual is blamed, the cycle is left to the rule's count, which punishes it.
Verdict judge_cycle(const Position& pos, int plies);

// Whether `m`, legal by movegen, is refused by a rule of the game's history: the refusing
// Verdict (refused, with the rule as its reason), or an unfinished one. `pos` is left as it was.
Verdict judge_move(Position& pos, Move m);

// judge() for a position whose legal moves the caller has not generated. `pos` is left as it was.
Verdict evaluate(Position& pos);

// A side's points when a game is decided by counting: the values of its pieces plus its bonus.
double points(const Position& pos, Side side);

}  // namespace palace
