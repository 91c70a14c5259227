#include "loader/betza.h"

#include <algorithm>
#include <array>
#include <cstdint>
#include <cstdlib>
#include <optional>
#include <tuple>
#include <utility>

#include "core/text.h"

namespace palace {
namespace {

using Offset = std::pair<int, int>;  // (files, ranks), for a side moving up the board

// An atom as the reference lists them: its legs are (a, b) with a the ranks and b the files of its
// first direction, turned and mirrored by the modifiers' table below.
struct Atom {
  char letter;
  std::vector<Offset> legs;
  bool rider;
};

const Atom Atoms[] = {
    {'W', {{1, 0}}, false}, {'F', {{1, 1}}, false}, {'D', {{2, 0}}, false}, {'N', {{2, 1}}, false},
    {'A', {{2, 2}}, false}, {'H', {{3, 0}}, false}, {'C', {{3, 1}}, false}, {'L', {{3, 1}}, false},
    {'Z', {{3, 2}}, false}, {'J', {{3, 2}}, false}, {'G', {{3, 3}}, false}, {'K', {{1, 0}, {1, 1}}, false},
    {'R', {{1, 0}}, true},  {'B', {{1, 1}}, true},  {'Q', {{1, 0}, {1, 1}}, true},
};

const Atom* atom_named(char letter) {
  for (const Atom& atom : Atoms)
    if (atom.letter == letter) return &atom;
  return nullptr;
}

// The eight turns of a leg (a, b), as (files, ranks) = (fa*a + fb*b, ra*a + rb*b), each with the
// two-letter direction groups that select it: the reference's table (piece.cpp, from_betza), so
// that `fsN`, `rfN` and `hlN` mean there what they mean here.
struct Turn {
  int fa, fb, ra, rb;
  std::array<const char*, 7> groups;
};
const Turn Turns[8] = {
    {0, 1, 1, 0, {"ff", "vv", "rf", "rv", "fh", "rh", "hr"}},   {0, -1, -1, 0, {"bb", "vv", "lb", "lv", "bh", "lh", "hr"}},
    {1, 0, 0, -1, {"rr", "ss", "br", "bs", "bh", "rh", "hr"}},  {-1, 0, 0, 1, {"ll", "ss", "fl", "fs", "fh", "lh", "hr"}},
    {1, 0, 0, 1, {"rr", "ss", "fr", "fs", "fh", "rh", "hl"}},   {-1, 0, 0, -1, {"ll", "ss", "bl", "bs", "bh", "lh", "hl"}},
    {0, 1, -1, 0, {"bb", "vv", "rb", "rv", "bh", "rh", "hl"}},  {0, -1, 1, 0, {"ff", "vv", "lf", "lv", "fh", "lh", "hl"}},
};

bool vertical(char c) { return c == 'f' || c == 'b' || c == 'v' || c == 'h'; }
bool horizontal(char c) { return c == 'r' || c == 'l' || c == 's' || c == 'h'; }
bool direction_letter(char c) { return vertical(c) || horizontal(c); }
// Whether the reader takes `c` and `next` as one two-letter group ("fr", "ff"), as the reference does.
bool pairs_with(char c, char next) {
  return next == c || (vertical(c) && horizontal(next)) || (horizontal(c) && vertical(next));
}

// The offsets of one atom that direction groups select (all of them for no group). An orthogonal
// atom of one leg reads a mixed group as its two letters (`fsW` is forward and sideways), as the
// reference does for Xiangqi's soldier.
std::vector<Offset> targets(const Atom& atom, const std::vector<std::string>& groups) {
  std::vector<Offset> out;
  for (const auto& [a, b] : atom.legs) {
    std::vector<std::string> effective;
    for (const std::string& g : groups)
      if (atom.legs.size() == 1 && b == 0 && g[0] != g[1]) {
        effective.push_back(std::string(2, g[0]));
        effective.push_back(std::string(2, g[1]));
      } else {
        effective.push_back(g);
      }
    for (const Turn& t : Turns) {
      const bool chosen = groups.empty() || std::any_of(effective.begin(), effective.end(), [&](const std::string& g) {
                            return std::find(t.groups.begin(), t.groups.end(), g) != t.groups.end();
                          });
      const Offset to{t.fa * a + t.fb * b, t.ra * a + t.rb * b};
      if (chosen && std::find(out.begin(), out.end(), to) == out.end()) out.push_back(to);
    }
  }
  return out;
}

// The direction groups written at the start of `text`, read two letters at a time where they pair.
std::vector<std::string> read_groups(std::string_view text, std::size_t& i) {
  std::vector<std::string> groups;
  for (; i < text.size() && direction_letter(text[i]); ++i) {
    if (i + 1 < text.size() && pairs_with(text[i], text[i + 1])) {
      groups.push_back(std::string(text.substr(i, 2)));
      ++i;
    } else {
      groups.push_back(std::string(2, text[i]));
    }
  }
  return groups;
}

bool unit(const Offset& o) { return std::max(std::abs(o.first), std::abs(o.second)) == 1; }

int direction_of(const Offset& o) {
  for (int d = 0; d < DirectionCount; ++d)
    if (DirFile[d] == o.first && DirRank[d] == o.second) return d;
  return -1;
}

int sign(int x) { return (x > 0) - (x < 0); }

// The points a lame leap passes, nearest first: straight while one way is longer, then diagonally,
// as the reference walks them (bitboard.cpp, lame_leaper_path): the Xiangqi horse's leg, the
// elephant's eye, the Janggi elephant's two points.
std::vector<Offset> lame_path(const Offset& to) {
  std::vector<Offset> path;
  for (Offset at{0, 0}; at != to;) {
    const int diff = std::abs(to.first - at.first) - std::abs(to.second - at.second);
    if (diff >= 0) at.first += sign(to.first - at.first);
    if (diff <= 0) at.second += sign(to.second - at.second);
    if (at != to) path.push_back(at);
  }
  return path;
}

std::string character(std::string_view text, std::size_t at) {
  return "character " + std::to_string(at + 1) + " (" + palace::quote(text.substr(at, 1)) + ")";
}

class Reader {
 public:
  Reader(std::string_view text, int initial_zone) : text_(text), initial_zone_(initial_zone) {}

  BetzaReading run() {
    if (text_.size() > MaxBetzaLength)
      return refuse("a Betza text has at most " + std::to_string(MaxBetzaLength) + " characters, got " +
                    std::to_string(text_.size()));
    for (std::size_t i = 0; i < text_.size(); ++i) {
      const char c = text_[i];
      if (!first_modifier_) first_modifier_ = i;
      if (c == 'm' || c == 'c') {
        mode_ |= c == 'm' ? CanMove : CanCapture;
        if (c == 'c') capture_at_ = i;
      } else if (c == 'p' || c == 'g') {
        hop_at_ = i;
        if (c == 'g') distance_ = 1;  // a grasshopper lands on the point just past its screen
      } else if (c == 'n') {
        lame_at_ = i;
      } else if (c == 'i') {
        initial_at_ = i;
      } else if (direction_letter(c)) {
        directions_at_ = i;
        const std::vector<std::string> more = read_groups(text_, i);
        groups_.insert(groups_.end(), more.begin(), more.end());
        --i;
      } else if (const Atom* atom = atom_named(c)) {
        first_modifier_.reset();
        if (!add_atom(*atom, i)) return reading_;
        reset();
      } else if (c >= '0' && c <= '9') {
        return refuse(character(text_, i) + ": a range follows its atom directly (R4, W2)");
      } else if (c >= 'a' && c <= 'z') {
        return refuse(character(text_, i) + ": not a modifier Palace reads (f b l r v s h, m c, p g, n, i); "
                                            "XBetza's bent and multi-leg moves are not read yet");
      } else {
        return refuse(character(text_, i) + ": no such atom (W F D N A H C Z G K R B Q, L J)");
      }
    }
    if (first_modifier_)
      return refuse(character(text_, *first_modifier_) + ": modifiers at the end name no atom");
    reading_.parts = merge_parts(parts_);
    if (reading_.parts.empty()) return refuse("names no move");
    return reading_;
  }

 private:
  BetzaReading refuse(const std::string& why) {
    reading_.parts.clear();
    reading_.error = palace::quote(std::string(text_)) + ": " + why;
    return reading_;
  }

  // The atom at `at`, its rider's doubling or range after it, with the modifiers read before it.
  bool add_atom(const Atom& atom, std::size_t& at) {
    const std::size_t start = at;
    bool rider = atom.rider;
    int distance = distance_;
    if (at + 1 < text_.size() && text_[at + 1] == atom.letter) {
      rider = true;
      ++at;
    } else if (at + 1 < text_.size() && text_[at + 1] >= '0' && text_[at + 1] <= '9') {
      rider = true;
      distance = 0;
      const int most = std::max(MaxFiles, MaxRanks);
      while (at + 1 < text_.size() && text_[at + 1] >= '0' && text_[at + 1] <= '9' && distance <= most)
        distance = distance * 10 + (text_[++at] - '0');
      if (distance < 1 || distance > most) {
        refuse(character(text_, start) + ": a range is 1 to " + std::to_string(most));
        return false;
      }
    }
    const std::string written(text_.substr(start, at + 1 - start));
    if (lame_at_ && rider) {
      refuse(character(text_, *lame_at_) + ": n (lame) belongs to a leap, and " + written + " rides");
      return false;
    }
    std::uint8_t mode = mode_ ? mode_ : std::uint8_t(CanMove | CanCapture);
    int from_zone = -1;
    if (initial_at_) {
      if (capture_at_) {
        refuse(character(text_, *capture_at_) + ": an i (first) move only moves, as the reference reads it");
        return false;
      }
      if (initial_zone_ < 0) {
        refuse(character(text_, *initial_at_) + ": i (a first move) needs `initial_zone: ZONE` beside `betza`, "
                                                "the zone where a piece's first moves start");
        return false;
      }
      mode = CanMove;
      from_zone = initial_zone_;
    }
    const std::vector<Offset> to = targets(atom, groups_);
    if (to.empty()) {
      refuse(character(text_, *directions_at_) + ": its directions select no move of " + std::string(1, atom.letter));
      return false;
    }
    MovePart lines, leaps;
    lines.kind = hop_at_ ? PartKind::Hop : rider ? PartKind::Slide : PartKind::Step;
    leaps.kind = PartKind::Leap;
    leaps.rides = rider;
    if (rider) leaps.range = distance;
    for (MovePart* part : {&lines, &leaps}) {
      part->mode = mode;
      part->from_zone = from_zone;
    }
    if (lines.kind == PartKind::Slide) lines.range = distance;
    if (lines.kind == PartKind::Hop) lines.after_screen = distance;
    for (const Offset& o : to) {
      if (unit(o)) {
        lines.directions.push_back(direction_of(o));
        continue;
      }
      if (hop_at_) {
        refuse(character(text_, *hop_at_) + ": a hop goes along lines (pR, gQ, pW), not over a leap of " +
               std::string(1, atom.letter));
        return false;
      }
      leaps.leaps.push_back(LeapShape{o.first, o.second, lame_at_ ? lame_path(o) : std::vector<Offset>{}});
    }
    for (MovePart* part : {&lines, &leaps})
      if (!part->directions.empty() || !part->leaps.empty()) parts_.push_back(*part);
    return true;
  }

  void reset() {
    mode_ = 0;
    distance_ = 0;
    groups_.clear();
    hop_at_.reset();
    lame_at_.reset();
    initial_at_.reset();
    capture_at_.reset();
    directions_at_.reset();
  }

  std::string_view text_;
  int initial_zone_;
  BetzaReading reading_;
  std::vector<MovePart> parts_;
  // What the modifiers before the next atom said, and where.
  std::uint8_t mode_ = 0;
  int distance_ = 0;
  std::vector<std::string> groups_;
  std::optional<std::size_t> first_modifier_, hop_at_, lame_at_, initial_at_, capture_at_, directions_at_;
};

// A part's properties besides its targets and mode: parts equal in these may merge.
auto properties(const MovePart& p) {
  return std::tuple(p.kind, p.range, p.rides, p.from_zone, p.to_zone, p.leaves_ghost, p.takes_ghost, p.after_screen);
}

std::vector<Offset> sorted(std::vector<Offset> list) {
  std::sort(list.begin(), list.end());
  return list;
}

bool same_leap(const LeapShape& a, const LeapShape& b) {
  return a.file == b.file && a.rank == b.rank && sorted(a.blocks) == sorted(b.blocks);
}

// One target of a part: its direction, or its leap.
bool same_target(const MovePart& a, const MovePart& b) {
  if (a.kind == PartKind::Leap) return same_leap(a.leaps[0], b.leaps[0]);
  return a.directions[0] == b.directions[0];
}

}  // namespace

BetzaReading read_betza(std::string_view text, int initial_zone) { return Reader(text, initial_zone).run(); }

std::vector<MovePart> merge_parts(const std::vector<MovePart>& parts) {
  // Every move alone: one target, the modes it has anywhere.
  std::vector<MovePart> single;
  for (const MovePart& part : parts) {
    const auto add = [&](MovePart one) {
      for (MovePart& s : single)
        if (properties(s) == properties(one) && same_target(s, one)) {
          s.mode |= one.mode;
          return;
        }
      single.push_back(std::move(one));
    };
    MovePart one = part;
    one.directions.clear();
    one.leaps.clear();
    for (const int d : part.directions) {
      one.directions = {d};
      add(one);
    }
    one.directions.clear();
    for (const LeapShape& leap : part.leaps) {
      one.leaps = {leap};
      add(one);
    }
  }
  // A step, or a shorter slide, along a direction that a longer slide takes in the same mode adds nothing.
  const std::vector<MovePart> written = single;
  for (MovePart& s : single) {
    if (s.kind != PartKind::Step && s.kind != PartKind::Slide) continue;
    for (const MovePart& t : written) {
      if (t.kind != PartKind::Slide || t.directions[0] != s.directions[0]) continue;
      if (std::tuple(t.from_zone, t.to_zone, t.leaves_ghost, t.takes_ghost) !=
          std::tuple(s.from_zone, s.to_zone, s.leaves_ghost, s.takes_ghost))
        continue;
      const bool longer = s.kind == PartKind::Step ? true : s.range != 0 && (t.range == 0 || t.range > s.range);
      if (longer) s.mode &= std::uint8_t(~t.mode);
    }
  }
  std::vector<MovePart> merged;
  for (const MovePart& s : single) {
    if (!s.mode) continue;
    auto into = std::find_if(merged.begin(), merged.end(),
                             [&](const MovePart& m) { return properties(m) == properties(s) && m.mode == s.mode; });
    if (into == merged.end()) {
      merged.push_back(s);
      continue;
    }
    into->directions.insert(into->directions.end(), s.directions.begin(), s.directions.end());
    into->leaps.insert(into->leaps.end(), s.leaps.begin(), s.leaps.end());
  }
  for (MovePart& m : merged) {
    std::sort(m.directions.begin(), m.directions.end());
    std::sort(m.leaps.begin(), m.leaps.end(), [](const LeapShape& a, const LeapShape& b) {
      return std::tie(a.file, a.rank) < std::tie(b.file, b.rank);
    });
  }
  return merged;
}

namespace {

// The shortest direction modifiers found that select exactly `wanted` of `atom`'s offsets: "" for
// all of them, none when no mix of groups does. Groups cover `wanted` by a search over its subsets;
// a single letter is written doubled where the next letter would pair with it.
std::optional<std::string> modifiers_for(const Atom& atom, const std::vector<Offset>& wanted) {
  if (sorted(targets(atom, {})) == sorted(wanted)) return "";
  std::vector<std::string> groups;
  for (const char c : std::string("fbvlrs")) groups.push_back(std::string(2, c));
  for (const char c : std::string("fbvhrls"))
    for (const char next : std::string("fbvhrls"))
      if (c != next && pairs_with(c, next)) groups.push_back(std::string{c, next});
  struct Choice {
    std::string group;
    unsigned mask;
  };
  std::vector<Choice> choices;
  for (const std::string& g : groups) {
    unsigned mask = 0;
    bool inside = true;
    for (const Offset& o : targets(atom, {g})) {
      const auto it = std::find(wanted.begin(), wanted.end(), o);
      if (it == wanted.end()) inside = false;
      else mask |= 1u << (it - wanted.begin());
    }
    if (inside && mask) choices.push_back({g, mask});
  }
  const unsigned all = (1u << wanted.size()) - 1;
  std::vector<int> cost(all + 1, 1 << 20);
  std::vector<std::pair<unsigned, std::size_t>> from(all + 1);  // the mask before, and the choice added
  cost[0] = 0;
  for (unsigned mask = 0; mask <= all; ++mask) {
    if (cost[mask] == 1 << 20) continue;
    for (std::size_t k = 0; k < choices.size(); ++k) {
      const unsigned next = mask | choices[k].mask;
      const int c = cost[mask] + (choices[k].group[0] == choices[k].group[1] ? 1 : 2);
      if (next != mask && c < cost[next]) {
        cost[next] = c;
        from[next] = {mask, k};
      }
    }
  }
  if (cost[all] == 1 << 20) return std::nullopt;
  std::vector<std::string> chosen;
  for (unsigned mask = all; mask; mask = from[mask].first) chosen.push_back(choices[from[mask].second].group);
  std::stable_sort(chosen.begin(), chosen.end(), [](const std::string& a, const std::string& b) {
    return (a[0] != a[1]) > (b[0] != b[1]);  // pairs first, where a single letter cannot join them
  });
  std::string out;
  for (std::size_t k = 0; k < chosen.size(); ++k) {
    const std::string& g = chosen[k];
    const bool joins_next = k + 1 < chosen.size() && pairs_with(g[0], chosen[k + 1][0]);
    out += g[0] == g[1] && !joins_next ? g.substr(0, 1) : g;
  }
  std::size_t i = 0;
  if (sorted(targets(atom, read_groups(out, i))) != sorted(wanted)) return std::nullopt;
  return out;
}

Offset offset_of(int d) { return {DirFile[d], DirRank[d]}; }

bool orthogonal(int d) { return d % 2 == 0; }

std::string zone_name(const std::vector<std::string>& zone_names, int zone) {
  return zone >= 0 && std::size_t(zone) < zone_names.size() ? zone_names[std::size_t(zone)] : "?";
}

std::string offset_text(const Offset& o) { return "(" + std::to_string(o.first) + "," + std::to_string(o.second) + ")"; }

class Writer {
 public:
  explicit Writer(const std::vector<std::string>& zone_names) : zone_names_(zone_names) {}

  BetzaText run(const std::vector<MovePart>& parts) {
    for (const MovePart& part : merge_parts(parts)) write(part);
    return text_;
  }

 private:
  void write(const MovePart& part) {
    std::string prefix;  // before the directions: i
    if (part.from_zone >= 0 && initial_zone_ < 0) initial_zone_ = part.from_zone;
    const bool initial = part.from_zone >= 0 && part.from_zone == initial_zone_ && part.mode == CanMove;
    std::string modal = part.mode == CanMove ? "m" : part.mode == CanCapture ? "c" : "";
    std::vector<std::string> beyond;
    if (part.from_zone >= 0 && !initial) beyond.push_back("from_zone " + zone_name(zone_names_, part.from_zone));
    if (part.to_zone >= 0) beyond.push_back("to_zone " + zone_name(zone_names_, part.to_zone));
    if (part.leaves_ghost) beyond.push_back("leaves_ghost");
    if (part.takes_ghost) beyond.push_back("takes_ghost");
    if (part.kind == PartKind::Hop && part.range) beyond.push_back("range " + std::to_string(part.range));
    if (initial) prefix = "i";
    std::string written;
    if (part.kind == PartKind::Leap) {
      written = leaps(part, prefix, modal);
    } else {
      std::vector<Offset> straight, diagonal;
      for (const int d : part.directions) (orthogonal(d) ? straight : diagonal).push_back(offset_of(d));
      const bool rides = part.kind != PartKind::Step;
      const std::string hop = part.kind != PartKind::Hop ? "" : part.after_screen == 1 ? "g" : "p";
      const int reach = part.kind == PartKind::Slide ? part.range : part.kind == PartKind::Hop && part.after_screen > 1 ? part.after_screen : 0;
      const std::string suffix = reach ? std::to_string(reach) : "";
      if (straight.size() == 4 && diagonal.size() == 4) {
        written = prefix + modal + hop + (rides ? "Q" : "K") + suffix;
      } else {
        for (const auto& [list, letter] : {std::pair(&straight, rides ? 'R' : 'W'), std::pair(&diagonal, rides ? 'B' : 'F')})
          if (!list->empty()) written += atom_text(*atom_named(letter), *list, prefix, modal + hop, suffix);
      }
    }
    for (const std::string& b : beyond) text_.unsaid.push_back(b + " (" + written + ")");
    text_.betza += written;
  }

  // The leaps of a part, one Betza atom for each of its shapes, lame where blocked on the
  // reference's path; a shape Betza has no atom for goes to `unsaid`.
  std::string leaps(const MovePart& part, const std::string& prefix, const std::string& modal) {
    struct Group {
      const Atom* atom;
      bool lame;
      std::vector<Offset> to;
    };
    std::vector<Group> groups;
    for (const LeapShape& leap : part.leaps) {
      const Offset to{leap.file, leap.rank};
      const int far = std::max(std::abs(leap.file), std::abs(leap.rank)), near = std::min(std::abs(leap.file), std::abs(leap.rank));
      const Atom* atom = nullptr;
      for (const Atom& a : Atoms)
        if (!a.rider && a.legs.size() == 1 && a.legs[0] == Offset{far, near} && far > 1) {
          atom = &a;
          break;
        }
      const bool lame = !leap.blocks.empty() && sorted(leap.blocks) == sorted(lame_path(to));
      if (!atom || (!leap.blocks.empty() && !lame)) {
        std::string blocks;
        for (const Offset& b : leap.blocks) blocks += (blocks.empty() ? " blocked at " : ", ") + offset_text(b);
        text_.unsaid.push_back("leap " + offset_text(to) + blocks);
        continue;
      }
      auto group = std::find_if(groups.begin(), groups.end(), [&](const Group& g) { return g.atom == atom && g.lame == lame; });
      if (group == groups.end()) groups.push_back({atom, lame, {to}});
      else group->to.push_back(to);
    }
    // A ride doubles its atom (NN), or gives its most leaps (N3).
    const std::string ride = !part.rides ? "" : part.range ? std::to_string(part.range) : "";
    std::string out;
    for (const Group& g : groups)
      out += atom_text(*g.atom, g.to, prefix, modal + (g.lame ? "n" : ""), part.rides && !part.range ? std::string(1, g.atom->letter) : ride);
    return out;
  }

  std::string atom_text(const Atom& atom, const std::vector<Offset>& to, const std::string& prefix, const std::string& before,
                        const std::string& suffix) {
    const std::optional<std::string> directions = modifiers_for(atom, to);
    if (!directions) {
      std::string list;
      for (const Offset& o : to) list += (list.empty() ? "" : ", ") + offset_text(o);
      text_.unsaid.push_back(std::string(1, atom.letter) + " to " + list + " only");
      return "";
    }
    return prefix + *directions + before + atom.letter + suffix;
  }

  const std::vector<std::string>& zone_names_;
  int initial_zone_ = -1;
  BetzaText text_;
};

const char* const DirectionWords[DirectionCount] = {"forward",  "forward-right", "right", "backward-right",
                                                    "backward", "backward-left", "left",  "forward-left"};

std::string direction_words(const std::vector<int>& directions) {
  const std::vector<int> all{0, 1, 2, 3, 4, 5, 6, 7}, straight{0, 2, 4, 6}, diagonal{1, 3, 5, 7};
  if (directions == all) return "in all 8 directions";
  if (directions == straight) return "orthogonally";
  if (directions == diagonal) return "diagonally";
  std::vector<std::string> words;
  for (const int d : directions) words.push_back(DirectionWords[d]);
  return listed(words, "or");
}

std::string leap_words(const MovePart& part) {
  // Leaps grouped by shape: "(1,2) in all 8 directions" when every turn of it is there.
  std::vector<std::string> phrases;
  std::vector<bool> done(part.leaps.size(), false);
  for (std::size_t i = 0; i < part.leaps.size(); ++i) {
    if (done[i]) continue;
    const auto shape = [](const LeapShape& l) {
      return std::pair(std::min(std::abs(l.file), std::abs(l.rank)), std::max(std::abs(l.file), std::abs(l.rank)));
    };
    std::vector<std::string> offsets;
    std::size_t count = 0;
    bool lame = true, free = true;
    for (std::size_t j = i; j < part.leaps.size(); ++j) {
      const LeapShape& l = part.leaps[j];
      if (done[j] || shape(l) != shape(part.leaps[i])) continue;
      done[j] = true;
      ++count;
      offsets.push_back(offset_text({l.file, l.rank}));
      lame = lame && !l.blocks.empty() && sorted(l.blocks) == sorted(lame_path({l.file, l.rank}));
      free = free && l.blocks.empty();
      if (!l.blocks.empty() && !lame) {
        std::vector<std::string> blocks;
        for (const Offset& b : l.blocks) blocks.push_back(offset_text(b));
        offsets.back() += " unless " + listed(blocks, "or") + " is occupied";
      }
    }
    const auto [near, far] = shape(part.leaps[i]);
    const std::size_t turns = near == 0 || near == far ? 4 : 8;
    std::string phrase = "(" + std::to_string(near) + "," + std::to_string(far) + ") ";
    phrase += count == turns ? "in all " + std::to_string(turns) + " directions" : "to " + listed(offsets, "and");
    if (lame) phrase += ", unless a point on its way is occupied";
    phrases.push_back(phrase);
  }
  if (!part.rides) return "leaps " + listed(phrases, "and");
  std::string ride = "rides the leaps " + listed(phrases, "and") + ", again and again over empty points";
  if (part.range) ride += ", up to " + std::to_string(part.range) + " leaps";
  return ride;
}

}  // namespace

BetzaText write_betza(const std::vector<MovePart>& parts, const std::vector<std::string>& zone_names) {
  return Writer(zone_names).run(parts);
}

std::string describe_parts(const std::vector<MovePart>& parts, const std::vector<std::string>& zone_names) {
  std::vector<std::string> phrases;
  for (const MovePart& part : merge_parts(parts)) {
    std::string phrase;
    switch (part.kind) {
      case PartKind::Step:
        phrase = "steps " + direction_words(part.directions);
        break;
      case PartKind::Slide:
        phrase = "slides " + direction_words(part.directions);
        if (part.range) phrase += " up to " + std::to_string(part.range) + (part.range == 1 ? " point" : " points");
        break;
      case PartKind::Hop:
        phrase = "hops over one piece " + direction_words(part.directions);
        if (part.range) phrase += " within " + std::to_string(part.range) + " points";
        if (part.after_screen == 1) phrase += ", landing just past it";
        else if (part.after_screen) phrase += ", landing at most " + std::to_string(part.after_screen) + " points past it";
        break;
      case PartKind::Leap:
        phrase = leap_words(part);
        break;
    }
    if (part.mode == CanMove) phrase += ", moving only";
    if (part.mode == CanCapture) phrase += ", capturing only";
    if (part.from_zone >= 0) phrase += ", from " + zone_name(zone_names, part.from_zone);
    if (part.to_zone >= 0) phrase += ", into " + zone_name(zone_names, part.to_zone);
    if (part.leaves_ghost) phrase += ", leaving the points it skips capturable (en passant)";
    if (part.takes_ghost) phrase += ", capturing en passant too";
    phrases.push_back(phrase);
  }
  std::string out;
  for (const std::string& p : phrases) out += (out.empty() ? "" : "; ") + p;
  return out.empty() ? "does not move" : out;
}

}  // namespace palace
