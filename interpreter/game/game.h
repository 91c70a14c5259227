// A game people can play: moves by from/to with reasons when refused, undo, history, FEN, check
// and the end-of-game state, for every variant. The interface of the method-design document,
// in the python-chess spirit: short verbs, reasons as values.
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "compiler/variant.h"
#include "ends/verdict.h"
#include "position/position.h"

namespace palace {

// What happened to a move request: accepted, or refused with a plain-words reason.
struct MoveVerdict {
  bool accepted = false;
  std::string reason;  // empty when accepted: "horse on b10 is blocked at b9", "it is Han's turn"
};

class Game {
 public:
  explicit Game(std::shared_ptr<const Variant> variant);  // at the variant's set-up

  const Variant& variant() const { return position_.variant(); }
  const std::shared_ptr<const Variant>& variant_ptr() const { return position_.variant_ptr(); }
  const Position& position() const { return position_; }
  Side side_to_move() const { return position_.side_to_move(); }

  // Starts over from a FEN; throws FenError and keeps the game as it was when the FEN is bad.
  void set_fen(const std::string& fen, FenRights rights = FenRights::Exact);
  std::string fen() const { return position_.fen(); }
  // The position the record starts from: the set-up, or the last FEN set. With history() it
  // replays the game, repetition and standoff counts included.
  const std::string& start_fen() const { return start_fen_; }

  // Makes the move when it is legal and the game is not over. A refusal leaves the game unchanged;
  // last_refusal() then says why. make_move(sq, sq) is a pass where the variant allows one.
  bool make_move(Point from, Point to, Kind promotion_kind = NoKind);
  bool pass();
  // The same from text: "b10c8", "e7e8q", "pass". Garbled text is refused with a reason too.
  MoveVerdict play(const std::string& move_text);
  const std::string& last_refusal() const { return last_refusal_; }
  // The same where a rule of the game's history refuses the move or has ended the game (a
  // perpetual, a repetition, a move limit) and the board still allows it: what a record shows the
  // players did where an arbiter let the game go on. In play the ruling stands (play()). Refused,
  // with play()'s reasons, where the board refuses the move too or has no move at all (a mate).
  MoveVerdict play_on(const std::string& move_text);

  // Ends the game in the draw the side to move may claim (game_state().claimable); false, and
  // nothing changes, when there is none. claimed(): the game ended so (until a move is undone).
  bool claim_draw();
  bool claimed() const { return claimed_; }

  bool undo();  // false when there is nothing to undo
  const std::vector<Move>& history() const { return history_; }
  std::vector<std::string> history_texts() const;

  bool is_in_check(Side side) const;
  const Verdict& game_state() const { return state_; }
  // The state in words, with the repetition behind it where one is: "red wins: perpetual check
  // (Black has given check with every move for 3 cycles, was bound to vary and did not)".
  std::string verdict() const;
  // The repetition behind the state in a sentence, or empty (Verdict::explanation).
  std::string explanation() const { return state_.explanation(variant(), side_to_move()); }

  const std::vector<Move>& legal_moves() const { return legal_; }
  // The moves the board allows: legal_moves() and those a rule of the game's history refuses, also
  // after such a rule ended the game; none only where the board has none (a mate, a stalemate).
  std::vector<Move> board_moves() const;
  std::vector<Point> destinations(Point from) const;  // legal targets of the piece on `from`

  // Why from->to is not a legal move now, in plain words; empty when it is legal. from == to asks
  // about a pass.
  std::string explain(Point from, Point to, Kind promotion_kind = NoKind) const;

  // A move of this variant to quote when text is not a move, e.g. "b10c8".
  const std::string& move_example() const { return move_example_; }

 private:
  MoveVerdict try_move(Point from, Point to, Kind promotion_kind);  // from == to: a pass
  MoveVerdict refuse(std::string reason);
  MoveVerdict play_legal(Move m);
  MoveVerdict try_drop(const std::string& text);
  void work_out_ply();  // legal moves and state of the position just reached

  mutable Position position_;  // explanations make and unmake moves, leaving it as it was
  std::vector<Move> history_;
  std::vector<Move> legal_;  // of the current ply; empty once the game is over
  Verdict state_;
  std::string last_refusal_;
  std::string move_example_;
  std::string start_fen_;
  bool claimed_ = false;
};

}  // namespace palace
