// Move generation from the compiled tables: pseudo-legal moves, attack tests, legality, perft.
#pragma once

#include <atomic>
#include <cstdint>
#include <optional>
#include <string>

#include "compiler/bitboards.h"
#include "core/bitboard.h"
#include "core/outcome.h"
#include "core/point_set.h"
#include "core/types.h"
#include "position/position.h"

namespace palace {

// Whether a piece of `by` could capture a piece of kind `victim` standing on `target`.
bool attacked(const Position& pos, Point target, Side by, Kind victim_kind);

// The points an exchange has emptied so far, as both back ends read them.
struct Emptied {
  PointSet points;
  WideBitboard bits = 0;  // the same, where the variant has bitboards (of either width)
  void add(Point s) {
    points.set(s);
    bits |= bit<WideBitboard>(s);
  }
};

// A piece that could capture on a point: where it stands and its kind; from NoPoint for none.
struct Attacker {
  Point from = NoPoint;
  Kind kind = NoKind;
};

// Of the pieces of `by` that could capture a piece of `victim_kind` on `target` were the points of
// `gone` empty, the one of least `worth` (indexed by kind). Runtime hooks are not asked (nor their
// added moves): where the variant has any, a caller must judge without this.
Attacker cheapest_attacker(const Position& pos, Point target, Side by, Kind victim_kind, const Emptied& gone,
                           const int* worth);

// Whether the piece of compound move `c` (a castling king) would be attacked on `s`, one of its
// safe points: on a point it passes, as it would stand there, its origin empty behind it (as
// python-chess and lichess judge it); on its landing point, as the board stands, the move's own
// legality test judging it again once the partner has moved. Where captures explode, a royal next
// to the other side's royal never is: taking it would blow up the taker's own.
bool safe_point_attacked(const Position& pos, const CompoundMove& c, Point s);

// The point the piece of `c` is judged without on its safe point `s`, as safe_point_attacked says:
// its origin, or NoPoint on its landing point.
inline Point lifted_on(const CompoundMove& c, Point s) { return s == c.to ? NoPoint : c.from; }

// Whether `side`'s royal piece is attacked, so that it stands in check.
bool royal_attacked(const Position& pos, Side side);

// Whether the side to move's royal piece is attacked.
bool in_check(const Position& pos);

// The piece a move takes (en passant included), or NoPiece. A compound move written as taking its
// partner (Chess960 castling) lands on its own piece and takes nothing.
inline Piece captured_piece(const Position& pos, Move m) {
  if (m.type() == MoveType::CaptureGhost) return pos.at(pos.state().ghost_victim);
  return m.is_pass() || m.type() == MoveType::Compound ? NoPiece : pos.at(m.to());
}

inline bool is_capture(const Position& pos, Move m) { return captured_piece(pos, m) != NoPiece; }

// Where a caller has already walked pieces of the position on bitboards: for each point s of
// `points`, `moves[s]` holds the plain moves and captures of its piece (bitboard_destinations' with
// nothing disallowed). The generator lists a piece of a kind whose moves are all of them
// (KindTraits' PlainOnly) from there, in the order it would have found them.
template <typename B>
struct KnownMoves {
  B points = 0;
  const B* moves = nullptr;
};
struct KnownDestinations {
  KnownMoves<Bitboard> one;       // of a board of one word
  KnownMoves<WideBitboard> two;   // or of two
};

// Every move the pieces' movement allows, before king safety and game rules. With `captures_only`
// the pieces' plain moves that neither capture nor may promote are left out (quiescence filters the
// rest with `kept`); those listed come in the same order as in the full list.
void generate_pseudo_legal(const Position& pos, MoveList& list, bool captures_only = false,
                           const KnownDestinations& known = {});

// Whether a pseudo-legal move keeps the mover's royal safe and obeys the facing-royals rule.
bool leaves_royal_safe(Position& pos, Move m);

// Which legal moves a generator keeps: all of them, or only those that change the material on the
// board (captures and promotions), as a quiescence search plays them.
enum class Keep { All, Captures };

// Every legal move, pass included where the rules allow it, or only the legal captures and
// promotions. Empty once a rule has ended the game. Returns whether the side to move has any legal
// move, kept or not: all the end rules need to know of the moves left out.
bool generate_legal(Position& pos, MoveList& list, Keep keep = Keep::All);

// The legality test of pseudo-legal moves (and the drops and pass generate_to_try offers) in one
// position, prepared once for all of them: a move that cannot expose the royal passes at once, the
// others are tried on the board. The position must stand as it did when the test was made.
class LegalityTest {
 public:
  LegalityTest(Position& pos, bool checked);  // `checked`: the side to move is in check

  // Any move generate_to_try offers: a pass is offered and a drop generated only where legal.
  bool operator()(Move m) const { return m.is_pass() || m.type() == MoveType::Drop || board_move_legal(m); }

  // A pseudo-legal move of a piece on the board. Inline, so that the generator's loop over every
  // move keeps the quick answer in registers.
  bool board_move_legal(Move m) const { return board_move_legal(m, piece_verdict(m.from())); }

  // What the test asks of the piece on `from` alone, the same for each of its moves, so that a
  // loop over a list (which holds a piece's moves together) asks it once a piece: PieceVerdict bits.
  enum PieceVerdict : std::uint8_t { Hooked = 1, MaySkipBoard = 2 };
  std::uint8_t piece_verdict(Point from) const {
    const Variant& v = pos_.variant();
    const Kind kind = kind_of(pos_.at(from));
    return std::uint8_t((v.has_move_hook(kind) ? Hooked : 0) |
                        (fast_path_ok_ && !v.royal(kind) && !exposed_[from] ? MaySkipBoard : 0));
  }

  // Whether a plain move that leaves and lands on none of exposed_points(), by a piece not royal,
  // passes without a trial: out of check, with a royal to keep, where nothing explodes.
  bool skips_trials() const { return fast_path_ok_ && !explosive_; }
  const PointSet& exposed_points() const { return exposed_; }

  // board_move_legal with the verdict on the moving piece given.
  bool board_move_legal(Move m, std::uint8_t verdict) const {
    if ((verdict & Hooked) && !hook_allows(kind_of(pos_.at(m.from())), m)) return false;
    // A double step changes only its two points, as a plain move does: the point it skips is no
    // piece's, so it shields nothing. A capture that explodes changes more than its two points.
    const bool plain = m.type() == MoveType::Normal || m.type() == MoveType::LeaveGhost;
    const bool surely_safe = (verdict & MaySkipBoard) && plain && !exposed_[m.to()] && !(explosive_ && pos_.at(m.to()));
    return surely_safe || royal_ == NoPoint || leaves_royal_safe(pos_, m);
  }

 private:
  bool hook_allows(Kind kind, Move m) const;  // the piece's runtime hook's say

  Position& pos_;
  Point royal_;
  bool explosive_;
  bool fast_path_ok_;
  PointSet exposed_;  // where a plain move could expose the royal; empty off the fast path
};

// Which moves of the side to move could check the other side's royal, asked before they are made:
// most moves leave and land off every line to it and cannot, which two table reads tell. Prepared
// once a position from the pieces aimed at that royal; a move it cannot rule out must be made and
// in_check asked. It rules out none where a move may change more than its own points
// (Position::board_trials) or the variant has no bitboards.
class CheckFilter {
 public:
  // `after_legal_move`: a legal move other than a pass led to `pos`, so the other side's royal stands
  // unattacked (a pass may be made in check, in a standoff); otherwise the filter asks.
  CheckFilter(const Position& pos, bool after_legal_move);

  // false: after `m` the other side is surely not in check; true: it may be.
  bool may_check(Move m) const {
    if (rule_ != Rule::Lines) return rule_ == Rule::Any;
    const Point to = m.to();
    switch (m.type()) {
      case MoveType::Drop: return touches(to) || aims(m.drop_kind(), to);
      case MoveType::CaptureGhost:
        if (touches(pos_.state().ghost_victim)) return true;
        [[fallthrough]];
      case MoveType::Normal:
      case MoveType::LeaveGhost: {
        const Point from = m.from();
        const Kind kind = m.promotion_kind() >= 0 ? Kind(m.promotion_kind()) : kind_of(pos_.at(from));
        return touches(from) || touches(to) || aims(kind, to);
      }
      default: return true;  // a pass, whose side may be in check, or a compound move
    }
  }

 private:
  enum class Rule : std::uint8_t { Any, None, Lines };  // every move may check, none may, or as lines_ says
  // Whether a piece of `kind` on `s` could capture the royal on an empty board.
  bool aims(Kind kind, Point s) const {
    return one_ ? holds(one_->capturers(us_, kind, royal_), s) : holds(two_->capturers(us_, kind, royal_), s);
  }
  // Whether a piece coming to or leaving `s` could open or close an attack on the royal.
  bool touches(Point s) const { return holds(lines_, s); }

  const Position& pos_;
  Rule rule_ = Rule::Any;
  Side us_;
  Point royal_;
  const Bitboards* one_;
  const WideBitboards* two_;
  WideBitboard lines_ = 0;  // bitboard_attack_lines of the royal
};

// The moves a search tries at a node, into `list`, as generate_legal would keep them; returns
// whether each must still pass a LegalityTest before it is played. A node is mostly done after a
// few of its moves, and testing only those saves testing the rest. Where compulsory captures make
// legality a matter of the whole list, the list is generate_legal's. Empty once a rule has ended the
// game; it does not say whether a legal move is left.
bool generate_to_try(Position& pos, MoveList& list, Keep keep, bool checked, const KnownDestinations& known = {});

// Whether a rule the position alone decides (the BeforeMoves rules of ends/registry.h: the last
// check a side needed, a standoff held too long, a royal in its goal zone, ...) has ended the game:
// the generator then lists no move.
bool ended_before_moves(const Position& pos);

// Position::set_fen, also refusing a FEN whose side not to move is in check where that cannot
// arise in play. Throws FenError and leaves `pos` unchanged.
void set_played_fen(Position& pos, const std::string& fen, FenRights rights = FenRights::Exact);

// Leaf nodes of the legal move tree `depth` plies deep, counted in bulk at the last ply. When
// `stop` is given and becomes true, the count gives up at the next node and returns a partial sum
// (the caller, which set it, knows to discard it).
std::uint64_t perft(Position& pos, int depth, const std::atomic<bool>* stop = nullptr);

}  // namespace palace
