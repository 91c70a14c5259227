// The end of a game, read from the variant's EndRules (`ends:`): whether a position is finished, who won
// and why. Movement rules stay in movegen; this only adds the rules about a whole game. The game
// layer, the engine's search and the referee all ask here, so every end is decided in one place.
#pragma once

#include "game/termination.h"
#include "position/position.h"

namespace palace {

// The state of the game at `pos`, the moves that led there included (repetition needs them),
// given how many legal moves the side to move has (generate_legal's count; the caller has it).
// Rules are tried in a fixed order, so that a position that ends several ways gets one answer:
//   1. a rule movegen applies by itself: a standoff held too long or two passes in a row,
//      decided by counting where the variant counts, else a draw; a royal in its goal zone, the
//      last check a side needed, or a royal blown up, won by that royal's side, the checking
//      side, the side whose royal stands; a royal left bare (see bare_royal_side), as the variant says;
//   2. a side without its royal piece loses (where it set one up); then, where the variant says so,
//      a side with no piece left;
//   3. no legal move: the side to move loses when in check (checkmate), otherwise the variant's
//      stalemate outcome applies;
//   4. the move that led here moved one piece back and forth once too often (`shuttle`): refused;
//   5. the n-th occurrence of a position since the last irreversible move: repetition, a draw or
//      decided by counting, unless a single side gave check (else chased one piece) with every one
//      of its moves since the first of those occurrences and the variant punishes that: that side
//      loses; or where the perpetual is illegal, the move that carried it on is refused; or where
//      the side must vary, the game goes on (the Verdict names the perpetual) and that side
//      loses when its next move repeats the cycle again. Where the variant has no n (only `claim`),
//      the claim's occurrence is judged so, a draw there being the side to move's to claim;
//   6. the move limit, a draw or decided by counting, the endgame count run out, and 7. material
//      that cannot mate: draws.
// A position that goes on may carry a draw the side to move can claim (the earlier count of a
// repetition or move limit with `claim:`). A refused Verdict names the move's mover as loser,
// so the search scores it as such; the game refuses the move instead (judge_move).
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
