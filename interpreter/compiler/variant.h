// A game compiled to flat per-square tables. Built once at load time; move generation, attack
// tests and make/unmake only read it, and never ask which game they are playing.
#pragma once

#include <array>
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "core/bitboard.h"
#include "core/types.h"
#include "loader/rule_set.h"

namespace palace {

enum TargetFlags : std::uint8_t { LeavesGhost = 1, TakesGhost = 2 };

// Whether a move may promote, by where it lands (arriving, must) or where it starts (leaving).
enum PromotionFlags : std::uint8_t { PromotesArriving = 1, PromotesLeaving = 2, MustPromote = 4 };

// The most pieces of one kind a hand holds; a FEN naming more is refused.
constexpr int MaxHandCount = 63;

// A destination reached in one jump: a step, or a leap with the points that must be empty.
struct LeapTarget {
  Point to;
  std::uint8_t modes;  // ModeBits allowed on arrival
  std::uint8_t flags;  // TargetFlags
  std::uint8_t block_count;
  Point blocks[MaxLeapBlocks];
};

// A slide or hop along one line, as a run of points with the modes allowed on each.
struct Ray {
  std::uint32_t first;  // into Variant::ray_points
  std::uint8_t length;
  std::uint8_t direction;
  bool hop;
  std::uint8_t after_screen;  // a hop lands at most this many points past its screen; 0: anywhere
};
struct RayPoint {
  Point square;
  std::uint8_t modes;
};

// The mirror image of a LeapTarget: who could land on a square, from where, if what is empty.
struct ReverseLeap {
  Point from;
  std::uint8_t block_count;
  Point blocks[MaxLeapBlocks];
  std::uint32_t kinds;  // bit k: a piece of kind k on `from` attacks the square
};

template <typename B>
class BasicBitboards;
using Bitboards = BasicBitboards<Bitboard>;
using WideBitboards = BasicBitboards<WideBitboard>;

// Which move generator a variant runs: the bitboard back end where its features allow
// (compiler/bitboards.h), with the slide indexing the processor runs fastest; or the mailbox
// tables alone, the reference; or bitboards with magic multiplies, the portable indexing.
enum class MoveBackend : std::uint8_t { Fastest, Mailbox, MagicBitboards };

struct Span {
  std::uint32_t begin = 0, end = 0;
};

// The points around one point, all eight where the board reaches, whatever lines join them.
struct Neighbours {
  std::uint8_t count = 0;
  Point squares[8];
  const Point* begin() const { return squares; }
  const Point* end() const { return squares + count; }
};

struct CompoundMove {
  Side side;
  Kind kind, partner;
  Point from, to, partner_from, partner_to;
  std::vector<Point> must_be_empty, must_be_safe;
  Point written_to;   // the `to` of its text: `to`, or `partner_from` where it takes its partner
  std::uint8_t right;  // its bit in a position's rights, shared by moves that share the right
};

class Variant {
 public:
  // Compiles validated rules, their load-time hooks already answered (hooks/load_variant.h). Each
  // position makes its own runtime hooks (position/move_hooks.h). Throws RuleError for rules that
  // only turn out wrong in combination.
  explicit Variant(RuleSet rules, MoveBackend backend = MoveBackend::Fastest);
  ~Variant();
  Variant(const Variant&) = delete;  // shared by pointer; runtime hooks refer to it
  Variant& operator=(const Variant&) = delete;

  const RuleSet& rules() const { return rules_; }
  const BoardDef& board() const { return rules_.board; }
  int kinds() const { return kinds_; }
  int squares() const { return squares_; }
  const MoveRules& move_rules() const { return rules_.rules; }
  const EndRules& ends() const { return rules_.ends; }

  // Move tables of a piece of `side` and `kind` standing on `s`.
  Span leaps(Side side, Kind kind, Point s) const { return leap_spans_[index(side, kind, s)]; }
  Span rays(Side side, Kind kind, Point s) const { return ray_spans_[index(side, kind, s)]; }
  const LeapTarget& leap(std::uint32_t i) const { return leap_targets_[i]; }
  const Ray& ray(std::uint32_t i) const { return rays_[i]; }
  const RayPoint* ray_points(const Ray& r) const { return &ray_points_[r.first]; }

  bool may_capture(int attacker, int victim) const { return capture_ok_[attacker * kinds_ + victim]; }
  bool may_jump(int hopper, int screen) const { return jump_ok_[hopper * kinds_ + screen]; }
  bool royal(Kind kind) const { return royal_[kind]; }
  // Whether every move of this kind restarts the move-limit count (a capture always does).
  bool resets_move_limit(Kind kind) const { return resets_move_limit_[kind]; }
  // Whether moves of this kind must also pass its runtime hook (Position::move_hooks()).
  bool has_move_hook(Kind kind) const { return move_hooked_[kind]; }
  // Whether this kind's add_moves hook gives it points beyond its movement; whether any kind's does.
  bool adds_moves(Kind kind) const { return adds_moves_ >> kind & 1; }
  bool any_adds_moves() const { return adds_moves_ != 0; }
  // Whether this kind's after_move hook changes the board once it moves; whether any kind's does.
  bool edits_after_move(Kind kind) const { return edits_after_move_ >> kind & 1; }
  bool any_edits_after_move() const { return edits_after_move_ != 0; }
  // Whether any kind has a runtime hook, so that each position needs hooks of its own.
  bool has_runtime_hooks() const { return runtime_hooked_; }
  // PromotionFlags of a `kind` of `side` on `s`: arriving and must where s is its landing point,
  // leaving where it starts from s.
  std::uint8_t promotion_flags(Side side, Kind kind, Point s) const { return promotion_[index(side, kind, s)]; }
  const std::vector<Kind>& promotion_kinds(Kind kind) const { return rules_.pieces[kind].promotion_kinds; }
  // How many pieces of `kind` the side sets up: a `to_lost_only` promotion needs fewer on the board.
  int setup_count(Side side, Kind kind) const { return setup_counts_[side][kind]; }

  // Attack tables, indexed by the square attacked and the attacking side.
  Span reverse_leaps(Side by, Point target) const { return reverse_spans_[by * squares_ + target]; }
  const ReverseLeap& reverse_leap(std::uint32_t i) const { return reverse_leaps_[i]; }
  std::uint8_t attack_directions(Side by) const { return attack_dirs_[by]; }
  std::uint8_t hop_directions(Side by) const { return hop_dirs_[by]; }
  // Bit n-1 set: a `kind` of `side` on `s` captures n points away in direction `dir` by slide/hop.
  std::uint16_t slide_reach(Side side, Kind kind, Point s, int dir) const { return slide_reach_[index(side, kind, s) * 8 + dir]; }
  std::uint16_t hop_reach(Side side, Kind kind, Point s, int dir) const { return hop_reach_[index(side, kind, s) * 8 + dir]; }
  // How far past its screen that hop lands at most, 0 for no limit (a grasshopper: 1).
  std::uint8_t hop_after_screen(Side side, Kind kind, Point s, int dir) const {
    return hop_after_screen_[index(side, kind, s) * 8 + dir];
  }
  // Points along the lines from `s` in direction `dir`, nearest first, to the board's edge.
  Span line(Point s, int dir) const { return line_spans_[s * 8 + dir]; }
  Point line_point(std::uint32_t i) const { return line_points_[i]; }
  const Point* line_points(Span line) const { return line_points_.data() + line.begin; }

  // The bitboard tables of a board of at most 64 points, or of at most 128 (wide): at most one is
  // set, none where the mailbox tables alone generate moves.
  const Bitboards* bitboards() const { return bitboards_.get(); }
  const WideBitboards* wide_bitboards() const { return wide_bitboards_.get(); }

  const std::vector<CompoundMove>& compound_moves() const { return compounds_; }
  // Where `side`'s compound moves start, and by which kind: a generator asks these points, not every
  // move (Chess960 has 56 castlings a side, 7 from each point of the first rank), and a start's
  // moves in the order the rules list them.
  struct CompoundStart {
    Point from;
    Kind kind;
    std::vector<std::uint8_t> moves;  // indices into compound_moves()
  };
  const std::vector<CompoundStart>& compound_starts(Side side) const { return compound_starts_[side]; }

  // Hands (loader/hand_rules.h): whether captures go to a hand, the kind a captured piece is held
  // as, the kinds a hand can hold (in FEN order), and the points each may be dropped on.
  bool has_hands() const { return rules_.hands.enabled; }
  // Whether a captured piece goes to its captor's hand (else it leaves the game).
  bool captures_to_hand() const { return rules_.hands.enabled && rules_.hands.captures_to_hand; }
  Kind joins_hand_as(Kind kind) const { return rules_.hands.joins_as[kind]; }
  const std::vector<Kind>& hand_kinds() const { return hand_kinds_; }
  const std::vector<Point>& drop_points(Side side, Kind kind) const { return drop_points_[side * kinds_ + kind]; }
  bool one_per_file(Kind kind) const { return one_per_file_ >> kind & 1; }
  bool drop_may_not_mate(Kind kind) const { return drop_may_not_mate_ >> kind & 1; }
  // Whether a `kind` of `side` on `s` could never move again.
  bool dead_at(Side side, Kind kind, Point s) const;
  std::uint64_t hand_key(Side side, Kind kind, int count) const { return hand_keys_[(side * kinds_ + kind) * (MaxHandCount + 1) + count]; }
  // The most moves a side could have when `family_count[k]` pieces, of both sides, on the board or
  // in hand, are kind k or demote to it: any of them may change side in play.
  int most_moves_with_hands(const std::vector<int>& family_count) const;
  // The kinds a family count counts each kind under.
  Kind family(Kind kind) const { return has_hands() ? joins_hand_as(kind) : kind; }
  // Whether `side` starts with a royal piece; a game may have none (antichess).
  bool has_royal(Side side) const { return has_royal_[side]; }
  // Explosions (rules.explosion): the points a capture on `s` blasts, and whether a neighbouring
  // blast removes a piece of `kind` (the capturer itself always goes).
  bool explosive() const { return rules_.rules.explosion; }
  const Neighbours& neighbours(Point s) const { return neighbours_[s]; }
  bool blown_up(Kind kind) const { return blown_up_[kind]; }
  // Whether two points touch, diagonally included.
  bool adjacent(Point a, Point b) const;
  // Hash key of a side that still needs `checks` checks (ends.checks_given).
  std::uint64_t checks_key(Side side, int checks) const { return check_keys_[side * 100 + checks]; }

  // The most moves `side` could have with `pieces` pieces on the board, wherever they stand:
  // what a MoveList must hold. Pieces are never added in play, so checking the set-up and every
  // FEN against MaxMoves keeps every position within it.
  int most_moves(Side side, int pieces) const;
  std::uint16_t rights_lost_at(Point s) const { return rights_mask_[s]; }
  // Rights given up by any move of this piece, wherever it stands (a Chess960 king's).
  std::uint16_t rights_lost_by(Piece p) const { return rights_by_piece_[p]; }

  // Zobrist keys, fixed for a variant so that hashes are reproducible.
  std::uint64_t piece_key(Piece p, Point s) const { return piece_keys_[p * squares_ + s]; }
  std::uint64_t side_key() const { return side_key_; }
  std::uint64_t ghost_key(Point s) const { return ghost_keys_[s]; }
  std::uint64_t rights_key(std::uint16_t rights) const;

  // Geometry, for slow paths that reason about rules rather than read tables (explanations).
  Point step(Point s, int dir) const;  // along the lines; NoPoint at an edge or where no line runs
  Point offset(Point s, int file, int rank) const;  // NoPoint off the board or on a hole
  int orient(int dir, Side side) const;  // a direction written for an upward side, seen by `side`

  // Names and letters.
  char letter(Piece p) const;
  Piece piece_from_letter(char c) const;  // NoPiece if unknown
  // A piece as a FEN writes it, "+p" or "Q~" where its kind is written so, else its letter; and back.
  std::string written(Piece p) const;
  Piece piece_from_written(const std::string& text) const;  // NoPiece if unknown
  // How a move text ends when it promotes to `kind`: "+" where that kind is written with a `+`,
  // else its letter in lower case ("e7e8q"); and how a drop of `kind` begins ("P@").
  std::string promotion_suffix(Kind kind) const;
  std::string drop_prefix(Kind kind) const { return std::string(1, rules_.pieces[kind].letter) + "@"; }
  const std::string& side_name(Side s) const { return rules_.sides[s].name; }
  const std::string& kind_name(Kind kind) const { return rules_.pieces[kind].name; }

 private:
  std::size_t index(Side side, Kind kind, Point s) const { return (std::size_t(side) * kinds_ + kind) * squares_ + s; }
  bool is_line(Point a, int dir) const;
  void build_lines();
  void build_moves();
  void build_attacks();
  void build_keys();
  void build_move_bound();
  int moves_at(Side side, Kind kind, Point s) const;  // targets times promotion choices
  void build_promotions();
  void build_hands();
  void build_win_rules();

  RuleSet rules_;
  int kinds_ = 0;
  int squares_ = 0;
  std::vector<bool> diagonal_line_;  // per square and diagonal direction
  std::vector<Span> leap_spans_, ray_spans_;
  std::vector<LeapTarget> leap_targets_;
  std::vector<Ray> rays_;
  std::vector<RayPoint> ray_points_;
  std::vector<bool> capture_ok_, jump_ok_;
  std::vector<std::uint8_t> promotion_;  // PromotionFlags per side, kind and point
  std::array<std::vector<int>, SideCount> setup_counts_;
  std::vector<std::uint8_t> royal_, move_hooked_, resets_move_limit_;  // bytes, not bits: read for every generated move
  std::vector<Span> reverse_spans_;
  std::vector<ReverseLeap> reverse_leaps_;
  std::uint8_t attack_dirs_[SideCount] = {0, 0};
  std::uint8_t hop_dirs_[SideCount] = {0, 0};
  std::vector<std::uint16_t> slide_reach_, hop_reach_;
  std::vector<std::uint8_t> hop_after_screen_;
  std::vector<Span> line_spans_;
  std::vector<Point> line_points_;
  std::vector<CompoundMove> compounds_;
  std::array<std::vector<CompoundStart>, SideCount> compound_starts_;
  std::vector<std::uint16_t> rights_mask_;
  std::array<std::uint16_t, PieceCodes> rights_by_piece_{};
  std::array<std::vector<int>, SideCount> most_moves_;  // [n]: the most n pieces of a side could have
  std::vector<std::uint64_t> piece_keys_, ghost_keys_, rights_keys_;
  std::uint64_t side_key_ = 0;
  std::vector<Kind> hand_kinds_;
  std::vector<std::vector<Point>> drop_points_;  // per side and kind
  std::uint32_t one_per_file_ = 0, drop_may_not_mate_ = 0;  // kind bits
  std::uint32_t adds_moves_ = 0, edits_after_move_ = 0;    // kind bits
  bool runtime_hooked_ = false;
  std::vector<std::uint64_t> hand_keys_;
  std::array<std::vector<std::vector<int>>, SideCount> family_bound_;  // [side][family][n]
  std::array<bool, SideCount> has_royal_{};
  std::vector<Neighbours> neighbours_;
  std::vector<std::uint8_t> blown_up_;
  std::vector<std::uint64_t> check_keys_;
  std::unique_ptr<const Bitboards> bitboards_;  // built last, from the tables above
  std::unique_ptr<const WideBitboards> wide_bitboards_;
};

}  // namespace palace
