#include "compiler/variant.h"

#include "compiler/bitboards.h"
#include "compiler/routes.h"

#include <algorithm>
#include <cctype>
#include <cstdlib>
#include <functional>

namespace palace {

namespace {

// Directions are written for a side moving up the board; a side moving down sees ranks flipped,
// and a turned side files too.
int flip_for(int dir, int forward, int right) {
  for (int d = 0; d < DirectionCount; ++d)
    if (DirFile[d] == DirFile[dir] * right && DirRank[d] == DirRank[dir] * forward) return d;
  return dir;
}

// The moves of one kind of one side from one point, as its parts give them, before they join the
// variant's tables.
struct CellMoves {
  struct LineRay {
    Ray ray;  // its `first` and `length` are set as it joins the tables
    std::vector<RayPoint> points;
  };
  std::vector<LeapTarget> leaps;
  std::vector<LineRay> rays;

  // Parts may overlap (a queen written as a slide and a step in every direction): where one part
  // reaches a point whenever another does, the other gives up its modes there, so that each move
  // is generated once, decided here rather than for every move made.
  void keep_each_move_once();

 private:
  void merge_rays();
  void drop_covered_leaps();
  void drop_covered_ray_points();
};

bool holds_all(const Point* set, std::size_t count, const Point* of, std::size_t of_count) {
  return std::all_of(of, of + of_count, [&](Point p) { return std::find(set, set + count, p) != set + count; });
}

// Whether `a` lands whenever `b` does: the points `a` passes are among those `b` passes.
bool leap_covers(const LeapTarget& a, const LeapTarget& b) {
  return a.to == b.to && holds_all(b.blocks, b.block_count, a.blocks, a.block_count);
}

void CellMoves::keep_each_move_once() {
  merge_rays();
  drop_covered_leaps();
  drop_covered_ray_points();
  std::erase_if(leaps, [](const LeapTarget& t) { return t.modes == 0; });
}

// Two slides, or two hops, along one line walk the same points: one ray holds both, each point
// with the modes of either (two hops along a line agree on how far past the screen they land).
void CellMoves::merge_rays() {
  std::vector<LineRay> merged;
  for (LineRay& r : rays) {
    const auto same = std::find_if(merged.begin(), merged.end(), [&](const LineRay& m) {
      return m.ray.direction == r.ray.direction && m.ray.hop == r.ray.hop;
    });
    if (same == merged.end()) {
      merged.push_back(std::move(r));
      continue;
    }
    if (r.points.size() > same->points.size())
      same->points.insert(same->points.end(), r.points.begin() + std::ptrdiff_t(same->points.size()), r.points.end());
    for (std::size_t p = 0; p < r.points.size(); ++p) same->points[p].modes |= r.points[p].modes;
  }
  rays = std::move(merged);
}

// Two leaps to one point over the same points are one move, the first holding both's modes and
// flags. A leap over more points than another lands only where that one does, and gives up that
// one's modes there, unless it leaves or takes a ghost, which does more than land.
void CellMoves::drop_covered_leaps() {
  for (std::size_t i = 0; i < leaps.size(); ++i)
    for (std::size_t j = 0; j < leaps.size(); ++j) {
      if (i == j || !leap_covers(leaps[i], leaps[j])) continue;
      const bool same_path = leap_covers(leaps[j], leaps[i]);
      if (same_path && j > i) continue;  // the first of two alike takes the other's modes and flags
      if (same_path) {
        leaps[j].modes |= leaps[i].modes;
        leaps[j].flags |= leaps[i].flags;
        leaps[i].modes = 0;
      } else if (!leaps[j].flags) {
        leaps[j].modes &= std::uint8_t(~leaps[i].modes);
      }
    }
}

// A leap landing on a slide's point over exactly the points the slide passes is the same move: the
// leap gives way (the bitboard back end then keeps the slide's lines whole), unless it leaves or
// takes a ghost. A leap over fewer of them lands whenever the slide does, and a leap over none of a
// hop's possible screens whenever the hop does: the ray's point gives way. A leap over more of them
// lands only where the slide does: the leap gives way.
void CellMoves::drop_covered_ray_points() {
  for (LeapTarget& leap : leaps)
    for (LineRay& r : rays)
      for (std::size_t i = 0; i < r.points.size(); ++i) {
        if (r.points[i].square != leap.to) continue;
        std::vector<Point> passed(i);
        for (std::size_t p = 0; p < i; ++p) passed[p] = r.points[p].square;
        // A hop's screen may stand on any point it passes, or only on the last `after_screen` of them.
        const std::size_t screens = !r.ray.hop ? 0 : r.ray.after_screen ? std::min<std::size_t>(i, r.ray.after_screen) : i;
        const std::size_t must_be_empty = i - screens;
        if (!holds_all(passed.data(), must_be_empty, leap.blocks, leap.block_count)) {
          const bool slide_covers = !r.ray.hop && holds_all(leap.blocks, leap.block_count, passed.data(), i);
          if (slide_covers && !leap.flags) leap.modes &= std::uint8_t(~r.points[i].modes);
          continue;
        }
        const bool same_path = !r.ray.hop && leap.block_count == i;
        if (same_path && !leap.flags) leap.modes &= std::uint8_t(~r.points[i].modes);
        else r.points[i].modes &= std::uint8_t(~leap.modes);
      }
}

std::uint64_t splitmix64(std::uint64_t& state) {
  std::uint64_t z = (state += 0x9E3779B97F4A7C15ull);
  z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
  z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
  return z ^ (z >> 31);
}

}  // namespace

Variant::Variant(RuleSet rules, MoveBackend backend) : rules_(std::move(rules)) {
  kinds_ = int(rules_.pieces.size());
  squares_ = rules_.board.size();
  build_lines();
  build_moves();
  build_attacks();
  build_keys();
  build_move_bound();
  build_promotions();
  build_hands();
  build_win_rules();
  for (Side side = First; side < SideCount; ++side) {
    const int bound = most_moves(side, int(rules_.setup[side].size()));
    if (bound > MaxMoves)
      throw RuleError(rules_.source_file + ": setup: " + rules_.sides[side].name + " could have up to " + std::to_string(bound) +
                      " moves in one position; Palace supports at most " + std::to_string(MaxMoves));
  }
  if (backend != MoveBackend::Mailbox) {
    const SliderIndexing indexing = backend == MoveBackend::Fastest ? best_slider_indexing() : SliderIndexing::Magic;
    bitboards_ = Bitboards::compile(*this, indexing);
    if (!bitboards_) wide_bitboards_ = WideBitboards::compile(*this, indexing);
  }
}

Variant::~Variant() = default;

// For every point, the most moves any kind standing there could make (each promotion choice a
// move of its own); n pieces can make at most the n largest of these, plus every compound move
// and a pass.
void Variant::build_move_bound() {
  for (Side side = First; side < SideCount; ++side) {
    std::vector<int> per_square(squares_, 0);
    for (Kind k = Kind(0); k < kinds_; ++k)
      for (Point s = Point(0); s < squares_; ++s) per_square[s] = std::max(per_square[s], moves_at(side, k, s));
    std::sort(per_square.begin(), per_square.end(), std::greater<>());
    const int fixed = 1 + int(std::count_if(compounds_.begin(), compounds_.end(), [&](const CompoundMove& c) { return c.side == side; }));
    std::vector<int>& bound = most_moves_[side];
    bound.assign(1, fixed);
    for (const int moves : per_square) bound.push_back(bound.back() + moves);
  }
}

int Variant::moves_at(Side side, Kind kind, Point s) const {
  const PieceDef& def = rules_.pieces[kind];
  const bool may_decline = def.promotion_choice != PromotionChoice::Forced || def.promotion_optional_in >= 0;
  const int choices = std::max<int>(1, int(def.promotion_kinds.size()) + may_decline);
  const Span leaps = leap_spans_[index(side, kind, s)], rays = ray_spans_[index(side, kind, s)];
  int targets = int(leaps.end - leaps.begin);
  for (std::uint32_t i = rays.begin; i < rays.end; ++i) targets += rays_[i].length;
  return targets * choices;
}

int Variant::most_moves(Side side, int pieces) const {
  const std::vector<int>& bound = most_moves_[side];
  return bound[std::min<std::size_t>(std::size_t(pieces), bound.size() - 1)];
}

Point Variant::offset(Point s, int file, int rank) const {
  const int f = board().file_of(s) + file, r = board().rank_of(s) + rank;
  if (f < 0 || f >= board().files || r < 0 || r >= board().ranks || board().is_hole(board().square(f, r))) return NoPoint;
  return board().square(f, r);
}

int Variant::orient(int dir, Side side) const { return flip_for(dir, rules_.sides[side].forward, rules_.sides[side].right); }

bool Variant::is_line(Point a, int dir) const {
  if (offset(a, DirFile[dir], DirRank[dir]) == NoPoint) return false;
  return dir % 2 == 0 || diagonal_line_[a * DirectionCount + dir];
}

Point Variant::step(Point s, int dir) const {
  return is_line(s, dir) ? offset(s, DirFile[dir], DirRank[dir]) : NoPoint;
}

void Variant::build_lines() {
  diagonal_line_.assign(std::size_t(squares_) * DirectionCount, rules_.board.all_diagonals);
  for (const auto& [a, b] : rules_.board.diagonal_lines) {
    for (int d = 1; d < DirectionCount; d += 2) {
      if (offset(a, DirFile[d], DirRank[d]) == b) diagonal_line_[a * DirectionCount + d] = true;
      if (offset(b, DirFile[d], DirRank[d]) == a) diagonal_line_[b * DirectionCount + d] = true;
    }
  }
  line_spans_.resize(std::size_t(squares_) * DirectionCount);
  for (Point s = Point(0); s < squares_; ++s) {
    for (int d = 0; d < DirectionCount; ++d) {
      Span& span = line_spans_[s * DirectionCount + d];
      span.begin = std::uint32_t(line_points_.size());
      for (Point t = step(s, d); t != NoPoint; t = step(t, d)) line_points_.push_back(t);
      span.end = std::uint32_t(line_points_.size());
    }
  }
}

void Variant::build_moves() {
  const std::size_t cells = std::size_t(SideCount) * kinds_ * squares_;
  leap_spans_.resize(cells);
  ray_spans_.resize(cells);
  for (Side side = First; side < SideCount; ++side) {
    setup_counts_[side].assign(kinds_, 0);
    for (const Placement& p : rules_.setup[side]) ++setup_counts_[side][p.kind];
  }
  royal_.resize(kinds_);
  move_hooked_.resize(kinds_);
  resets_move_limit_.assign(kinds_, 0);
  for (Kind k : rules_.ends.get<MoveLimit>().reset_by) resets_move_limit_[k] = 1;
  capture_ok_.resize(std::size_t(kinds_) * kinds_);
  jump_ok_.resize(std::size_t(kinds_) * kinds_);
  for (Kind k = Kind(0); k < kinds_; ++k) {
    const PieceDef& piece = rules_.pieces[k];
    // An unprotected royal moves, and is taken, like any piece: only the end rules look for it.
    royal_[k] = piece.royal && !rules_.ends.get<RoyalCaptured>().on;
    move_hooked_[k] = bool(piece.allow_move_hook);
    adds_moves_ |= std::uint32_t(bool(piece.add_moves_hook)) << k;
    edits_after_move_ |= std::uint32_t(bool(piece.after_move_hook)) << k;
    runtime_hooked_ = runtime_hooked_ || piece.allow_move_hook || piece.add_moves_hook || piece.after_move_hook;
    for (Kind v = Kind(0); v < kinds_; ++v) {
      capture_ok_[k * kinds_ + v] = piece.may_capture[v];
      jump_ok_[k * kinds_ + v] = piece.may_jump[v];
    }
  }

  for (Side side = First; side < SideCount; ++side) {
    const SideDef& sd = rules_.sides[side];
    for (Kind k = Kind(0); k < kinds_; ++k) {
      const PieceDef& piece = rules_.pieces[k];
      for (Point s = Point(0); s < squares_; ++s) {
        const std::size_t cell = index(side, k, s);
        Span& leaps = leap_spans_[cell];
        Span& rays = ray_spans_[cell];
        leaps.begin = std::uint32_t(leap_targets_.size());
        rays.begin = std::uint32_t(rays_.size());
        CellMoves cell_moves;
        for (const MovePart& part : piece.parts) {
          if (part.from_zone >= 0 && !sd.zones[part.from_zone][s]) continue;
          auto modes_at = [&](Point t) -> std::uint8_t {
            const bool allowed = (piece.stay_in < 0 || sd.zones[piece.stay_in][t]) &&
                                 (part.to_zone < 0 || sd.zones[part.to_zone][t]);
            return allowed ? part.mode : 0;
          };
          const std::uint8_t flags = std::uint8_t((part.leaves_ghost ? LeavesGhost : 0) | (part.takes_ghost ? TakesGhost : 0));
          const bool hop = part.kind == PartKind::Hop;
          const bool along_line = hop || part.kind == PartKind::Slide;
          for_each_route(*this, side, part, s, [&](const RouteStep& route) {
            if (!along_line) {
              LeapTarget target{route.to, modes_at(route.to), flags, std::uint8_t(route.between.size()), {}};
              std::copy(route.between.begin(), route.between.end(), target.blocks);
              if (target.modes) cell_moves.leaps.push_back(target);
              return;
            }
            // A slide or hop visits its line in order: the first point opens a new ray.
            if (route.between.empty())
              cell_moves.rays.push_back({Ray{0, 0, std::uint8_t(route.direction), hop, std::uint8_t(part.after_screen)}, {}});
            cell_moves.rays.back().points.push_back({route.to, modes_at(route.to)});
          });
        }
        cell_moves.keep_each_move_once();
        leap_targets_.insert(leap_targets_.end(), cell_moves.leaps.begin(), cell_moves.leaps.end());
        for (auto& [ray, points] : cell_moves.rays) {
          ray.first = std::uint32_t(ray_points_.size());
          ray.length = std::uint8_t(points.size());
          rays_.push_back(ray);
          ray_points_.insert(ray_points_.end(), points.begin(), points.end());
        }
        leaps.end = std::uint32_t(leap_targets_.size());
        rays.end = std::uint32_t(rays_.size());
      }
    }
  }

  // One bit per right letter of a side, in the order the rights are first named (the loader
  // allows at most 16).
  std::vector<std::pair<Side, char>> rights;
  rights_mask_.assign(squares_, 0);
  for (const CompoundMoveDef& def : rules_.compound_moves) {
    const auto named = std::find(rights.begin(), rights.end(), std::pair{def.side, def.right});
    const auto right = std::uint8_t(named - rights.begin());
    if (named == rights.end()) rights.emplace_back(def.side, def.right);
    const Point written_to = def.takes_partner ? def.partner_from : def.to;
    CompoundMove m{def.side, def.kind, def.partner, def.from, def.to, def.partner_from, def.partner_to, {}, {}, written_to, right};
    for (Point s = Point(0); s < squares_; ++s) {
      if (def.must_be_empty[s]) m.must_be_empty.push_back(s);
      if (def.must_be_safe[s]) m.must_be_safe.push_back(s);
    }
    auto& starts = compound_starts_[def.side];
    auto start = std::find_if(starts.begin(), starts.end(), [&](const CompoundStart& c) { return c.from == def.from && c.kind == def.kind; });
    if (start == starts.end()) start = starts.insert(starts.end(), CompoundStart{def.from, def.kind, {}});
    start->moves.push_back(std::uint8_t(compounds_.size()));
    compounds_.push_back(std::move(m));
    // Moving either piece away, or capturing it where it stands, gives up the right for good. A
    // castling right shared by every start of the piece is given up by any move of the piece.
    const auto bit = std::uint16_t(1u << right);
    rights_mask_[def.partner_from] |= bit;
    if (def.wing < 0) rights_mask_[def.from] |= bit;
    else rights_by_piece_[make_piece(def.side, def.kind)] |= bit;
  }
}

void Variant::build_attacks() {
  reverse_spans_.resize(std::size_t(SideCount) * squares_);
  slide_reach_.assign(leap_spans_.size() * DirectionCount, 0);
  hop_reach_.assign(leap_spans_.size() * DirectionCount, 0);
  hop_after_screen_.assign(leap_spans_.size() * DirectionCount, 0);
  for (Side by = First; by < SideCount; ++by) {
    std::vector<std::vector<ReverseLeap>> per_target(squares_);
    for (Kind k = Kind(0); k < kinds_; ++k) {
      for (Point s = Point(0); s < squares_; ++s) {
        const Span leaps = leap_spans_[index(by, k, s)];
        for (std::uint32_t i = leaps.begin; i < leaps.end; ++i) {
          const LeapTarget& t = leap_targets_[i];
          if (!(t.modes & CanCapture)) continue;
          auto& list = per_target[t.to];
          auto same = std::find_if(list.begin(), list.end(), [&](const ReverseLeap& r) {
            return r.from == s && r.block_count == t.block_count && std::equal(r.blocks, r.blocks + r.block_count, t.blocks);
          });
          if (same == list.end()) {
            ReverseLeap r{s, t.block_count, {}, 0};
            std::copy(t.blocks, t.blocks + t.block_count, r.blocks);
            list.push_back(r);
            same = list.end() - 1;
          }
          same->kinds |= 1u << k;
        }
        const Span rays = ray_spans_[index(by, k, s)];
        for (std::uint32_t i = rays.begin; i < rays.end; ++i) {
          const Ray& ray = rays_[i];
          std::uint16_t reach = 0;
          for (std::uint32_t p = 0; p < ray.length; ++p)
            if (ray_points_[ray.first + p].modes & CanCapture) reach |= std::uint16_t(1u << p);
          if (!reach) continue;
          auto& table = ray.hop ? hop_reach_ : slide_reach_;
          table[index(by, k, s) * DirectionCount + ray.direction] |= reach;
          attack_dirs_[by] |= std::uint8_t(1u << ray.direction);
          if (ray.hop) hop_dirs_[by] |= std::uint8_t(1u << ray.direction);
          if (ray.hop) hop_after_screen_[index(by, k, s) * DirectionCount + ray.direction] = ray.after_screen;
        }
      }
    }
    for (Point t = Point(0); t < squares_; ++t) {
      Span& span = reverse_spans_[by * squares_ + t];
      span.begin = std::uint32_t(reverse_leaps_.size());
      reverse_leaps_.insert(reverse_leaps_.end(), per_target[t].begin(), per_target[t].end());
      span.end = std::uint32_t(reverse_leaps_.size());
    }
  }
}

void Variant::build_keys() {
  std::uint64_t seed = 0x5041'4C41'4345ull;  // "PALACE"
  piece_keys_.resize(std::size_t(PieceCodes) * squares_);
  for (auto& key : piece_keys_) key = splitmix64(seed);
  ghost_keys_.resize(squares_);
  for (auto& key : ghost_keys_) key = splitmix64(seed);
  rights_keys_.resize(16);
  for (auto& key : rights_keys_) key = splitmix64(seed);
  side_key_ = splitmix64(seed);
  if (!rules_.hands.enabled) return;
  hand_keys_.resize(std::size_t(SideCount) * kinds_ * (MaxHandCount + 1));
  for (auto& key : hand_keys_) key = splitmix64(seed);
}

// Tables for the rules that decide a game in other ways than mate: which sides have a royal,
// what each capture blows up, and the keys of the check counters, drawn from a seed of their own
// so that the hashes of every other game stay as they were.
void Variant::build_win_rules() {
  for (Side side = First; side < SideCount; ++side)
    for (const Placement& p : rules_.setup[side]) has_royal_[side] = has_royal_[side] || royal(p.kind);
  blown_up_.assign(kinds_, 1);
  for (const Kind kind : rules_.rules.explosion_spares) blown_up_[kind] = 0;
  neighbours_.assign(squares_, Neighbours());
  for (Point s = Point(0); s < squares_; ++s)
    for (int d = 0; d < DirectionCount; ++d)
      if (const Point n = offset(s, DirFile[d], DirRank[d]); n != NoPoint) neighbours_[s].squares[neighbours_[s].count++] = n;
  if (rules_.ends.get<ChecksGiven>().limit == 0) return;
  std::uint64_t seed = 0x434845434B53ull;  // "CHECKS"
  check_keys_.resize(SideCount * 100);
  for (auto& key : check_keys_) key = splitmix64(seed);
}

bool Variant::adjacent(Point a, Point b) const {
  return std::abs(board().file_of(a) - board().file_of(b)) <= 1 && std::abs(board().rank_of(a) - board().rank_of(b)) <= 1;
}

std::uint64_t Variant::rights_key(std::uint16_t rights) const {
  std::uint64_t key = 0;
  for (int b = 0; b < 16; ++b)
    if (rights & (1u << b)) key ^= rights_keys_[b];
  return key;
}

char Variant::letter(Piece p) const {
  const char upper = rules_.pieces[kind_of(p)].letter;
  return rules_.sides[side_of(p)].upper_case ? upper : char(std::tolower(static_cast<unsigned char>(upper)));
}

Piece Variant::piece_from_letter(char c) const {
  const bool upper = std::isupper(static_cast<unsigned char>(c));
  const Kind kind = rules_.kind_by_letter(char(std::toupper(static_cast<unsigned char>(c))));
  if (kind < 0) return NoPiece;
  for (Side s = First; s < SideCount; ++s)
    if (rules_.sides[s].upper_case == upper) return make_piece(s, kind);
  return NoPiece;
}

}  // namespace palace

namespace palace {

std::string Variant::written(Piece p) const {
  const std::string& text = rules_.pieces[kind_of(p)].written;
  if (text.empty()) return std::string(1, letter(p));
  std::string out = text;
  for (char& c : out) c = rules_.sides[side_of(p)].upper_case ? c : char(std::tolower(static_cast<unsigned char>(c)));
  return out;
}

std::string Variant::promotion_suffix(Kind kind) const {
  const PieceDef& def = rules_.pieces[kind];
  if (!def.written.empty() && def.written[0] == '+') return "+";
  return std::string(1, char(std::tolower(static_cast<unsigned char>(def.letter))));
}

Piece Variant::piece_from_written(const std::string& text) const {
  for (Kind k = Kind(0); k < kinds_; ++k)
    for (Side s = First; s < SideCount; ++s)
      if (written(make_piece(s, k)) == text) return make_piece(s, k);
  return NoPiece;
}

}  // namespace palace
