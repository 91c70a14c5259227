#include "position/position.h"

#include <algorithm>
#include <cassert>
#include <cctype>
#include <cstdlib>
#include <sstream>

#include "core/text.h"
#include "movegen/movegen.h"
#include "position/endgame_count.h"

namespace palace {

namespace {

// After a move: where checks are counted and the move gives check, the mover needs one fewer.
[[gnu::noinline]] void count_check(const Position& pos, std::uint8_t& needed, std::uint64_t& hash) {
  if (needed == 0 || !in_check(pos)) return;
  const Side mover = opponent(pos.side_to_move());
  hash ^= pos.variant().checks_key(mover, needed) ^ pos.variant().checks_key(mover, needed - 1);
  --needed;
}

}  // namespace

Position::Position(std::shared_ptr<const Variant> variant) : variant_(std::move(variant)), hooks_(*variant_) {
  states_.reserve(1024);
  edits_.reserve(256);
  set_start();
}

void Position::clear() {
  board_.fill(NoPiece);
  count_ = {0, 0};
  royal_ = {NoSquare, NoSquare};
  hand_ = Hand();
  states_.clear();
  states_.reserve(1024);
  states_.emplace_back();
  edits_.clear();
  const int checks = variant_->game_rules().check_limit;
  states_.back().checks_needed = {std::uint8_t(checks), std::uint8_t(checks)};
}

void Position::put(Piece p, Square s) {
  const Side side = side_of(p);
  board_[s] = p;
  list_index_[s] = std::uint8_t(count_[side]);
  list_[side][count_[side]++] = s;
  if (variant_->royal(kind_of(p))) royal_[side] = s;
}

void Position::remove(Square s) {
  const Piece p = board_[s];
  const Side side = side_of(p);
  const Square last = list_[side][--count_[side]];
  list_[side][list_index_[s]] = last;
  list_index_[last] = list_index_[s];
  board_[s] = NoPiece;
  if (royal_[side] == s) royal_[side] = NoSquare;
}

void Position::relocate(Square from, Square to) {
  const Piece p = board_[from];
  board_[to] = p;
  board_[from] = NoPiece;
  list_index_[to] = list_index_[from];
  list_[side_of(p)][list_index_[to]] = to;
  if (royal_[side_of(p)] == from) royal_[side_of(p)] = to;
}

std::uint64_t Position::compute_hash() const {
  const StateRecord& st = states_.back();
  std::uint64_t h = side_ ? variant_->side_key() : 0;
  for (Square s = 0; s < variant_->squares(); ++s)
    if (board_[s]) h ^= variant_->piece_key(board_[s], s);
  if (st.ghost != NoSquare) h ^= variant_->ghost_key(st.ghost);
  if (variant_->game_rules().check_limit)
    for (Side s = 0; s < SideCount; ++s) h ^= variant_->checks_key(s, st.checks_needed[s]);
  if (variant_->has_hands())
    for (Side s = 0; s < SideCount; ++s)
      for (int k : variant_->hand_kinds())
        for (int n = 1; n <= hand_.count[s][k]; ++n) h ^= variant_->hand_key(s, k, n);
  return h ^ variant_->rights_key(st.rights);
}

// A hand's hash holds one key for each piece of a kind held: the n-th piece's key comes and goes
// with it.
std::uint64_t Position::to_hand(Side side, int kind) { return variant_->hand_key(side, kind, ++hand_.count[side][kind]); }
std::uint64_t Position::from_hand(Side side, int kind) { return variant_->hand_key(side, kind, hand_.count[side][kind]--); }

// "[Nnp]", "[]" or "[-]": upper case letters are the hand of the side written in upper case.
void Position::read_hands(const std::string& text) {
  if (text == "-") return;
  for (const char c : text) {
    const Piece p = variant_->piece_from_written(std::string(1, c));
    const int kind = p == NoPiece ? -1 : kind_of(p);
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
    for (Side s = 0; s < SideCount; ++s)
      if (variant_->rules().sides[s].upper_case == upper)
        for (int k : variant_->hand_kinds()) out.append(hand_.count[s][k], variant_->letter(make_piece(s, k)));
  return out + "]";
}

void Position::set_start() {
  clear();
  const RuleSet& rules = variant_->rules();
  for (Side s = 0; s < SideCount; ++s)
    for (const Placement& p : rules.setup[s]) put(make_piece(s, p.kind), p.square);
  side_ = 0;
  fullmove_base_ = 1;
  start_side_ = 0;
  StateRecord& st = states_.back();
  // A compound move's right is held at the start whenever both its pieces stand ready; castling
  // from any start, with the outermost partner of each wing.
  const auto& compounds = variant_->compound_moves();
  for (std::size_t i = 0; i < compounds.size(); ++i) {
    const CompoundMove& c = compounds[i];
    if (rules.compound_moves[i].wing < 0 && board_[c.from] == make_piece(c.side, c.piece) &&
        board_[c.partner_from] == make_piece(c.side, c.partner))
      st.rights |= std::uint16_t(1u << c.right);
  }
  for (Side s = 0; s < SideCount; ++s)
    for (std::size_t w = 0; w < rules.castling.wings.size(); ++w)
      if (const int i = outermost_castling(s, int(w)); i >= 0) st.rights |= std::uint16_t(1u << compounds[i].right);
  st.royals_facing = facing_flag();
  st.count_blocked = count_blocked(*this);
  st.hash = compute_hash();
}

void Position::set_fen(const std::string& fen) {
  const BoardDef& board = variant_->board();
  std::istringstream in(fen);
  std::string placement, side, rights = "-", ghost = "-", checks, quiet = "0", fullmove = "1";
  in >> placement >> side >> rights >> ghost;
  // Where checks are counted, the checks each side still needs may follow the ghost square: 3+3.
  if (variant_->game_rules().check_limit) {
    const auto before = in.tellg();
    if (std::string next; in >> next && next.find('+') != std::string::npos) {
      checks = next;
    } else {
      in.clear();
      in.seekg(before);
    }
  }
  in >> quiet >> fullmove;
  if (placement.empty()) throw FenError("FEN is empty");
  std::string extra;
  if (in >> extra) throw FenError("FEN: unexpected text " + quote(extra) + " after the move number");

  // Parse into a scratch copy so that a bad FEN leaves this position exactly as it was.
  Position next(*this);
  next.clear();
  if (variant_->has_hands()) {
    const auto open = placement.find('[');
    if (open == std::string::npos || placement.back() != ']')
      throw FenError("FEN hands: expected the hands in brackets after the board, like [Pp] or []");
    next.read_hands(placement.substr(open + 1, placement.size() - open - 2));
    placement.resize(open);
    // The hand games' own FEN leaves out the rights and ghost fields: "... w 0 1".
    if (!rights.empty() && std::all_of(rights.begin(), rights.end(), [](char c) { return std::isdigit(static_cast<unsigned char>(c)); })) {
      fullmove.swap(ghost);
      quiet.swap(rights);
      rights.assign(1, '-');
      ghost.assign(1, '-');
      if (fullmove == "-") fullmove.assign(1, '1');
    }
  }
  int rank = board.ranks - 1, file = 0;
  for (std::size_t i = 0; i < placement.size(); ++i) {
    const char c = placement[i];
    auto rank_name = [&] { return "FEN board: rank " + std::to_string(rank + 1); };
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
      file += run;
    } else {
      // A promoted piece may be written with a `+` before its letter or a `~` after it.
      std::string text(1, c);
      if (c == '+' && i + 1 < placement.size()) text += placement[++i];
      else if (i + 1 < placement.size() && placement[i + 1] == '~') text += placement[++i];
      const Piece p = variant_->piece_from_written(text);
      if (p == NoPiece) throw FenError("FEN board: unknown piece letter " + quote(text) + " on rank " + std::to_string(rank + 1));
      if (file >= board.files) throw FenError(rank_name() + " has more than " + std::to_string(board.files) + " points");
      const Square s = board.square(file++, rank);
      const PieceDef& def = variant_->rules().pieces[kind_of(p)];
      if (def.stay_in >= 0 && !variant_->rules().sides[side_of(p)].zones[def.stay_in][s])
        throw FenError("FEN board: " + def.name + " on " + board.square_name(s) + " is outside its zone '" +
                       variant_->rules().zone_names[def.stay_in] + "'");
      if (def.royal && !variant_->rules().sides[side_of(p)].has_royal)
        throw FenError("FEN board: " + variant_->side_name(side_of(p)) + " plays without a royal piece but has a " + def.name +
                       " on " + board.square_name(s));
      if (def.royal && next.royal_[side_of(p)] != NoSquare)
        throw FenError("FEN board: " + variant_->side_name(side_of(p)) + " has more than one " + def.name);
      next.put(p, s);
    }
  }
  if (rank != 0) throw FenError("FEN board: " + std::to_string(board.ranks - rank) + " ranks, expected " + std::to_string(board.ranks));
  if (file != board.files)
    throw FenError("FEN board: rank 1 has " + std::to_string(file) + " points, expected " + std::to_string(board.files));
  if (variant_->has_hands()) {
    std::vector<int> family_count(variant_->kinds(), 0);
    for (Square s = 0; s < variant_->squares(); ++s)
      if (next.board_[s]) ++family_count[variant_->family(kind_of(next.board_[s]))];
    for (Side s = 0; s < SideCount; ++s)
      for (int k : variant_->hand_kinds()) family_count[k] += next.hand_.count[s][k];
    // Every one of them could end up in one hand, whose hash keys count to MaxHandCount.
    for (int k : variant_->hand_kinds())
      if (family_count[k] > MaxHandCount)
        throw FenError("FEN: " + std::to_string(family_count[k]) + " pieces go to a hand as " + variant_->kind_name(k) +
                       "; a hand holds at most " + std::to_string(MaxHandCount) + " of a kind");
    const int bound = variant_->most_moves_with_hands(family_count);
    if (bound > MaxMoves)
      throw FenError("FEN: these pieces could make up to " + std::to_string(bound) + " moves in one position; at most " +
                     std::to_string(MaxMoves) + " are supported");
  }
  for (Side s = 0; s < SideCount && !variant_->has_hands(); ++s) {
    const int bound = variant_->most_moves(s, next.count_[s]);
    if (bound > MaxMoves)
      throw FenError("FEN board: " + variant_->side_name(s) + " has " + std::to_string(next.count_[s]) +
                     " pieces, which could make up to " + std::to_string(bound) + " moves; at most " +
                     std::to_string(MaxMoves) + " are supported");
  }

  if (side.empty()) throw FenError("FEN side to move: missing (expected w or b)");
  if (side != "w" && side != "b") throw FenError("FEN side to move: expected w or b, got " + quote(side));
  next.side_ = side == "w" ? 0 : 1;

  StateRecord& st = next.states_.back();
  if (rights != "-") {
    for (char c : rights) {
      const int i = next.compound_for_right(c);
      if (i < 0) throw FenError("FEN rights: unknown right " + quote(std::string(1, c)));
      const CompoundMove& m = variant_->compound_moves()[i];
      if (next.board_[m.from] != make_piece(m.side, m.piece) || next.board_[m.partner_from] != make_piece(m.side, m.partner))
        throw FenError(std::string("FEN rights: '") + c + "' needs the " + variant_->kind_name(m.piece) + " on " +
                       board.square_name(m.from) + " and the " + variant_->kind_name(m.partner) + " on " +
                       board.square_name(m.partner_from));
      st.rights |= std::uint16_t(1u << m.right);
    }
  }
  // Where the endgame count runs, its limit stands in place of the ghost square and the plies it has
  // counted in place of the half-move clock, as the reference engine writes them.
  const bool counting = variant_->game_rules().endgame_count.on() && !ghost.empty() &&
                        std::all_of(ghost.begin(), ghost.end(), [](char c) { return std::isdigit(static_cast<unsigned char>(c)); });
  if (ghost != "-" && !counting) next.read_ghosts(ghost);
  auto number = [](const std::string& text, const char* field, int min, int max) {
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
  };
  if (!checks.empty()) next.read_check_counters(checks);
  next.check_royals_present();
  if (counting) {
    st.count_limit = std::uint16_t(number(ghost, "endgame count limit", 1, 65535));
    st.count_plies = std::uint16_t(number(quiet, "endgame count", 0, 65535));
  } else {
    st.quiet_plies = std::uint16_t(number(quiet, "half-move clock", 0, 65535));
  }
  next.fullmove_base_ = number(fullmove, "move number", 1, 1000000);
  next.start_side_ = next.side_;
  st.royals_facing = next.facing_flag();
  st.count_blocked = count_blocked(next);
  st.hash = next.compute_hash();
  *this = std::move(next);
}

Square Position::castling_piece(Side side) const {
  const CastlingDef& c = variant_->rules().castling;
  if (c.piece < 0) return NoSquare;
  const BoardDef& board = variant_->board();
  for (int file = 0; file < board.files; ++file)
    if (const Square s = board.square(file, c.home_rank[side]); board_[s] == make_piece(side, c.piece)) return s;
  return NoSquare;
}

int Position::castling_move(Side side, Square partner_from) const {
  const Square from = castling_piece(side);
  const auto& compounds = variant_->compound_moves();
  for (std::size_t i = 0; i < compounds.size(); ++i)
    if (variant_->rules().compound_moves[i].wing >= 0 && compounds[i].side == side && compounds[i].from == from &&
        compounds[i].partner_from == partner_from)
      return int(i);
  return -1;
}

int Position::outermost_castling(Side side, int wing) const {
  const CastlingDef& c = variant_->rules().castling;
  const Square from = castling_piece(side);
  if (from == NoSquare) return -1;
  const BoardDef& board = variant_->board();
  const bool right = c.wings[std::size_t(wing)].partners_right;
  // From the board's edge on the wing's side in towards the piece.
  for (int file = right ? board.files - 1 : 0; file != board.file_of(from); file += right ? -1 : 1)
    if (const Square s = board.square(file, c.home_rank[side]); board_[s] == make_piece(side, c.partner))
      return castling_move(side, s);
  return -1;
}

int Position::compound_for_right(char letter) const {
  const RuleSet& rules = variant_->rules();
  for (std::size_t i = 0; i < rules.compound_moves.size(); ++i)
    if (rules.compound_moves[i].wing < 0 && rules.compound_moves[i].right == letter) return int(i);
  if (rules.castling.piece < 0 || !std::isalpha(static_cast<unsigned char>(letter))) return -1;
  // Castling rights name a wing's outermost partner (K, Q) or a partner's file (Shredder's H, A).
  const bool upper = std::isupper(static_cast<unsigned char>(letter));
  const Side side = rules.sides[0].upper_case == upper ? 0 : 1;
  const char capital = char(std::toupper(static_cast<unsigned char>(letter)));
  for (std::size_t w = 0; w < rules.castling.wings.size(); ++w)
    if (rules.castling.wings[w].right == capital) return outermost_castling(side, int(w));
  const int file = capital - 'A';
  if (file >= variant_->board().files) return -1;
  return castling_move(side, variant_->board().square(file, rules.castling.home_rank[side]));
}

std::string Position::rights_text() const {
  const RuleSet& rules = variant_->rules();
  const auto& compounds = variant_->compound_moves();
  const auto held = [&](std::size_t i) { return state().rights >> compounds[i].right & 1; };
  std::string text;
  for (std::size_t i = 0; i < compounds.size(); ++i)
    if (rules.compound_moves[i].wing < 0 && held(i)) text += rules.compound_moves[i].right;
  // Castling as the reference writes it: the wing's letter for its outermost partner, else the file.
  for (Side s = 0; s < SideCount; ++s)
    for (std::size_t w = 0; w < rules.castling.wings.size(); ++w) {
      const int outermost = outermost_castling(s, int(w));
      for (std::size_t i = 0; i < compounds.size(); ++i) {
        if (rules.compound_moves[i].wing != int(w) || compounds[i].side != s || !held(i) ||
            compounds[i].from != castling_piece(s))
          continue;
        const char right = int(i) == outermost ? rules.castling.wings[w].right : rules.compound_moves[i].right;
        text += rules.sides[s].upper_case ? right : char(std::tolower(static_cast<unsigned char>(right)));
      }
    }
  return text;
}

Square Position::beyond_ghost(Square ghost, Side mover) const {
  const BoardDef& board = variant_->board();
  const int rank = board.rank_of(ghost) + variant_->rules().sides[mover].forward;
  return rank >= 0 && rank < board.ranks ? board.square(board.file_of(ghost), rank) : NoSquare;
}

bool Position::on_ghost_line(Square s) const {
  const BoardDef& board = variant_->board();
  const StateRecord& st = state();
  const int file = board.file_of(st.ghost), rank = board.rank_of(st.ghost);
  const int df = board.file_of(st.ghost_end) - file, dr = board.rank_of(st.ghost_end) - rank;
  const int sf = board.file_of(s) - file, sr = board.rank_of(s) - rank;
  const int n = std::max(std::abs(df), std::abs(dr)), k = std::max(std::abs(sf), std::abs(sr));
  return k <= n && sf * n == df * k && sr * n == dr * k;
}

Square Position::step_toward(Square from, Square to) const {
  const BoardDef& board = variant_->board();
  auto sign = [](int x) { return (x > 0) - (x < 0); };
  return board.square(board.file_of(from) + sign(board.file_of(to) - board.file_of(from)),
                      board.rank_of(from) + sign(board.rank_of(to) - board.rank_of(from)));
}

// The FEN names the points a leap skipped and, unless it stands one step beyond the skipped point
// nearest it, the leaper's point too, all in ascending order: "e3", "c3d4" (a Berolina pawn's
// b2-d4), "e3e4" (a triple step e2-e5). The leaper is the one occupied point.
void Position::read_ghosts(const std::string& text) {
  const BoardDef& board = variant_->board();
  const Side mover = opponent(side_);
  auto fail = [&] { return FenError("FEN ghost square: no " + variant_->side_name(mover) + " piece has just skipped " + text); };
  std::vector<Square> skipped;
  Square victim = NoSquare;
  for (std::size_t begin = 0; begin < text.size();) {
    const auto end = std::find_if(text.begin() + std::ptrdiff_t(begin) + 1, text.end(),
                                  [](char c) { return std::isalpha(static_cast<unsigned char>(c)); });
    const Square s = board.parse_square(std::string(text.begin() + std::ptrdiff_t(begin), end));
    if (s == NoSquare) throw FenError("FEN ghost square: " + quote(text) + " is not a point of the board");
    if (board_[s] == NoPiece) skipped.push_back(s);
    else if (victim == NoSquare) victim = s;
    else throw fail();
    begin = std::size_t(end - text.begin());
  }
  if (skipped.empty()) throw fail();
  // Without the leaper named, it stands beyond the skipped point furthest forward.
  if (victim == NoSquare)
    for (const Square s : skipped)
      if (const Square beyond = beyond_ghost(s, mover); beyond != NoSquare && board_[beyond] != NoPiece) victim = beyond;
  if (victim == NoSquare || side_of(board_[victim]) != mover) throw fail();
  StateRecord& st = states_.back();
  st.ghost_victim = victim;
  // The skipped points run in a line up to the leaper, the first furthest from it.
  auto offset = [&](Square s) { return std::pair(board.file_of(s) - board.file_of(victim), board.rank_of(s) - board.rank_of(victim)); };
  auto distance = [&](Square s) { const auto [f, r] = offset(s); return std::max(std::abs(f), std::abs(r)); };
  st.ghost = *std::max_element(skipped.begin(), skipped.end(), [&](Square a, Square b) { return distance(a) < distance(b); });
  st.ghost_end = step_toward(victim, st.ghost);
  const auto [f, r] = offset(st.ghost);
  const bool straight = f == 0 || r == 0 || std::abs(f) == std::abs(r);
  if (!straight || int(skipped.size()) != distance(st.ghost) ||
      !std::all_of(skipped.begin(), skipped.end(), [&](Square s) { return is_ghost(s); }))
    throw fail();
}

std::string Position::ghosts_text() const {
  const StateRecord& st = state();
  if (st.ghost == NoSquare) return "-";
  std::vector<Square> named;
  for (Square s = st.ghost;; s = step_toward(s, st.ghost_end)) {
    named.push_back(s);
    if (s == st.ghost_end) break;
  }
  if (st.ghost_victim != beyond_ghost(st.ghost_end, opponent(side_))) named.push_back(st.ghost_victim);
  std::sort(named.begin(), named.end());
  std::string text;
  for (const Square s : named) text += variant_->board().square_name(s);
  return text;
}

void Position::read_check_counters(const std::string& text) {
  const int limit = variant_->game_rules().check_limit;
  const auto plus = text.find('+');
  const std::string counts[SideCount] = {text.substr(0, plus), text.substr(plus + 1)};
  for (Side s = 0; s < SideCount; ++s) {
    const std::string& count = counts[s];
    const bool digits = !count.empty() && count.size() <= 2 &&
                        std::all_of(count.begin(), count.end(), [](char c) { return std::isdigit(static_cast<unsigned char>(c)); });
    if (!digits || std::stoi(count) > limit)
      throw FenError("FEN check counters: expected the checks each side still needs, two numbers from 0 to " +
                     std::to_string(limit) + " like " + std::to_string(limit) + "+" + std::to_string(limit) + ", got " +
                     quote(text));
    states_.back().checks_needed[s] = std::uint8_t(std::stoi(count));
  }
}

bool Position::royal_may_be_taken() const {
  const GameRules& rules = variant_->game_rules();
  return rules.facing_royals == FacingRule::Standoff && rules.pass != PassRule::Never;
}

void Position::check_royals_present() const {
  // Where an explosion can take a royal, a FEN may show the game it ended.
  if (royal_may_be_taken() || variant_->explosive()) return;
  for (Side s = 0; s < SideCount; ++s) {
    const auto& setup = variant_->rules().setup[s];
    const auto royal = std::find_if(setup.begin(), setup.end(), [&](const Placement& p) { return variant_->royal(p.kind); });
    if (royal != setup.end() && royal_[s] == NoSquare)
      throw FenError("FEN board: " + variant_->side_name(s) + " has no " + variant_->kind_name(royal->kind));
  }
}

std::string Position::fen() const {
  const BoardDef& board = variant_->board();
  std::string out;
  for (int rank = board.ranks - 1; rank >= 0; --rank) {
    int empty = 0;
    for (int file = 0; file < board.files; ++file) {
      const Piece p = board_[board.square(file, rank)];
      if (!p) {
        ++empty;
        continue;
      }
      if (empty) out += std::to_string(empty);
      empty = 0;
      out += variant_->written(p);
    }
    if (empty) out += std::to_string(empty);
    if (rank) out += '/';
  }
  if (variant_->has_hands()) out += hands_text();
  const StateRecord& st = state();
  out += side_ == 0 ? " w " : " b ";
  const std::string rights = rights_text();
  out += rights.empty() ? "-" : rights;
  std::vector<std::string> fields = {st.count_limit ? std::to_string(st.count_limit) : ghosts_text()};
  if (variant_->game_rules().check_limit)
    fields.push_back(std::to_string(st.checks_needed[0]) + "+" + std::to_string(st.checks_needed[1]));
  fields.push_back(std::to_string(st.count_limit ? st.count_plies : st.quiet_plies));
  fields.push_back(std::to_string(fullmove_number()));
  for (const std::string& field : fields) {
    out += ' ';
    out += field;
  }
  return out;
}

bool Position::royals_facing() const {
  const Square a = royal_[0], b = royal_[1];
  if (a == NoSquare || b == NoSquare || variant_->board().file_of(a) != variant_->board().file_of(b)) return false;
  // Up the file from the lower royal, which every board has as a line, to the higher one.
  constexpr int Up = 0;
  const Square high = std::max(a, b);
  for (const Square* point = variant_->line_points(variant_->line(std::min(a, b), Up)); *point != high; ++point)
    if (board_[*point]) return false;
  return true;
}

// Only the facing-royals rules read the flag; where facing is ordinary, skip the file walk.
bool Position::facing_flag() const {
  return variant_->game_rules().facing_royals != FacingRule::Allowed && royals_facing();
}

void Position::do_move(Move m) {
  const Variant& v = *variant_;
  assert(m.is_pass() || m.type() == MoveType::Drop || (board_[m.from()] && side_of(board_[m.from()]) == side_));
  states_.push_back(states_.back());
  StateRecord& st = states_.back();
  const StateRecord& prev = states_[states_.size() - 2];
  std::uint64_t h = st.hash ^ v.side_key();
  st.move = m;
  st.captured = NoPiece;
  st.moved = NoPiece;
  st.edited = 0;
  if (st.ghost != NoSquare) h ^= v.ghost_key(st.ghost);
  st.ghost = st.ghost_end = st.ghost_victim = NoSquare;
  ++st.quiet_plies;

  if (m.type() == MoveType::Compound) {
    // Both pieces are lifted before either lands: each may land where the other stood.
    const CompoundMove& c = v.compound_moves()[m.extra()];
    const Piece p = board_[c.from], partner = board_[c.partner_from];
    st.moved = p;
    h ^= v.piece_key(p, c.from) ^ v.piece_key(p, c.to) ^ v.piece_key(partner, c.partner_from) ^ v.piece_key(partner, c.partner_to);
    remove(c.partner_from);
    if (c.from != c.to) relocate(c.from, c.to);
    put(partner, c.partner_to);
  } else if (m.type() == MoveType::Drop) {
    const Piece p = make_piece(side_, m.drop_kind());
    st.moved = p;
    h ^= from_hand(side_, m.drop_kind()) ^ v.piece_key(p, m.to());
    put(p, m.to());
    if (v.resets_move_limit(m.drop_kind())) st.quiet_plies = 0;
  } else if (!m.is_pass()) {
    const Square from = m.from(), to = m.to();
    const Piece p = board_[from];
    st.moved = p;
    const Square victim = m.type() == MoveType::CaptureGhost ? prev.ghost_victim : to;
    if (board_[victim]) {
      st.captured = board_[victim];
      h ^= v.piece_key(st.captured, victim);
      remove(victim);
      st.quiet_plies = 0;
      if (v.has_hands()) h ^= to_hand(side_, v.joins_hand_as(kind_of(st.captured)));
    }
    h ^= v.piece_key(p, from) ^ v.piece_key(p, to);
    relocate(from, to);
    if (v.resets_move_limit(kind_of(p))) st.quiet_plies = 0;
    if (m.promotion_kind() >= 0) {
      const Piece promoted = make_piece(side_, m.promotion_kind());
      h ^= v.piece_key(p, to) ^ v.piece_key(promoted, to);
      board_[to] = promoted;
    } else if (m.type() == MoveType::LeaveGhost) {
      st.ghost = Square(m.extra());
      st.ghost_end = step_toward(to, st.ghost);
      st.ghost_victim = to;
      h ^= v.ghost_key(st.ghost);
    }
    if (st.captured && v.explosive()) [[unlikely]]
      explode(to, h);
  }
  if (v.any_edits_after_move()) [[unlikely]]
    run_after_move_hook(h);
  if (!m.is_pass() && st.rights) {
    std::uint16_t lost = v.rights_lost_at(m.from()) | v.rights_lost_at(m.to()) | v.rights_lost_by(st.moved);
    if (st.edited) [[unlikely]]
      for (int i = 1; i <= st.edited; ++i) lost |= v.rights_lost_at(edits_[edits_.size() - i].first);
    const std::uint16_t rights = std::uint16_t(st.rights & ~lost);
    if (rights != st.rights) {
      h ^= v.rights_key(st.rights) ^ v.rights_key(rights);
      st.rights = rights;
    }
  }
  side_ = opponent(side_);
  if (v.game_rules().check_limit) [[unlikely]]
    count_check(*this, st.checks_needed[opponent(side_)], h);
  if (v.game_rules().endgame_count.on()) [[unlikely]]
    advance_endgame_count(*this, st);
  st.hash = h;
  st.royals_facing = facing_flag();
  assert(is_consistent());  // a new rule that breaks a table fails here, not plies later
}

// A capture on `centre` removes the capturer and every neighbour a blast does not spare. Kept out
// of line, like count_check, so that do_move stays as small as it was for every other game.
[[gnu::noinline]] void Position::explode(Square centre, std::uint64_t& hash) {
  edit(centre, NoPiece, hash);
  for (const Square s : variant_->neighbours(centre))
    if (board_[s] && variant_->blown_up(kind_of(board_[s]))) edit(s, NoPiece, hash);
}

// The moved kind's after_move hook (position/move_hooks.h) changes the board once the move is made,
// the mover still to move. A hook that fails leaves the position as it was before the move.
[[gnu::noinline]] void Position::run_after_move_hook(std::uint64_t& hash) {
  StateRecord& st = states_.back();
  const int kind = kind_of(st.moved);
  if (st.move.is_pass() || !variant_->edits_after_move(kind)) return;
  // No drop comes here: these hooks are refused where pieces go to a hand (hooks/load_variant.cpp).
  Square from = st.move.from(), to = st.move.to();
  if (st.move.type() == MoveType::Compound) {
    const CompoundMove& c = variant_->compound_moves()[st.move.extra()];
    from = c.from;
    to = c.to;
  }
  std::vector<PointEdit> edits;
  try {
    hooks_.get()->after_move(*this, kind, from, to, st.moved, st.captured, edits);
  } catch (...) {
    side_ = opponent(side_);  // as undo_move expects to find it
    undo_move();
    throw;
  }
  for (const PointEdit& e : edits) {
    // A piece that skipped a point may no longer be taken there once either point changes.
    if (st.ghost != NoSquare && (is_ghost(e.at) || e.at == st.ghost_victim)) {
      hash ^= variant_->ghost_key(st.ghost);
      st.ghost = st.ghost_end = st.ghost_victim = NoSquare;
    }
    edit(e.at, e.piece, hash);
  }
}

// Every change a side effect makes to the board goes through here, so that undo_move restores it.
void Position::edit(Square s, Piece p, std::uint64_t& hash) {
  edits_.emplace_back(s, board_[s]);
  ++states_.back().edited;
  if (board_[s]) {
    hash ^= variant_->piece_key(board_[s], s);
    remove(s);
  }
  if (p) {
    put(p, s);
    hash ^= variant_->piece_key(p, s);
  }
}

bool Position::is_consistent() const {
  int on_board[SideCount] = {0, 0};
  Square royals[SideCount] = {NoSquare, NoSquare};
  for (Square s = 0; s < variant_->squares(); ++s) {
    const Piece p = board_[s];
    if (!p) continue;
    const Side side = side_of(p);
    if (kind_of(p) < 0 || kind_of(p) >= variant_->kinds()) return false;
    if (list_index_[s] >= count_[side] || list_[side][list_index_[s]] != s) return false;
    ++on_board[side];
    if (variant_->royal(kind_of(p))) royals[side] = s;
  }
  for (Side side = 0; side < SideCount; ++side)
    if (on_board[side] != count_[side] || royals[side] != royal_[side]) return false;
  return states_.back().royals_facing == facing_flag() && states_.back().hash == compute_hash();
}

void Position::undo_move() {
  assert(states_.size() > 1);
  const StateRecord& st = states_.back();
  const Move m = st.move;
  side_ = opponent(side_);
  if (st.edited) [[unlikely]]
    for (int i = 0; i < st.edited; ++i) {
      const auto [square, former] = edits_.back();
      edits_.pop_back();
      if (board_[square]) remove(square);
      if (former) put(former, square);
    }
  if (m.type() == MoveType::Compound) {
    const CompoundMove& c = variant_->compound_moves()[m.extra()];
    const Piece partner = board_[c.partner_to];
    remove(c.partner_to);
    if (c.from != c.to) relocate(c.to, c.from);
    put(partner, c.partner_from);
  } else if (m.type() == MoveType::Drop) {
    remove(m.to());
    ++hand_.count[side_][m.drop_kind()];
  } else if (!m.is_pass()) {
    const Square from = m.from(), to = m.to();
    board_[to] = st.moved;
    relocate(to, from);
    if (st.captured) {
      put(st.captured, m.type() == MoveType::CaptureGhost ? states_[states_.size() - 2].ghost_victim : to);
      if (variant_->has_hands()) --hand_.count[side_][variant_->joins_hand_as(kind_of(st.captured))];
    }
  }
  states_.pop_back();
  assert(is_consistent());
}

std::string Position::move_text(Move m) const {
  if (m.is_pass()) return "pass";
  const BoardDef& board = variant_->board();
  if (m.type() == MoveType::Drop) return variant_->drop_prefix(m.drop_kind()) + board.square_name(m.to());
  std::string text = board.square_name(m.from()) + board.square_name(m.to());
  if (m.promotion_kind() >= 0) text += variant_->promotion_suffix(m.promotion_kind());
  return text;
}

}  // namespace palace

