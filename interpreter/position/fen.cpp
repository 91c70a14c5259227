// FEN, read and written: the board and hands, the side to move, the compound-move and castling
// rights, the points a leap skipped, the check counters, the endgame count and the clocks, each in
// the form the reference engine writes for the variant. Reading goes field by field into a scratch
// position, so that a FEN refused at any step leaves the position as it was.
#include "position/position.h"

#include <algorithm>
#include <cctype>
#include <cstdlib>
#include <sstream>

#include "core/text.h"
#include "position/endgame_count.h"

namespace palace {

namespace {

// A FEN's fields as text, before any is checked against the variant; the defaults stand for the
// fields a FEN may leave out.
struct FenFields {
  std::string placement, side, rights = "-", ghost = "-", checks, quiet = "0", fullmove = "1";
};

bool all_digits(const std::string& text) {
  return std::all_of(text.begin(), text.end(), [](char c) { return std::isdigit(static_cast<unsigned char>(c)); });
}

FenFields split_fields(const std::string& fen, bool counts_checks) {
  FenFields f;
  std::istringstream in(fen);
  in >> f.placement >> f.side >> f.rights >> f.ghost;
  // Where checks are counted, the checks each side still needs may follow the ghost square: 3+3.
  if (counts_checks) {
    const auto before = in.tellg();
    if (std::string next; in >> next && next.find('+') != std::string::npos) {
      f.checks = next;
    } else {
      in.clear();
      in.seekg(before);
    }
  }
  in >> f.quiet >> f.fullmove;
  if (f.placement.empty()) throw FenError("FEN is empty");
  std::string extra;
  if (in >> extra) throw FenError("FEN: unexpected text " + quote(extra) + " after the move number");
  return f;
}

// The hands in brackets after the board, cut off the placement: "[Pp]" or "[]".
std::string split_off_hands(FenFields& f) {
  const auto open = f.placement.find('[');
  if (open == std::string::npos || f.placement.back() != ']')
    throw FenError("FEN hands: expected the hands in brackets after the board, like [Pp] or []");
  std::string hands = f.placement.substr(open + 1, f.placement.size() - open - 2);
  f.placement.resize(open);
  // The hand games' own FEN leaves out the rights and ghost fields: "... w 0 1".
  if (!f.rights.empty() && all_digits(f.rights)) {
    f.fullmove.swap(f.ghost);
    f.quiet.swap(f.rights);
    f.rights.assign(1, '-');
    f.ghost.assign(1, '-');
    if (f.fullmove == "-") f.fullmove.assign(1, '1');
  }
  return hands;
}

// "[]" or "[-]", which the reference engine writes after the board of any variant it gives hands
// to: said of a variant without hands it holds nothing false, so it is read and ignored.
bool is_empty_hand(const std::string& hands) { return hands.empty() || hands == "-"; }

int read_number(const std::string& text, const char* field, int min, int max) {
  auto out_of_range = [&] {
    return FenError(std::string("FEN ") + field + ": expected a number from " + std::to_string(min) + " to " +
                    std::to_string(max) + ", got " + quote(text));
  };
  long value = 0;
  for (char c : text) {
    if (!std::isdigit(static_cast<unsigned char>(c))) throw out_of_range();
    value = value * 10 + (c - '0');
    if (value > max) throw out_of_range();
  }
  if (text.empty() || value < min) throw out_of_range();
  return int(value);
}

}  // namespace

void Position::set_fen(const std::string& fen, FenRights rights) {
  FenFields f = split_fields(fen, variant_->ends().get<ChecksGiven>().limit != 0);
  // Into a scratch copy, so that a bad FEN leaves this position exactly as it was.
  Position next(*this);
  next.clear();
  if (variant_->has_hands())
    next.read_hands(split_off_hands(f));
  else if (f.placement.find('[') != std::string::npos && !is_empty_hand(split_off_hands(f)))
    throw FenError("FEN hands: this variant has no hands; only an empty [] may follow the board");
  next.read_board(f.placement);
  next.check_move_list_bound();
  next.read_side_to_move(f.side);
  next.read_rights(f.rights, rights);
  // Where the endgame count runs, its limit stands in place of the ghost square and the plies it has
  // counted in place of the half-move clock, as the reference engine writes them.
  const bool counting = variant_->ends().get<EndgameCount>().on() && !f.ghost.empty() && all_digits(f.ghost);
  if (f.ghost != "-" && !counting) next.read_ghosts(f.ghost, rights);
  if (!f.checks.empty()) next.read_check_counters(f.checks);
  next.check_royals_present();
  StateRecord& st = next.states_.back();
  if (counting) {
    st.count_limit = std::uint16_t(read_number(f.ghost, "endgame count limit", 1, 65535));
    st.count_plies = std::uint16_t(read_number(f.quiet, "endgame count", 0, 65535));
  } else {
    st.quiet_plies = std::uint16_t(read_number(f.quiet, "half-move clock", 0, 65535));
  }
  next.fullmove_base_ = read_number(f.fullmove, "move number", 1, 1000000);
  next.start_side_ = next.side_;
  st.royals_facing = next.facing_flag();
  st.count_blocked = count_blocked(next);
  st.hash = next.compute_hash();
  *this = std::move(next);
}

// The points rank by rank from the top, the pieces by their letters, runs of empty points by numbers.
void Position::read_board(const std::string& placement) {
  const BoardDef& board = variant_->board();
  int rank = board.ranks - 1, file = 0;
  for (std::size_t i = 0; i < placement.size(); ++i) {
    const char c = placement[i];
    auto rank_name = [&] { return "FEN board: rank " + std::to_string(rank + 1); };
    // The point a hole's `*` or a piece's letter stands for, the rank's next.
    auto next_point = [&] {
      if (file >= board.files) throw FenError(rank_name() + " has more than " + std::to_string(board.files) + " points");
      return board.square(file++, rank);
    };
    if (c == '/') {
      if (file != board.files)
        throw FenError(rank_name() + " has " + std::to_string(file) + " points, expected " + std::to_string(board.files));
      if (--rank < 0) throw FenError("FEN board: more than " + std::to_string(board.ranks) + " ranks");
      file = 0;
    } else if (std::isdigit(static_cast<unsigned char>(c))) {
      if (c == '0') throw FenError(rank_name() + ": a run of empty points cannot start with 0");
      int run = 0;
      for (; i < placement.size() && std::isdigit(static_cast<unsigned char>(placement[i])); ++i) {
        run = run * 10 + (placement[i] - '0');
        if (file + run > board.files) throw FenError(rank_name() + " has more than " + std::to_string(board.files) + " points");
      }
      --i;
      for (const int end = file + run; file < end; ++file)
        if (board.is_hole(board.square(file, rank)))
          throw FenError("FEN board: " + board.point_name(board.square(file, rank)) + " is a hole, written *");
    } else if (c == '*') {
      const Point s = next_point();
      if (!board.is_hole(s)) throw FenError("FEN board: * on " + board.point_name(s) + ", which is not a hole");
    } else {
      // A promoted piece may be written with a `+` before its letter or a `~` after it.
      std::string text(1, c);
      if (c == '+' && i + 1 < placement.size()) text += placement[++i];
      else if (i + 1 < placement.size() && placement[i + 1] == '~') text += placement[++i];
      const Piece p = variant_->piece_from_written(text);
      if (p == NoPiece) throw FenError("FEN board: unknown piece letter " + quote(text) + " on rank " + std::to_string(rank + 1));
      const Point s = next_point();
      if (board.is_hole(s)) throw FenError("FEN board: " + text + " on " + board.point_name(s) + ", a hole");
      const PieceDef& def = variant_->rules().pieces[kind_of(p)];
      if (def.stay_in >= 0 && !variant_->rules().sides[side_of(p)].zones[def.stay_in][s])
        throw FenError("FEN board: " + def.name + " on " + board.point_name(s) + " is outside its zone '" +
                       variant_->rules().zone_names[def.stay_in] + "'");
      if (def.royal && !variant_->rules().sides[side_of(p)].royal)
        throw FenError("FEN board: " + variant_->side_name(side_of(p)) + " plays without a royal piece but has a " + def.name +
                       " on " + board.point_name(s));
      if (def.royal && royal_[side_of(p)] != NoPoint)
        throw FenError("FEN board: " + variant_->side_name(side_of(p)) + " has more than one " + def.name);
      put(p, s);
    }
  }
  if (rank != 0) throw FenError("FEN board: " + std::to_string(board.ranks - rank) + " ranks, expected " + std::to_string(board.ranks));
  if (file != board.files)
    throw FenError("FEN board: rank 1 has " + std::to_string(file) + " points, expected " + std::to_string(board.files));
}

// The move list has room for MaxMoves: refuse pieces that could make more in one position.
void Position::check_move_list_bound() const {
  if (variant_->has_hands()) {
    std::vector<int> family_count(variant_->kinds(), 0);
    for (Point s = Point(0); s < variant_->squares(); ++s)
      if (board_[s]) ++family_count[variant_->family(kind_of(board_[s]))];
    for (Side s = First; s < SideCount; ++s)
      for (Kind k : variant_->hand_kinds()) family_count[k] += hand_.count[s][k];
    // Every one of them could end up in one hand, whose hash keys count to MaxHandCount.
    for (Kind k : variant_->hand_kinds())
      if (family_count[k] > MaxHandCount)
        throw FenError("FEN: " + std::to_string(family_count[k]) + " pieces go to a hand as " + variant_->kind_name(k) +
                       "; a hand holds at most " + std::to_string(MaxHandCount) + " of a kind");
    const int bound = variant_->most_moves_with_hands(family_count);
    if (bound > MaxMoves)
      throw FenError("FEN: these pieces could make up to " + std::to_string(bound) + " moves in one position; at most " +
                     std::to_string(MaxMoves) + " are supported");
  }
  for (Side s = First; s < SideCount && !variant_->has_hands(); ++s) {
    const int bound = variant_->most_moves(s, count_[s]);
    if (bound > MaxMoves)
      throw FenError("FEN board: " + variant_->side_name(s) + " has " + std::to_string(count_[s]) +
                     " pieces, which could make up to " + std::to_string(bound) + " moves; at most " +
                     std::to_string(MaxMoves) + " are supported");
  }
}

void Position::read_side_to_move(const std::string& side) {
  if (side.empty()) throw FenError("FEN side to move: missing (expected w or b)");
  if (side != "w" && side != "b") throw FenError("FEN side to move: expected w or b, got " + quote(side));
  side_ = side == "w" ? First : Second;
}

void Position::read_rights(const std::string& rights, FenRights mode) {
  const BoardDef& board = variant_->board();
  if (rights == "-") return;
  for (char c : rights) {
    const int i = compound_for_right(c);
    if (i < 0) throw FenError("FEN rights: unknown right " + quote(std::string(1, c)));
    const CompoundMove& m = variant_->compound_moves()[i];
    if (board_[m.from] != make_piece(m.side, m.kind) || board_[m.partner_from] != make_piece(m.side, m.partner)) {
      if (mode == FenRights::DropUnmet) continue;
      throw FenError(std::string("FEN rights: '") + c + "' needs the " + variant_->kind_name(m.kind) + " on " +
                     board.point_name(m.from) + " and the " + variant_->kind_name(m.partner) + " on " +
                     board.point_name(m.partner_from));
    }
    states_.back().rights |= std::uint16_t(1u << m.right);
  }
}

int Position::compound_for_right(char letter) const {
  const RuleSet& rules = variant_->rules();
  for (std::size_t i = 0; i < rules.compound_moves.size(); ++i)
    if (rules.compound_moves[i].wing < 0 && rules.compound_moves[i].right == letter) return int(i);
  if (rules.castling.kind < 0 || !std::isalpha(static_cast<unsigned char>(letter))) return -1;
  // Castling rights name a wing's outermost partner (K, Q) or a partner's file (Shredder's H, A).
  const bool upper = std::isupper(static_cast<unsigned char>(letter));
  const Side side = rules.sides[0].upper_case == upper ? First : Second;
  const char capital = char(std::toupper(static_cast<unsigned char>(letter)));
  for (std::size_t w = 0; w < rules.castling.wings.size(); ++w)
    if (rules.castling.wings[w].right == capital) return outermost_castling(side, int(w));
  const int file = capital - 'A';
  if (file >= variant_->board().files) return -1;
  return castling_move(side, variant_->board().square(file, rules.castling.home_rank[side]));
}

std::string Position::rights_text(bool wing_letters) const {
  const RuleSet& rules = variant_->rules();
  const auto& compounds = variant_->compound_moves();
  const auto held = [&](std::size_t i) { return state().rights >> compounds[i].right & 1; };
  std::string text;
  for (std::size_t i = 0; i < compounds.size(); ++i)
    if (rules.compound_moves[i].wing < 0 && held(i)) text += rules.compound_moves[i].right;
  // Castling as X-FEN writes it: the wing's letter for its outermost partner, else the file.
  for (Side s = First; s < SideCount; ++s)
    for (std::size_t w = 0; w < rules.castling.wings.size(); ++w) {
      const int outermost = outermost_castling(s, int(w));
      for (std::size_t i = 0; i < compounds.size(); ++i) {
        if (rules.compound_moves[i].wing != int(w) || compounds[i].side != s || !held(i) ||
            compounds[i].from != castling_piece(s))
          continue;
        const char right = wing_letters && int(i) == outermost ? rules.castling.wings[w].right : rules.compound_moves[i].right;
        text += rules.sides[s].upper_case ? right : char(std::tolower(static_cast<unsigned char>(right)));
      }
    }
  return text;
}

// The FEN names the points a leap skipped and, unless it stands one step beyond the skipped point
// nearest it, the leaper's point too, all in ascending order: "e3", "c3d4" (a Berolina pawn's
// b2-d4), "e3e4" (a triple step e2-e5). The leaper is the one occupied point.
void Position::read_ghosts(const std::string& text, FenRights mode) {
  const BoardDef& board = variant_->board();
  const Side mover = opponent(side_);
  // A ghost no piece has just made: refused, or dropped from a position set up by hand.
  const auto unmet = [&] {
    if (mode == FenRights::Exact) throw FenError("FEN ghost square: no " + variant_->side_name(mover) + " piece has just skipped " + text);
    StateRecord& st = states_.back();
    st.ghost = st.ghost_end = st.ghost_victim = NoPoint;
  };
  std::vector<Point> skipped;
  Point victim = NoPoint;
  for (std::size_t begin = 0; begin < text.size();) {
    const auto end = std::find_if(text.begin() + std::ptrdiff_t(begin) + 1, text.end(),
                                  [](char c) { return std::isalpha(static_cast<unsigned char>(c)); });
    const Point s = board.parse_point(std::string(text.begin() + std::ptrdiff_t(begin), end));
    if (s == NoPoint) throw FenError("FEN ghost square: " + quote(text) + " is not a point of the board");
    if (board_[s] == NoPiece) skipped.push_back(s);
    else if (victim == NoPoint) victim = s;
    else return unmet();
    begin = std::size_t(end - text.begin());
  }
  if (skipped.empty()) return unmet();
  // Without the leaper named, it stands beyond the skipped point furthest forward.
  if (victim == NoPoint)
    for (const Point s : skipped)
      if (const Point beyond = beyond_ghost(s, mover); beyond != NoPoint && board_[beyond] != NoPiece) victim = beyond;
  if (victim == NoPoint || side_of(board_[victim]) != mover) return unmet();
  StateRecord& st = states_.back();
  st.ghost_victim = victim;
  // The skipped points run in a line up to the leaper, the first furthest from it.
  auto offset = [&](Point s) { return std::pair(board.file_of(s) - board.file_of(victim), board.rank_of(s) - board.rank_of(victim)); };
  auto distance = [&](Point s) { const auto [f, r] = offset(s); return std::max(std::abs(f), std::abs(r)); };
  st.ghost = *std::max_element(skipped.begin(), skipped.end(), [&](Point a, Point b) { return distance(a) < distance(b); });
  st.ghost_end = step_toward(victim, st.ghost);
  const auto [f, r] = offset(st.ghost);
  const bool straight = f == 0 || r == 0 || std::abs(f) == std::abs(r);
  if (!straight || int(skipped.size()) != distance(st.ghost) ||
      !std::all_of(skipped.begin(), skipped.end(), [&](Point s) { return is_ghost(s); }))
    return unmet();
}

std::string Position::ghosts_text() const {
  const StateRecord& st = state();
  if (st.ghost == NoPoint) return "-";
  std::vector<Point> named;
  for (Point s = st.ghost;; s = step_toward(s, st.ghost_end)) {
    named.push_back(s);
    if (s == st.ghost_end) break;
  }
  if (st.ghost_victim != beyond_ghost(st.ghost_end, opponent(side_))) named.push_back(st.ghost_victim);
  std::sort(named.begin(), named.end());
  std::string text;
  for (const Point s : named) text += variant_->board().point_name(s);
  return text;
}

void Position::read_check_counters(const std::string& text) {
  const int limit = variant_->ends().get<ChecksGiven>().limit;
  const auto plus = text.find('+');
  const std::string counts[SideCount] = {text.substr(0, plus), text.substr(plus + 1)};
  for (Side s = First; s < SideCount; ++s) {
    const std::string& count = counts[s];
    const bool digits = !count.empty() && count.size() <= 2 && all_digits(count);
    if (!digits || std::stoi(count) > limit)
      throw FenError("FEN check counters: expected the checks each side still needs, two numbers from 0 to " +
                     std::to_string(limit) + " like " + std::to_string(limit) + "+" + std::to_string(limit) + ", got " +
                     quote(text));
    states_.back().checks_needed[s] = std::uint8_t(std::stoi(count));
  }
}

// "[Nnp]", "[]" or "[-]": upper case letters are the hand of the side written in upper case.
void Position::read_hands(const std::string& text) {
  if (text == "-") return;
  for (const char c : text) {
    const Piece p = variant_->piece_from_written(std::string(1, c));
    const Kind kind = p == NoPiece ? NoKind : kind_of(p);
    if (kind < 0 || variant_->joins_hand_as(kind) != kind)
      throw FenError("FEN hands: " + quote(std::string(1, c)) + " is not a piece a hand can hold");
    if (hand_.count[side_of(p)][kind] == MaxHandCount)
      throw FenError("FEN hands: more than " + std::to_string(MaxHandCount) + " of one piece");
    ++hand_.count[side_of(p)][kind];
  }
}

std::string Position::hands_text() const {
  std::string out = "[";
  for (const bool upper : {true, false})
    for (Side s = First; s < SideCount; ++s)
      if (variant_->rules().sides[s].upper_case == upper)
        for (Kind k : variant_->hand_kinds()) out.append(hand_.count[s][k], variant_->letter(make_piece(s, k)));
  return out + "]";
}

void Position::check_royals_present() const {
  // Where an explosion can take a royal, a FEN may show the game it ended.
  if (royal_may_be_taken() || variant_->explosive()) return;
  for (Side s = First; s < SideCount; ++s) {
    const auto& setup = variant_->rules().setup[s];
    const auto royal = std::find_if(setup.begin(), setup.end(), [&](const Placement& p) { return variant_->royal(p.kind); });
    if (royal != setup.end() && royal_[s] == NoPoint)
      throw FenError("FEN board: " + variant_->side_name(s) + " has no " + variant_->kind_name(royal->kind));
  }
}

std::string Position::fen(const FenOmissions& omit) const {
  const BoardDef& board = variant_->board();
  std::string out;
  for (int rank = board.ranks - 1; rank >= 0; --rank) {
    int empty = 0;
    for (int file = 0; file < board.files; ++file) {
      const Point point = board.square(file, rank);
      const bool hidden = board.is_hole(point) || (!omit.hidden.empty() && omit.hidden[std::size_t(point)]);
      const Piece p = board_[point];
      if (!p && !hidden) {
        ++empty;
        continue;
      }
      if (empty) out += std::to_string(empty);
      empty = 0;
      out += hidden ? "*" : variant_->written(p);
    }
    if (empty) out += std::to_string(empty);
    if (rank) out += '/';
  }
  if (variant_->has_hands()) out += hands_text();
  const StateRecord& st = state();
  out += side_ == 0 ? " w " : " b ";
  const std::string rights = rights_text(!omit.wing_letters);
  out += rights.empty() ? "-" : rights;
  std::vector<std::string> fields = {st.count_limit ? std::to_string(st.count_limit) : omit.ghosts ? "-" : ghosts_text()};
  if (variant_->ends().get<ChecksGiven>().limit)
    fields.push_back(std::to_string(st.checks_needed[0]) + "+" + std::to_string(st.checks_needed[1]));
  fields.push_back(std::to_string(st.count_limit ? st.count_plies : st.quiet_plies));
  fields.push_back(std::to_string(fullmove_number()));
  for (const std::string& field : fields) {
    out += ' ';
    out += field;
  }
  return out;
}

}  // namespace palace
