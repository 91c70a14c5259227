// A game's rules as the loader read them: plain values, validated, not yet compiled to tables.
#pragma once

#include <array>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "core/point_set.h"
#include "core/types.h"
#include "ends/registry.h"
#include "loader/hook_ref.h"
#include "loader/config_tree.h"
#include "loader/uci_rules.h"
#include "loader/eval_rules.h"
#include "loader/notation_rules.h"
#include "loader/hand_rules.h"
#include "loader/search_rules.h"

namespace palace {

struct BoardDef {
  int files = 0;
  int ranks = 0;
  bool all_diagonals = false;                             // every diagonal neighbour pair is a line
  // Rank 1 is the far edge as the first side sees the board (Janggi numbers Cho's home ranks 7 to
  // 10), not its near one (chess): boards are drawn with the first side at the bottom either way.
  bool ranks_from_top = false;
  std::vector<std::pair<Point, Point>> diagonal_lines;  // otherwise only these diagonal edges are
  // Points of the rectangle that are not part of the board: no line runs to them, nothing stands,
  // lands or passes there (Omega chess's 12x12 with its corners' wizard points, no more).
  PointSet holes;

  Point square(int file, int rank) const { return Point(rank * files + file); }
  int file_of(Point s) const { return s % files; }
  int rank_of(Point s) const { return s / files; }
  int size() const { return files * ranks; }
  std::string point_name(Point s) const;
  bool is_hole(Point s) const { return holes[s]; }
  // Parses "e2"; returns NoPoint when the text is not a point of this board (a hole is none, unless
  // `holes_too`: a rectangle may have one as its corner).
  Point parse_point(const std::string& text, bool holes_too = false) const;
};

enum class PartKind : std::uint8_t { Step, Slide, Hop, Leap };

constexpr std::size_t MaxLeapBlocks = 3;
// A piece's `moves:` list holds at most this many parts, written or borrowed with `like:` (the
// shipped pieces need 4): each part costs tables per point, so thousands of them are a load that
// asks for gigabytes, not a piece.
constexpr std::size_t MaxMoveParts = 64;

struct LeapShape {
  int file = 0, rank = 0;                    // destination offset
  std::vector<std::pair<int, int>> blocks;   // points that must be empty, as offsets
};

// One line of a piece's `moves:` list. Directions and offsets are written for a side moving
// towards higher ranks; the compiler mirrors them for a side whose forward is downwards.
struct MovePart {
  PartKind kind = PartKind::Step;
  std::vector<int> directions;  // step, slide, hop
  std::vector<LeapShape> leaps;  // leap, after symmetry expansion
  int range = 0;                 // slide and hop: most points travelled; a ride: most leaps; 0 for no limit
  bool rides = false;            // a leap made again and again along its offset, over empty points (a nightrider)
  std::uint8_t mode = CanMove | CanCapture;
  int from_zone = -1;            // the piece must start in this zone of its side
  int to_zone = -1;              // and land in this one
  bool leaves_ghost = false;     // a leap whose blocking point stays capturable for one ply
  bool takes_ghost = false;      // may capture by landing on such a point
  int after_screen = 0;          // hop: lands at most this many points past its screen, 0 for no limit
  SourceMark mark;
};

struct ScriptDef {
  std::string name;  // as YAML calls it
  std::string path;  // resolved against the file that declared it
  std::string text;  // read here, so a variant plays on after its folder is gone (a workshop draft's)
  SourceMark mark;
};

// Whether a piece that may promote must: always, never (it may decline), or only where it could
// never move again unpromoted (a shogi pawn on the last rank).
enum class PromotionChoice : std::uint8_t { Forced, Optional, OptionalUnlessDead };

struct PieceDef {
  std::string name;
  char letter = '?';  // upper case; each side's case comes from SideDef
  std::string written;  // upper case FEN text where it is more than the letter: "+P", "Q~"
  // The glyph a board draws on the piece, per side ("車", or "帥"/"將"); empty: its letter.
  std::array<std::string, SideCount> face;
  double value = 0;
  bool royal = false;
  int stay_in = -1;  // zone of its own side it may never leave
  std::vector<MovePart> parts;
  int promotion_zone = -1;
  std::vector<Kind> promotion_kinds;
  int promotion_optional_in = -1;   // where in its promotion zone the piece may also stay as it is
  bool promotion_to_lost_only = false;  // only to a kind the side has fewer of than it set up
  PromotionChoice promotion_choice = PromotionChoice::Forced;
  bool promotion_leaving = false;  // a move starting in the zone may promote too
  // Pair rules for hops and captures, filled from YAML lists or load-time hooks: which kinds this
  // piece may use as a screen, and which it may capture. Indexed by kind, default all true.
  std::vector<bool> may_jump;
  std::vector<bool> may_capture;
  // Load-time hooks, asked once per pair of kinds: (this piece, screen) and (this piece, victim).
  HookRef may_jump_hook, may_capture_hook;
  // Runtime hook, asked for each generated move of this piece: may it be played here and now?
  HookRef allow_move_hook;
  // Runtime hooks: the points this piece may also reach, asked as its moves are generated and
  // attacks tested; and the board's changes once a move of it is made.
  HookRef add_moves_hook, after_move_hook;
  SourceMark mark;
};

struct SideDef {
  std::string name;
  std::string colour;
  bool upper_case = true;
  int forward = 1;               // +1: towards higher ranks
  // -1: the side's moves are turned round rather than mirrored, so that its left is the other
  // side's right (a chiral piece, `rfN`, as the reference engine turns it); +1: files as written.
  int right = 1;
  bool royal = true;         // false: the side plays without a royal piece (no check, no mate)
  std::vector<PointSet> zones;  // indexed like RuleSet::zone_names
};

// A move that carries a partner piece along (castling is one), allowed while its right is held.
struct CompoundMoveDef {
  std::string name;
  Side side = First;
  char right = '?';  // its letter in a FEN's rights field
  Kind kind = NoKind;     // kind that must stand on `from`
  Point from = NoPoint, to = NoPoint;
  Kind partner = NoKind;  // kind that must stand on `partner_from`
  Point partner_from = NoPoint, partner_to = NoPoint;
  PointSet must_be_empty;
  PointSet must_be_safe;  // none of these may be attacked, the mover's own square included
  bool takes_partner = false;  // written as the piece taking its partner (`e1h1`), not as from-to
  int wing = -1;               // made by `castling:` from this wing of RuleSet::castling
};

// Castling from wherever the piece and its partners start on the side's home rank (Chess960):
// the loader makes one compound move per wing, start of the piece and start of a partner.
struct CastlingWing {
  std::string name;
  char right = '?';            // the first side's letter for the outermost partner on this wing
  bool partners_right = true;  // the wing's partners stand on higher files than the piece
  int to_file = 0, partner_to_file = 0;
};
struct CastlingDef {
  Kind kind = NoKind, partner = NoKind;  // kind < 0: the variant has none
  std::array<int, SideCount> home_rank{};
  std::vector<CastlingWing> wings;
};

// A named list of kinds that fills a side's formation points in order.
struct Formation {
  std::string name;
  std::vector<Kind> kinds;
};

struct Placement {
  Point square;
  Kind kind;
};

enum class FacingRule : std::uint8_t { Allowed, Forbidden, Standoff };
enum class PassRule : std::uint8_t { Never, UnlessInCheck };

// `rules:`, how moves are played beyond the pieces' own; each member is named as its key.
struct MoveRules {
  FacingRule facing_royals = FacingRule::Allowed;
  PassRule pass = PassRule::Never;
  bool captures_compulsory = false;     // captures: compulsory, a side that can capture must
  bool explosion = false;               // a capture blows up the capturer and its neighbours
  std::vector<Kind> explosion_spares;   // explosion.spares: kinds a neighbouring blast leaves standing
};

struct RuleSet {
  std::string name;
  std::string description;  // one line for a player choosing a game; may be empty
  std::string source_file;
  BoardDef board;
  std::vector<std::string> zone_names;
  std::array<SideDef, SideCount> sides;  // sides[0] moves first and is "w" in a FEN
  std::vector<PieceDef> pieces;
  // The kinds an importing file took away (`pieces.NAME: ~`), and where: an error about a name
  // that still refers to one says so (loader/names.h).
  std::vector<std::pair<std::string, SourceMark>> removed_kinds;
  std::vector<CompoundMoveDef> compound_moves;
  CastlingDef castling;
  std::array<std::vector<Placement>, SideCount> setup;
  // The `formations:` a side's set-up may pick from (name: kinds), and per side the squares its
  // `formation:` fills, in order; empty without them. Records name a formation per side.
  std::vector<Formation> formations;  // in the order the file lists them
  std::array<std::vector<Point>, SideCount> formation_squares;
  MoveRules rules;
  EndRules ends;                   // every way the game ends besides checkmate (ends/registry.h)
  std::vector<ScriptDef> scripts;  // Lua hook files
  UciRules uci;                    // how other engines write this variant
  EvalDef eval;                    // the engine's piece values and square bonuses (eval_rules.h)
  SearchRules search;              // the engine's search heuristics for it (search_rules.h)
  NotationRules notation;          // how records write its moves (notation_rules.h)
  HandRules hands;                 // captures to hand and drops (hand_rules.h)

  // This game with the formation of each side named in `chosen` (side name: formation name)
  // swapped for that one; the loader checked that every formation fits. Throws Error naming an
  // unknown side or formation, or a side whose set-up has none.
  RuleSet with_formations(const std::map<std::string, std::string>& chosen) const;
  std::optional<Side> side_by_name(const std::string& name) const;
  const Formation* formation_named(const std::string& name) const;  // null for none
  Kind kind_by_name(const std::string& name) const;
  Kind kind_by_letter(char upper) const;
};

// Reads and validates a variant file and everything it imports. Throws RuleError.
RuleSet load_rules(const std::string& path);
RuleSet load_rules_from_tree(const ConfigNode& root, const std::string& source_file);

}  // namespace palace
