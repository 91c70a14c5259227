// The board of one game: points, piece lists, side to move, hash, and a stack of per-move state
// records so that undo restores everything without recomputing it.
#pragma once

#include <array>
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "compiler/variant.h"
#include "core/bitboard.h"
#include "core/error.h"
#include "core/types.h"
#include "position/hand.h"
#include "position/move_hooks.h"

namespace palace {

// A FEN that does not describe a position of the variant: what() names the field and the reason.
class FenError : public Error {
 public:
  using Error::Error;
};

struct StateRecord {
  std::uint64_t hash = 0;
  Move move;                   // the move that led here
  Piece moved = NoPiece;       // as it stood before the move, so undo can revert a promotion
  Piece captured = NoPiece;
  Point ghost = NoPoint;         // point a leap skipped, capturable this ply (the first, where it skipped several)
  Point ghost_end = NoPoint;     // the skipped point next to the leaper: `ghost` itself after a double step
  Point ghost_victim = NoPoint;  // where the piece that made it stands
  std::uint16_t rights = 0;
  std::uint16_t quiet_plies = 0;   // since the last capture or reset move
  bool royals_facing = false;      // the royals see each other down an open file (tracked only
                                   // where the variant has a facing-royals rule)
  std::uint8_t edited = 0;         // points the move's side effects (an explosion, an after_move
                                   // hook) changed, on top of Position's edit stack
  std::array<std::uint8_t, SideCount> checks_needed{};  // per side, where ends.checks_given counts checks
  // The endgame count (position/endgame_count.h), where ends.endgame_count has one: the plies it
  // runs to, 0 while none runs, the plies counted so far, and whether a blocker stands on the board.
  std::uint16_t count_limit = 0;
  std::uint16_t count_plies = 0;
  bool count_blocked = false;
};

// How a FEN's castling and compound-move rights and its en-passant ghost are read: exactly, a right
// or ghost its board does not allow being an error, or as a position set up by hand, where they are
// dropped (a king moved off its square keeps no castling right).
enum class FenRights : std::uint8_t { Exact, DropUnmet };

// What a written FEN leaves out for a reader that does not take all of it (pyffish): points
// written `*` (a fog of war: get_fog_fen); the en-passant field where no legal move takes there
// (pyffish writes it only then; Palace's own FEN keeps every ghost, as its reader needs them); and
// a castling wing's letter, each right then named by its partner's file (Shredder-FEN, which the
// reference writes for Chess960 castling where Palace writes X-FEN's K and Q where it can).
struct FenOmissions {
  std::vector<bool> hidden;  // by point; empty where every point is seen
  bool ghosts = false;
  bool wing_letters = false;
};

class Position {
 public:
  explicit Position(std::shared_ptr<const Variant> variant);  // the variant's set-up position

  // Throws FenError; the position is unchanged then.
  void set_fen(const std::string& fen, FenRights rights = FenRights::Exact);

  // A royal can be captured, and a side left in check with the other to move, only where a
  // player may pass while in check: in a standoff, where the reference engine plays on after a
  // royal is taken. Anywhere else a FEN showing either cannot arise in play (see movegen's
  // set_played_fen for the check test, which needs attack tables).
  bool royal_may_be_taken() const;
  std::string fen(const FenOmissions& omit = {}) const;
  void set_start();

  const Variant& variant() const { return *variant_; }
  // This position's own runtime hooks (see position/move_hooks.h), or null where the variant has none.
  MoveHooks* move_hooks() const { return hooks_.get(); }
  const std::shared_ptr<const Variant>& variant_ptr() const { return variant_; }
  Piece at(Point s) const { return board_[s]; }
  Side side_to_move() const { return side_; }
  Point royal(Side s) const { return royal_[s]; }
  // The board as bitboards of type B, kept where the variant has the bitboard back end of that
  // width (Variant::bitboards, Variant::wide_bitboards).
  template <typename B = Bitboard>
  B occupied() const { return joined<B>(side_bits_[0]) | joined<B>(side_bits_[1]); }
  template <typename B = Bitboard>
  B occupied_by(Side s) const { return joined<B>(side_bits_[s]); }
  template <typename B = Bitboard>
  B pieces(Piece p) const { return joined<B>(piece_bits_[p]); }
  const StateRecord& state() const { return states_.back(); }
  const StateRecord& state_back(int plies) const { return states_[states_.size() - 1 - plies]; }
  int plies_recorded() const { return int(states_.size()) - 1; }  // moves made since set-up or FEN
  int fullmove_number() const { return fullmove_base_ + (plies_recorded() + start_side_) / 2; }
  int piece_count(Side s) const { return count_[s]; }
  Point piece_square(Side s, int i) const { return list_[s][i]; }
  int in_hand(Side s, Kind kind) const { return hand_.count[s][kind]; }
  // Whether `s` is a point the last move leapt over and left capturable (en passant).
  bool is_ghost(Point s) const {
    const StateRecord& st = state();
    return s == st.ghost || (st.ghost_end != st.ghost && on_ghost_line(s));
  }

  // Each chooses once whether the bitboards are kept, rather than at every piece it moves.
  void do_move(Move m) { bit_words_ == 1 ? make<1>(m) : bit_words_ ? make<2>(m) : make<0>(m); }
  void undo_move() { bit_words_ == 1 ? unmake<1>() : bit_words_ ? unmake<2>() : unmake<0>(); }

  // Whether the board, the piece lists, the royals, the facing flag and the hash agree. Debug
  // builds (no NDEBUG) assert it after every do_move and undo_move, as Stockfish does pos_is_ok;
  // it costs a walk of the board, so release builds leave it to the tests.
  bool is_consistent() const;

  // Whether the royals of both sides stand on one file with nothing between them.
  bool royals_facing() const;

  // Text of a move in the project's notation: "b10c8", "e7e8q", "pass".
  std::string move_text(Move m) const;

  // Whether BoardTrial may try moves here: the variant has no runtime hooks (which may read the
  // piece lists), explodes nothing and edits nothing after a move.
  bool board_trials() const { return board_trials_; }

 private:
  friend class BoardTrial;

  void clear();
  void check_royals_present() const;
  // do_move and undo_move, keeping bitboards of `Words` words or none (bit_words_).
  template <int Words> void make(Move m);
  template <int Words> void unmake();
  // A piece's arrival, departure and move, and a change of its kind (promotion) on `s`: templates
  // on the bitboards' words for make and unmake, the others ask bit_words_.
  template <int Words> void put(Piece p, Point s);
  template <int Words> void remove(Point s);
  template <int Words> void relocate(Point from, Point to);
  template <int Words> void retype(Point s, Piece p);
  // A set of points as the position keeps it: one word is all a board of 64 points touches.
  using BitWords = std::array<std::uint64_t, 2>;
  template <int Words>
  static void flip(BitWords& set, Point s) {
    if constexpr (Words == 1) set[0] ^= std::uint64_t(1) << s;
    else set[s >> 6] ^= std::uint64_t(1) << (s & 63);
  }
  template <typename B>
  static B joined(const BitWords& w) {
    if constexpr (PointsIn<B> > 64) return B(w[1]) << 64 | w[0];
    return B(w[0]);
  }
  void put(Piece p, Point s);
  void remove(Point s);
  std::uint64_t compute_hash() const;
  bool facing_flag() const;
  // Castling from any start (RuleSet::castling): the castling piece of `side` on its home rank, and
  // the index of the compound move it makes with a partner on `partner_from`, or with the
  // outermost partner of a wing; NoPoint or -1 where there is none.
  Point castling_piece(Side side) const;
  int castling_move(Side side, Point partner_from) const;
  int outermost_castling(Side side, int wing) const;
  // FEN reading (position/fen.cpp), one field a step, each throwing FenError.
  void read_board(const std::string& placement);
  void check_move_list_bound() const;  // the pieces could not make more moves than a move list holds
  void read_side_to_move(const std::string& side);
  void read_rights(const std::string& rights, FenRights mode);
  // The compound move a FEN rights letter names, or -1.
  int compound_for_right(char letter) const;
  std::string rights_text(bool wing_letters) const;
  // The point one step beyond `ghost` in the forward direction of `mover`, who skipped it.
  Point beyond_ghost(Point ghost, Side mover) const;
  // Whether `s` lies on the line of points from state().ghost to state().ghost_end.
  bool on_ghost_line(Point s) const;
  // The neighbour of `from` one step toward `to` along a rank, file or diagonal.
  Point step_toward(Point from, Point to) const;
  void read_ghosts(const std::string& text, FenRights mode);
  std::string ghosts_text() const;
  void explode(Point centre, std::uint64_t& hash);
  void run_after_move_hook(std::uint64_t& hash);
  void edit(Point s, Piece p, std::uint64_t& hash);
  void read_check_counters(const std::string& text);
  std::uint64_t to_hand(Side side, Kind kind);    // returns the hash change
  std::uint64_t from_hand(Side side, Kind kind);
  void read_hands(const std::string& text);
  std::string hands_text() const;

  // Owns the runtime hooks; a copy makes its own, so no two positions share an interpreter, and
  // asks its original's interrupt (MoveHooks::interrupt).
  class HooksSlot {
   public:
    explicit HooksSlot(const Variant& v) : variant_(&v), hooks_(make_move_hooks(v)) {}
    HooksSlot(const HooksSlot& other) : HooksSlot(*other.variant_) {
      if (hooks_) hooks_->set_interrupt(other.hooks_->interrupt());
    }
    HooksSlot& operator=(const HooksSlot& other) {
      if (variant_ != other.variant_) *this = HooksSlot(other);
      else if (hooks_) hooks_->set_interrupt(other.hooks_->interrupt());
      return *this;
    }
    HooksSlot(HooksSlot&&) = default;
    HooksSlot& operator=(HooksSlot&&) = default;
    MoveHooks* get() const { return hooks_.get(); }

   private:
    const Variant* variant_;
    std::unique_ptr<MoveHooks> hooks_;
  };

  std::shared_ptr<const Variant> variant_;
  HooksSlot hooks_;
  std::array<Piece, MaxPoints> board_{};
  std::uint8_t bit_words_;  // the words of the variant's bitboards (0: none), which the position keeps too
  bool board_trials_;
  std::array<BitWords, SideCount> side_bits_{};
  std::array<BitWords, PieceCodes> piece_bits_{};
  std::array<std::array<Point, MaxPoints>, SideCount> list_{};
  std::array<std::uint8_t, MaxPoints> list_index_{};
  std::array<int, SideCount> count_{};
  std::array<Point, SideCount> royal_{NoPoint, NoPoint};
  Hand hand_;
  Side side_ = First;
  int fullmove_base_ = 1;
  int start_side_ = 0;  // side to move when the record began, for move numbers
  std::vector<StateRecord> states_;
  std::vector<std::pair<Point, Piece>> edits_;  // points side effects changed and their former
                                                 // occupants, latest last, for undo
};

// A move made on the board alone, for a legality test that asks only what attacks what: while it
// lasts, at(), royal() and the bitboards answer as after the move (a plain move, a promotion, a
// ghost capture or a drop), and nothing else of the position may be read: the piece lists, hash
// and state stay as they were. The board is restored when it ends. Only where
// Position::board_trials() says so; far cheaper than do_move and undo_move, which keep everything.
class BoardTrial {
 public:
  BoardTrial(Position& pos, Move m) : pos_(pos), royal_(pos.royal_) {
    const Side us = pos.side_;
    if (m.type() == MoveType::Drop) {
      from_ = victim_ = to_ = m.to();
      moved_ = taken_ = NoPiece;
      placed_ = make_piece(us, m.drop_kind());
      pos.board_[to_] = placed_;
      if (pos.variant_->royal(m.drop_kind())) pos.royal_[us] = to_;  // as put() does
      flip_bits();
      return;
    }
    from_ = m.from();
    to_ = m.to();
    victim_ = m.type() == MoveType::CaptureGhost ? pos.state().ghost_victim : to_;
    moved_ = pos.board_[from_];
    taken_ = pos.board_[victim_];
    placed_ = m.promotion_kind() >= 0 ? make_piece(us, m.promotion_kind()) : moved_;
    pos.board_[victim_] = NoPiece;
    pos.board_[from_] = NoPiece;
    pos.board_[to_] = placed_;
    if (pos.royal_[us] == from_) pos.royal_[us] = to_;
    if (pos.royal_[opponent(us)] == victim_) pos.royal_[opponent(us)] = NoPoint;
    flip_bits();
  }
  ~BoardTrial() {
    pos_.board_[to_] = NoPiece;
    pos_.board_[victim_] = taken_;
    if (moved_) pos_.board_[from_] = moved_;
    pos_.royal_ = royal_;
    flip_bits();
  }
  BoardTrial(const BoardTrial&) = delete;
  BoardTrial& operator=(const BoardTrial&) = delete;

 private:
  // The bitboards follow the board: each of the three changes flipped on trying, and back on ending.
  void flip_bits() {
    if (!pos_.bit_words_) return;
    for (const auto& [p, s] : {std::pair{taken_, victim_}, std::pair{moved_, from_}, std::pair{placed_, to_}})
      if (p) {
        Position::flip<2>(pos_.side_bits_[side_of(p)], s);
        Position::flip<2>(pos_.piece_bits_[p], s);
      }
  }

  Position& pos_;
  std::array<Point, SideCount> royal_;
  Point from_, to_, victim_;
  Piece moved_, taken_, placed_;
};

}  // namespace palace
