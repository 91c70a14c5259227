// Turns a merged ConfigNode tree into a validated RuleSet. Every check that can name the line a
// user wrote happens here, so later stages can trust their input.
#include <algorithm>
#include <cctype>
#include <cstdlib>
#include <filesystem>
#include <map>
#include <tuple>

#include "core/text.h"
#include "core/text_file.h"
#include "loader/betza.h"
#include "loader/key_table.h"
#include "loader/language.h"
#include "loader/names.h"
#include "loader/rule_set.h"

namespace palace {

std::string BoardDef::point_name(Point s) const {
  if (s == NoPoint) return "-";
  return std::string(1, char('a' + file_of(s))) + std::to_string(rank_of(s) + 1);
}

Point BoardDef::parse_point(const std::string& text, bool holes_too) const {
  if (text.size() < 2 || text.size() > 3 || text[0] < 'a' || text[0] >= 'a' + files) return NoPoint;
  int rank = 0;
  for (std::size_t i = 1; i < text.size(); ++i) {
    if (!std::isdigit(static_cast<unsigned char>(text[i]))) return NoPoint;
    rank = rank * 10 + (text[i] - '0');
  }
  if (text[1] == '0' || rank < 1 || rank > ranks) return NoPoint;
  const Point s = square(text[0] - 'a', rank - 1);
  return holes_too || !is_hole(s) ? s : NoPoint;
}

Kind RuleSet::kind_by_name(const std::string& name) const {
  for (std::size_t k = 0; k < pieces.size(); ++k)
    if (pieces[k].name == name) return Kind(k);
  return NoKind;
}

RuleSet RuleSet::with_formations(const std::map<std::string, std::string>& chosen) const {
  RuleSet changed = *this;
  for (const auto& [side_name, name] : chosen) {
    const std::optional<Side> found = side_by_name(side_name);
    if (!found) throw Error("no side named " + quote(side_name));
    const Side side = *found;
    const Formation* formation = formation_named(name);
    if (!formation || formation_squares[side].empty()) {
      std::string known;
      if (!formation_squares[side].empty())
        for (const auto& [name, kinds] : formations) known += (known.empty() ? "" : ", ") + name;
      throw Error("no formation named " + quote(name) + " for " + side_name +
                  (known.empty() ? " (its set-up has no formation)" : " (known: " + known + ")"));
    }
    for (Placement& p : changed.setup[side]) {
      const auto& points = formation_squares[side];
      const auto at = std::find(points.begin(), points.end(), p.square);
      if (at != points.end()) p.kind = formation->kinds[std::size_t(at - points.begin())];
    }
  }
  return changed;
}

std::optional<Side> RuleSet::side_by_name(const std::string& name) const {
  for (Side s = First; s < SideCount; ++s)
    if (sides[s].name == name) return s;
  return std::nullopt;
}

const Formation* RuleSet::formation_named(const std::string& name) const {
  for (const Formation& f : formations)
    if (f.name == name) return &f;
  return nullptr;
}

Kind RuleSet::kind_by_letter(char upper) const {
  for (std::size_t k = 0; k < pieces.size(); ++k)
    if (pieces[k].letter == upper) return Kind(k);
  return NoKind;
}

namespace {

// Directions by name, for a side moving towards higher ranks (see core/types.h for the indices).
const std::map<std::string, std::vector<int>>& direction_words() {
  static const std::map<std::string, std::vector<int>> words = {
      {"forward", {0}},         {"forward_right", {1}}, {"right", {2}},
      {"backward_right", {3}},  {"backward", {4}},      {"backward_left", {5}},
      {"left", {6}},            {"forward_left", {7}},  {"orthogonal", {0, 2, 4, 6}},
      {"diagonal", {1, 3, 5, 7}}, {"all", {0, 1, 2, 3, 4, 5, 6, 7}},
  };
  return words;
}

class Loader {
 public:
  Loader(const ConfigNode& root, const std::string& source) : root_(root) { rules_.source_file = source; }

  RuleSet run() {
    root_.expect_keys(root_keys());
    if (const ConfigNode* l = root_.find("language"))
      if (l->as_int(0, 1000) != LanguageVersion)
        l->fail("this program reads language " + std::to_string(LanguageVersion) + " (`language: " + std::to_string(LanguageVersion) + "`)");
    rules_.name = root_.at("name").as_string();
    // Printed as it is (`palace validate`, the server's list), so it may not hide or reorder text.
    if (has_hidden_characters(rules_.name))
      root_.at("name").fail("a name holds no control or bidirectional formatting characters, got " + palace::quote(rules_.name));
    if (const ConfigNode* d = root_.find("description")) {
      rules_.description = d->as_string();
      if (has_hidden_characters(rules_.description))
        d->fail("a description holds no control or bidirectional formatting characters");
    }
    read_board(root_.at("board"));
    read_sides(root_.at("sides"));
    if (const ConfigNode* s = root_.find("scripts")) read_scripts(*s);
    read_piece_names(root_.at("pieces"));
    rules_.removed_kinds = root_.at("pieces").removed();
    for (const auto& [name, node] : root_.at("pieces").entries()) read_piece(rules_.pieces[kind_named(rules_, name, node)], node);
    resolve_likes();
    read_setup(root_.at("setup"));
    if (const ConfigNode* c = root_.find("compound_moves")) read_compound_moves(*c);
    if (const ConfigNode* c = root_.find("castling")) read_castling(*c);
    if (const ConfigNode* r = root_.find("rules")) read_rules(*r);
    if (const ConfigNode* u = root_.find("uci")) rules_.uci = read_uci_rules(*u);
    if (const ConfigNode* h = root_.find("hands")) read_hand_rules(*h, rules_);
    read_start_hands(root_.at("setup"), rules_);
    if (const ConfigNode* e = root_.find("ends")) rules_.ends.read(*e, rules_);
    check_zones();
    if (const ConfigNode* e = root_.find("engine")) read_engine(*e);
    const ConfigNode* n = root_.find("notation");
    rules_.notation = n ? read_notation_rules(*n, rules_) : default_notation_rules(rules_.pieces);
    return std::move(rules_);
  }

 private:
  const BoardDef& board() const { return rules_.board; }

  Point square(const ConfigNode& node) const {
    const Point s = board().parse_point(node.as_string());
    if (s == NoPoint)
      node.fail(palace::quote(node.as_string()) + (board().parse_point(node.as_string(), true) != NoPoint ? " is a hole of the " : " is not a point of the ") +
                board_size() + " board");
    return s;
  }

  // Names of sides, zones, pieces, formations and compound moves appear in messages and move
  // texts as written, so they are held to words that print on one line.
  static void check_name(const std::string& name, const ConfigNode& node, const char* what) {
    const bool word = !name.empty() && name.size() <= 40 && std::all_of(name.begin(), name.end(), [](char c) {
      const auto byte = static_cast<unsigned char>(c);
      return std::isalnum(byte) || c == '-' || c == '_' || byte >= 0x80;
    }) && !has_hidden_characters(name);
    if (!word)
      node.fail(std::string("a ") + what + " name is a word of letters, digits, - and _ (at most 40), got " +
                palace::quote(name));
  }

  std::string board_size() const { return std::to_string(board().files) + "x" + std::to_string(board().ranks); }

  // "e2", "d1-f3" (a rectangle), or a list of those.
  PointSet point_set(const ConfigNode& node) const {
    PointSet set;
    for (const ConfigNode* item : node.items()) {
      const std::string& text = item->as_string();
      const auto dash = text.find('-');
      if (dash == std::string::npos) {
        set.set(square(*item));
        continue;
      }
      const std::string corners[] = {text.substr(0, dash), text.substr(dash + 1)};
      const Point a = board().parse_point(corners[0], true);
      const Point b = board().parse_point(corners[1], true);
      // Name the corner at fault: a corner off the board usually means a wrong board size.
      for (const Point corner : {a, b}) {
        const std::string& name = corners[corner == a ? 0 : 1];
        if (corner == NoPoint && !name.empty())
          item->fail("rectangle " + palace::quote(text) + ": " + palace::quote(name) + " is not a point of the " +
                     board_size() + " board");
      }
      if (a == NoPoint || b == NoPoint) item->fail(palace::quote(text) + " is not a rectangle of points like d1-f3");
      for (int f = std::min(board().file_of(a), board().file_of(b)); f <= std::max(board().file_of(a), board().file_of(b)); ++f)
        for (int r = std::min(board().rank_of(a), board().rank_of(b)); r <= std::max(board().rank_of(a), board().rank_of(b)); ++r)
          set.set(board().square(f, r));
    }
    return set & ~board().holes;
  }

  void read_board(const ConfigNode& node) {
    node.expect_keys(keys::board);
    rules_.board.files = node.at("files").as_int(2, MaxFiles);
    rules_.board.ranks = node.at("ranks").as_int(2, MaxRanks);
    if (const ConfigNode* from = node.find("ranks_from")) {
      if (from->as_string() != "bottom" && from->as_string() != "top")
        from->fail("expected bottom (rank 1 is the first side's own edge) or top");
      rules_.board.ranks_from_top = from->as_string() == "top";
    }
    // Holes are read first: no other key may name one as a point.
    if (const ConfigNode* holes = node.find("holes")) {
      rules_.board.holes = point_set(*holes);
      if (rules_.board.holes.count() == std::size_t(board().size())) holes->fail("every point of the board is a hole");
    }
    const ConfigNode* diagonals = node.find("diagonals");
    if (!diagonals) return;
    if (diagonals->is_scalar()) {
      if (diagonals->as_string() == "all") rules_.board.all_diagonals = true;
      else if (diagonals->as_string() != "none") diagonals->fail("expected all, none, or a list of lines like [d1, e2, f3]");
      return;
    }
    for (const ConfigNode* line : diagonals->items()) {
      const auto points = line->items();
      if (points.size() < 2) line->fail("a line needs at least two points");
      for (std::size_t i = 1; i < points.size(); ++i) {
        const Point a = square(*points[i - 1]), b = square(*points[i]);
        if (std::abs(board().file_of(a) - board().file_of(b)) != 1 || std::abs(board().rank_of(a) - board().rank_of(b)) != 1)
          points[i]->fail("a diagonal line joins diagonal neighbours; " + points[i - 1]->as_string() + " and " +
                          points[i]->as_string() + " are not");
        rules_.board.diagonal_lines.emplace_back(a, b);
      }
    }
  }

  void read_sides(const ConfigNode& node) {
    const auto& entries = node.entries();
    if (entries.size() != SideCount) node.fail("expected exactly two sides, the first to move listed first");
    // Every side declares the same zone names; a name one side lacks is an empty zone for it.
    for (const auto& [name, side] : entries) {
      check_name(name, side, "side");
      if (const ConfigNode* zones = side.find("zones"))
        for (const auto& [zone, value] : zones->entries()) {
          check_name(zone, value, "zone");
          if (std::find(rules_.zone_names.begin(), rules_.zone_names.end(), zone) == rules_.zone_names.end())
            rules_.zone_names.push_back(zone);
        }
    }
    for (int s = 0; s < SideCount; ++s) {
      const auto& [name, side] = entries[s];
      side.expect_keys(keys::side);
      SideDef& def = rules_.sides[s];
      def.name = name;
      def.colour = side.find("colour") ? side.at("colour").as_string() : name;
      const std::string& forward = side.at("forward").as_string();
      if (forward != "up" && forward != "down") side.at("forward").fail("expected up (towards higher ranks) or down");
      def.forward = forward == "up" ? 1 : -1;
      const std::string letters = side.find("letters") ? side.at("letters").as_string() : (s == 0 ? "upper" : "lower");
      if (letters != "upper" && letters != "lower") side.at("letters").fail("expected upper or lower");
      def.upper_case = letters == "upper";
      if (const ConfigNode* r = side.find("royal")) def.royal = r->as_bool();
      if (const ConfigNode* t = side.find("turned")) def.right = t->as_bool() ? -1 : 1;
      def.zones.assign(rules_.zone_names.size(), PointSet());
      if (const ConfigNode* zones = side.find("zones"))
        for (const auto& [zone, value] : zones->entries()) def.zones[zone_named(rules_, zone, value)] = point_set(value);
    }
    if (rules_.sides[0].upper_case == rules_.sides[1].upper_case)
      node.fail("the two sides need different letter cases for FEN");
  }


  void read_piece_names(const ConfigNode& node) {
    const auto& entries = node.entries();
    if (entries.empty()) node.fail("a game needs at least one piece");
    if (entries.size() > MaxKinds) node.fail("at most " + std::to_string(MaxKinds) + " kinds of piece");
    for (const auto& [name, piece] : entries) {
      check_name(name, piece, "piece");
      PieceDef def;
      def.name = name;
      def.mark = piece.mark();
      // Read before any piece's promotion, which may not name a royal kind.
      if (const ConfigNode* r = piece.find("royal")) def.royal = r->as_bool();
      const std::string& letter = piece.at("letter").as_string();
      if (letter.size() != 1 || !std::isalpha(static_cast<unsigned char>(letter[0])))
        piece.at("letter").fail("expected one letter, got " + palace::quote(letter));
      def.letter = char(std::toupper(static_cast<unsigned char>(letter[0])));
      if (const ConfigNode* w = piece.find("written")) def.written = written(*w, def.letter);
      const std::string token = def.written.empty() ? std::string(1, def.letter) : def.written;
      for (const PieceDef& other : rules_.pieces)
        if ((other.written.empty() ? std::string(1, other.letter) : other.written) == token)
          (def.written.empty() ? piece.at("letter") : piece.at("written"))
              .fail(palace::quote(token) + " is written for another piece already");
      rules_.pieces.push_back(std::move(def));
    }
    for (auto& def : rules_.pieces) {
      def.may_jump.assign(rules_.pieces.size(), true);
      def.may_capture.assign(rules_.pieces.size(), true);
    }
  }

  // How a FEN writes a promoted piece: its letter with a `+` before it or a `~` after it.
  static std::string written(const ConfigNode& node, char letter) {
    const std::string& text = node.as_string();
    const bool marked = text.size() == 2 && ((text[0] == '+' && std::toupper(static_cast<unsigned char>(text[1])) == letter) ||
                                             (text[1] == '~' && std::toupper(static_cast<unsigned char>(text[0])) == letter));
    if (!marked)
      node.fail(std::string("expected the letter with + before it or ~ after it (+") + letter + " or " + letter + "~), got " +
                palace::quote(text));
    return text[0] == '+' ? std::string("+") + letter : std::string(1, letter) + "~";
  }

  // What a board draws on a piece: one glyph for both sides, or one per side. A board shows a few
  // characters at most, so a longer text is a mistake.
  static std::array<std::string, SideCount> face(const ConfigNode& node) {
    const auto items = node.items();
    if (items.empty() || items.size() > std::size_t(SideCount)) node.fail("give one face, or one per side");
    for (const ConfigNode* item : items) {
      const std::string& text = item->as_string();
      if (text.empty() || text.size() > MaxFaceBytes) item->fail("expected a face of 1 to " + std::to_string(MaxFaceBytes) + " bytes, got " + palace::quote(text));
    }
    return {items.front()->as_string(), items.back()->as_string()};
  }
  static constexpr std::size_t MaxFaceBytes = 12;

  void read_piece(PieceDef& def, const ConfigNode& node) {
    node.expect_keys(keys::piece);
    if (const ConfigNode* f = node.find("face")) def.face = face(*f);
    if (const ConfigNode* v = node.find("value")) def.value = v->as_number();
    if (const ConfigNode* z = node.find("stay_in")) def.stay_in = zone_named(rules_, *z);
    const ConfigNode& moves = node.at("moves");
    const std::vector<const ConfigNode*> written = moves.items();
    if (written.size() > MaxMoveParts)
      moves.fail("a piece has at most " + std::to_string(MaxMoveParts) + " movement parts, got " + std::to_string(written.size()));
    const Kind self = kind_named(rules_, def.name, node);
    std::vector<std::size_t> written_at;  // for each part, its line in `moves:` (a Betza text makes several)
    for (std::size_t at = 0; at < written.size(); ++at) {
      const ConfigNode* part = written[at];
      if (const ConfigNode* like = part->find("like")) {
        part->expect_keys(keys::like_part);
        const Kind kind = kind_named(rules_, *like);
        for (const Like& earlier : likes_)
          if (earlier.piece == self && earlier.kind == kind) like->fail(def.name + " already moves like " + like->as_string());
        likes_.push_back({self, def.parts.size(), kind, like});
        def.parts.push_back(MovePart{});  // a placeholder, replaced by resolve_likes()
        written_at.push_back(at);
        continue;
      }
      std::vector<MovePart> read;
      if (const ConfigNode* betza = part->find("betza")) read = read_betza_part(*part, *betza);
      else read.push_back(read_part(*part));
      for (MovePart& one : read) {
        for (std::size_t i = 0; i < def.parts.size(); ++i)
          if (same_moves(def.parts[i], one))
            part->fail("the same move as moves[" + std::to_string(written_at[i]) + "]");
        if (def.parts.size() == MaxMoveParts)
          part->fail("a piece has at most " + std::to_string(MaxMoveParts) + " movement parts, and this Betza text makes more");
        def.parts.push_back(std::move(one));
        written_at.push_back(at);
      }
    }
    check_hop_limits(def);
    if (const ConfigNode* p = node.find("promotion")) {
      p->expect_keys(keys::promotion);
      if (const ConfigNode* o = p->find("optional"))
        def.promotion_choice = word<PromotionChoice>(*o, {{"true", PromotionChoice::Optional}, {"false", PromotionChoice::Forced},
                                                          {"unless_dead", PromotionChoice::OptionalUnlessDead}});
      if (const ConfigNode* l = p->find("leaving")) def.promotion_leaving = l->as_bool();
      def.promotion_zone = zone_named(rules_, p->at("zone"));
      if (const ConfigNode* z = p->find("optional_in")) def.promotion_optional_in = zone_named(rules_, *z);
      if (const ConfigNode* l = p->find("to_lost_only")) def.promotion_to_lost_only = l->as_bool();
      // Each side holds exactly one royal piece from set-up to the end; a promotion may not add
      // a second or take the only one away.
      if (def.royal) p->fail(def.name + " is royal and may not promote");
      for (const ConfigNode* k : p->at("to").items()) {
        const Kind to = kind_named(rules_, *k);
        if (rules_.pieces[to].royal) k->fail("may not promote to " + rules_.pieces[to].name + ": it is royal");
        def.promotion_kinds.push_back(to);
      }
      if (def.promotion_kinds.empty()) p->at("to").fail("name at least one piece to promote to");
    }
    if (const ConfigNode* list = node.find("may_not_jump"))
      for (const ConfigNode* k : list->items()) def.may_jump[kind_named(rules_, *k)] = false;
    if (const ConfigNode* list = node.find("may_not_capture"))
      for (const ConfigNode* k : list->items()) def.may_capture[kind_named(rules_, *k)] = false;
    if (const ConfigNode* hooks = node.find("hooks")) {
      hooks->expect_keys(keys::piece_hooks);
      if (const ConfigNode* h = hooks->find("may_jump")) def.may_jump_hook = hook(*h);
      if (const ConfigNode* h = hooks->find("may_capture")) def.may_capture_hook = hook(*h);
      if (const ConfigNode* h = hooks->find("allow_move")) def.allow_move_hook = hook(*h);
      if (const ConfigNode* h = hooks->find("add_moves")) def.add_moves_hook = hook(*h);
      if (const ConfigNode* h = hooks->find("after_move")) def.after_move_hook = hook(*h);
    }
  }

  void read_scripts(const ConfigNode& node) {
    namespace fs = std::filesystem;
    for (const auto& [name, value] : node.entries()) {
      check_name(name, value, "script");
      // A script path is relative to the file that names it, which may be an imported one.
      const fs::path declared_in = value.mark().file ? fs::path(*value.mark().file).parent_path() : fs::path();
      const fs::path path = (declared_in / value.as_string()).lexically_normal();
      std::error_code error;
      if (!fs::is_regular_file(path, error)) value.fail("no such script " + palace::quote(path.string(), 200));
      std::string text;
      try {
        text = read_text_file(path.string());
      } catch (const FileError& e) {
        value.fail("cannot read the script " + palace::quote(path.string(), 200) + ": " + e.reason());
      }
      rules_.scripts.push_back({name, path.string(), std::move(text), value.mark()});
    }
  }

  HookRef hook(const ConfigNode& node) const { return hook_named(rules_, node); }

  std::pair<int, int> offset(const ConfigNode& node) const {
    const auto xy = node.items();
    if (!node.is_sequence() || xy.size() != 2) node.fail("expected [files, ranks], e.g. [1, 2]");
    return {xy[0]->as_int(-MaxFiles, MaxFiles), xy[1]->as_int(-MaxRanks, MaxRanks)};
  }

  // A `like: KIND` line of a piece's moves stands for every movement part of that kind: compound
  // pieces (an archbishop moves like a bishop and like a knight) without copying their parts.
  struct Like {
    int piece;
    std::size_t at;  // its place in the piece's parts, where a placeholder stands until resolved
    Kind kind;        // the kind whose parts it stands for
    const ConfigNode* node;
  };
  std::vector<Like> likes_;

  // Each piece's parts with its likes replaced by the parts they borrow, every piece's list read
  // once; a part that the piece has already (borrowed, or written beside a like) is left out, and
  // the whole stays within MaxMoveParts (likes of likes could otherwise multiply).
  void resolve_likes() {
    enum State { Unresolved, Resolving, Resolved };
    std::vector<State> state(rules_.pieces.size(), Unresolved);
    std::vector<std::vector<const Like*>> likes_of(rules_.pieces.size());  // in the order of their parts
    for (const Like& like : likes_) likes_of[std::size_t(like.piece)].push_back(&like);
    const auto expand = [&](auto& self, int piece) -> void {
      if (state[piece] == Resolved) return;
      state[piece] = Resolving;
      std::vector<MovePart> parts;
      const std::string& name = rules_.pieces[piece].name;
      const auto add = [&](const MovePart& part, const SourceMark& mark, const std::string& path) {
        if (std::any_of(parts.begin(), parts.end(), [&](const MovePart& p) { return same_moves(p, part); })) return;
        if (parts.size() == MaxMoveParts)
          throw RuleError(mark, path, "with the parts it borrows, " + name + " would have more than " +
                                          std::to_string(MaxMoveParts) + " movement parts");
        parts.push_back(part);
      };
      const std::vector<MovePart>& own = rules_.pieces[piece].parts;
      auto like = likes_of[std::size_t(piece)].begin();
      const auto end = likes_of[std::size_t(piece)].end();
      for (std::size_t i = 0; i < own.size(); ++i) {
        if (like == end || (*like)->at != i) {
          add(own[i], own[i].mark, "pieces." + name + ".moves[" + std::to_string(i) + "]");
          continue;
        }
        const Like& l = **like++;
        if (state[l.kind] == Resolving)
          l.node->fail(rules_.pieces[piece].name + " moves like " + rules_.pieces[l.kind].name +
                       ", which moves like " + rules_.pieces[piece].name + " again: a piece cannot be made of itself");
        self(self, l.kind);
        for (const MovePart& borrowed : rules_.pieces[l.kind].parts) add(borrowed, l.node->mark(), l.node->path());
      }
      rules_.pieces[piece].parts = std::move(parts);
      state[piece] = Resolved;
    };
    for (std::size_t piece = 0; piece < rules_.pieces.size(); ++piece) expand(expand, int(piece));
  }

  // Whether two parts make the same moves, however their directions and leaps were listed.
  static bool same_moves(const MovePart& a, const MovePart& b) {
    const auto sorted = [](auto list) {
      std::sort(list.begin(), list.end());
      return list;
    };
    const auto leaps = [&](const MovePart& part) {
      std::vector<std::tuple<int, int, std::vector<std::pair<int, int>>>> out;
      for (const LeapShape& leap : part.leaps) out.emplace_back(leap.file, leap.rank, sorted(leap.blocks));
      return sorted(out);
    };
    return a.kind == b.kind && a.range == b.range && a.rides == b.rides && a.mode == b.mode && a.from_zone == b.from_zone &&
           a.to_zone == b.to_zone && a.leaves_ghost == b.leaves_ghost && a.takes_ghost == b.takes_ghost &&
           a.after_screen == b.after_screen && sorted(a.directions) == sorted(b.directions) && leaps(a) == leaps(b);
  }

  // `betza: TEXT`, read as the long form's parts (loader/betza.h), each marked where it is written.
  std::vector<MovePart> read_betza_part(const ConfigNode& node, const ConfigNode& text) {
    node.expect_keys(keys::betza_part);
    const ConfigNode* zone = node.find("initial_zone");
    BetzaReading reading = read_betza(text.as_string(), zone ? zone_named(rules_, *zone) : -1);
    if (!reading.error.empty()) text.fail(reading.error);
    if (zone && std::none_of(reading.parts.begin(), reading.parts.end(), [](const MovePart& p) { return p.from_zone >= 0; }))
      zone->fail("initial_zone names where `i` moves start, and " + palace::quote(text.as_string()) + " has none");
    for (MovePart& part : reading.parts) {
      part.mark = node.mark();
      if (part.rides) check_ride_length(part, text);
    }
    return reading.parts;
  }

  MovePart read_part(const ConfigNode& node) {
    node.expect_keys(keys::move_part);
    MovePart part;
    part.mark = node.mark();
    int kinds_named = 0;
    const std::pair<const char*, PartKind> forms[] = {
        {"step", PartKind::Step}, {"slide", PartKind::Slide}, {"hop", PartKind::Hop}, {"leap", PartKind::Leap}};
    for (const auto& [word, kind] : forms) {
      const ConfigNode* value = node.find(word);
      if (!value) continue;
      ++kinds_named;
      part.kind = kind;
      if (kind == PartKind::Leap) continue;
      for (const ConfigNode* d : value->items()) {
        const auto it = direction_words().find(d->as_string());
        if (it == direction_words().end()) {
          reject_old_word(*d);
          d->fail("unknown direction " + palace::quote(d->as_string()) + " (forward, backward, left, right, forward_left, "
                  "forward_right, backward_left, backward_right, orthogonal, diagonal, all)");
        }
        for (int dir : it->second)
          if (std::find(part.directions.begin(), part.directions.end(), dir) == part.directions.end())
            part.directions.push_back(dir);
      }
    }
    if (kinds_named != 1) node.fail("each move needs exactly one of step, slide, hop, leap");
    if (part.kind == PartKind::Leap) read_leap(part, node);
    else if (node.find("block") || node.find("symmetry")) node.fail("block and symmetry belong to a leap");
    if (const ConfigNode* r = node.find("rides")) {
      if (part.kind != PartKind::Leap) r->fail("rides belongs to a leap");
      part.rides = r->as_bool();
      if (part.rides && node.find("block")) r->fail("a ride passes the points its leaps land on, and takes no block");
    }
    if (const ConfigNode* r = node.find("range")) {
      if (part.kind != PartKind::Slide && part.kind != PartKind::Hop && !part.rides) r->fail("range belongs to a slide, hop or ride");
      part.range = r->as_int(1, std::max(MaxFiles, MaxRanks));
    }
    if (part.rides) check_ride_length(part, node);
    if (const ConfigNode* only = node.find("only")) {
      const std::string& word = only->as_string();
      if (word == "move") part.mode = CanMove;
      else if (word == "capture") part.mode = CanCapture;
      else only->fail("expected move or capture, got " + palace::quote(word));
    }
    if (const ConfigNode* z = node.find("from_zone")) part.from_zone = zone_named(rules_, *z);
    if (const ConfigNode* z = node.find("to_zone")) part.to_zone = zone_named(rules_, *z);
    if (const ConfigNode* g = node.find("leaves_ghost")) {
      part.leaves_ghost = g->as_bool();
      if (part.leaves_ghost && (part.kind != PartKind::Leap || part.leaps.size() != 1 || !skips_a_line(part.leaps[0])))
        g->fail("leaves_ghost needs a leap with one direction (symmetry: none) whose blocking points run in a line "
                "up to the point next to where it lands");
    }
    if (const ConfigNode* g = node.find("takes_ghost")) part.takes_ghost = g->as_bool();
    if (const ConfigNode* a = node.find("after_screen")) part.after_screen = read_after_screen(part, *a);
    return part;
  }

  // A ride's move is a leap over the points its earlier leaps landed on, at most MaxLeapBlocks of them.
  void check_ride_length(const MovePart& part, const ConfigNode& node) const {
    const int most = int(MaxLeapBlocks) + 1;
    for (const LeapShape& leap : part.leaps) {
      int on_board = std::max(MaxFiles, MaxRanks);
      if (leap.file) on_board = std::min(on_board, (board().files - 1) / std::abs(leap.file));
      if (leap.rank) on_board = std::min(on_board, (board().ranks - 1) / std::abs(leap.rank));
      if (std::min(on_board, part.range ? part.range : on_board) > most)
        node.fail("a ride makes at most " + std::to_string(most) + " leaps, and this one could make " + std::to_string(on_board) +
                  " on this board: give it `range: " + std::to_string(most) + "`");
    }
  }

  // Whether a ghost-leaving leap's blocking points are the points from the first of them up to its
  // landing point, in a straight line: the points it leaves capturable then follow from where it
  // starts skipping and where it lands. Orders the blocks from the start, the first one first.
  static bool skips_a_line(LeapShape& leap) {
    auto distance = [](int file, int rank) { return std::max(std::abs(file), std::abs(rank)); };
    std::sort(leap.blocks.begin(), leap.blocks.end(),
              [&](const auto& a, const auto& b) { return distance(a.first, a.second) < distance(b.first, b.second); });
    if (leap.blocks.empty()) return false;
    const int df = leap.file - leap.blocks[0].first, dr = leap.rank - leap.blocks[0].second;
    const int n = distance(df, dr);
    if ((df != 0 && dr != 0 && std::abs(df) != std::abs(dr)) || int(leap.blocks.size()) != n) return false;
    for (int k = 0; k < n; ++k)
      if (leap.blocks[std::size_t(k)] != std::pair(leap.blocks[0].first + k * df / n, leap.blocks[0].second + k * dr / n))
        return false;
    return true;
  }

  // A grasshopper's `after_screen: 1`. The attack tables keep one limit per piece and direction,
  // so two hops of a piece along one direction must agree on it.
  int read_after_screen(const MovePart& part, const ConfigNode& node) const {
    if (part.kind != PartKind::Hop) node.fail("after_screen belongs to a hop");
    return node.as_int(1, std::max(MaxFiles, MaxRanks));
  }

  static void check_hop_limits(const PieceDef& def) {
    for (const MovePart& a : def.parts)
      for (const MovePart& b : def.parts) {
        if (&a == &b || a.kind != PartKind::Hop || b.kind != PartKind::Hop || a.after_screen == b.after_screen) continue;
        for (const int d : a.directions)
          if (std::find(b.directions.begin(), b.directions.end(), d) != b.directions.end())
            throw RuleError(b.mark, "pieces." + def.name + ".moves",
                            "two hops along one direction need the same after_screen");
      }
  }

  void read_leap(MovePart& part, const ConfigNode& node) {
    LeapShape shape;
    std::tie(shape.file, shape.rank) = offset(node.at("leap"));
    if (shape.file == 0 && shape.rank == 0) node.at("leap").fail("a leap must go somewhere");
    if (const ConfigNode* blocks = node.find("block")) {
      for (const ConfigNode* b : blocks->items()) shape.blocks.push_back(offset(*b));
      if (shape.blocks.size() > MaxLeapBlocks)
        blocks->fail("a leap has at most " + std::to_string(MaxLeapBlocks) + " blocking points, got " +
                     std::to_string(shape.blocks.size()));
    }
    const std::string symmetry = node.find("symmetry") ? node.at("symmetry").as_string() : "all";
    // The eight ways to turn and mirror a shape; which apply depends on the symmetry asked for.
    std::vector<std::pair<int, int>> transforms;  // (swap?, sign bits)
    if (symmetry == "all") {
      for (int swap = 0; swap < 2; ++swap)
        for (int signs = 0; signs < 4; ++signs) transforms.emplace_back(swap, signs);
    } else if (symmetry == "left_right") {
      transforms = {{0, 0}, {0, 1}};
    } else if (symmetry == "none") {
      transforms = {{0, 0}};
    } else {
      reject_old_word(node.at("symmetry"));
      node.at("symmetry").fail("expected all, left_right or none");
    }
    for (const auto& [swap, signs] : transforms) {
      auto turn = [swap = swap, signs = signs](std::pair<int, int> p) {
        if (swap) std::swap(p.first, p.second);
        if (signs & 1) p.first = -p.first;
        if (signs & 2) p.second = -p.second;
        return p;
      };
      LeapShape out;
      std::tie(out.file, out.rank) = turn({shape.file, shape.rank});
      for (const auto& b : shape.blocks) out.blocks.push_back(turn(b));
      const bool seen = std::any_of(part.leaps.begin(), part.leaps.end(), [&](const LeapShape& l) {
        return l.file == out.file && l.rank == out.rank && l.blocks == out.blocks;
      });
      if (!seen) part.leaps.push_back(std::move(out));
    }
  }

  void read_setup(const ConfigNode& node) {
    std::vector<Formation>& formations = rules_.formations;
    if (const ConfigNode* f = root_.find("formations"))
      for (const auto& [name, list] : f->entries()) {
        check_name(name, list, "formation");
        Formation& formation = formations.emplace_back(Formation{name, {}});
        for (const ConfigNode* k : list.items()) formation.kinds.push_back(kind_named(rules_, *k));
      }

    // Who stands on each point so far, both sides together: a second piece would silently replace it.
    struct Occupant {
      const ConfigNode* where = nullptr;
      int side = 0;
      Kind kind = Kind(0);
    };
    std::vector<Occupant> occupants(std::size_t(board().size()));
    for (const auto& [side_name, side_node] : node.entries()) {
      const int side = side_named(rules_, side_name, side_node);
      side_node.expect_keys(keys::side_setup);
      // Check, mate and facing royals need exactly one royal piece per side.
      const ConfigNode* royal_entry = nullptr;
      bool royal_placed = false;
      auto place = [&, &side_name = side_name](Point s, Kind k, const ConfigNode& where) {
        const Occupant& other = occupants[s];
        if (other.where)
          where.fail("two pieces on " + board().point_name(s) + ": the " + rules_.sides[other.side].name + " " +
                     rules_.pieces[other.kind].name + " placed at " + other.where->mark().str() + " is already there");
        const PieceDef& def = rules_.pieces[k];
        if (def.royal && !rules_.sides[side].royal)
          where.fail(side_name + " plays without a royal piece (royal: false) but a " + def.name + " is placed");
        if (def.royal && royal_placed) where.fail(side_name + " has more than one royal piece" + RoyalHint);
        royal_placed = royal_placed || def.royal;
        if (!may_stand(side, k, s))
          where.fail(def.name + " on " + board().point_name(s) + " is outside its zone " +
                     rules_.zone_names[def.stay_in]);
        occupants[s] = {&where, side, k};
        rules_.setup[side].push_back({s, k});
      };
      for (const auto& [piece, squares] : side_node.at("pieces").entries()) {
        const Kind k = kind_named(rules_, piece, squares);
        if (rules_.pieces[k].royal) royal_entry = &squares;
        for (const ConfigNode* sq : squares.items()) place(square(*sq), k, *sq);
      }
      if (const ConfigNode* f = side_node.find("formation")) {
        f->expect_keys(keys::formation_use);
        const ConfigNode& name = f->at("name");
        const Formation* chosen = rules_.formation_named(name.as_string());
        if (!chosen) {
          std::string known;
          for (const auto& [n, kinds] : formations) known += (known.empty() ? "" : ", ") + n;
          name.fail("no formation named " + palace::quote(name.as_string()) + " (known: " + known + ")");
        }
        const auto squares = f->at("points").items();
        if (squares.size() != chosen->kinds.size())
          f->at("points").fail("formation " + chosen->name + " places " + std::to_string(chosen->kinds.size()) +
                                " pieces but " + std::to_string(squares.size()) + " points are given");
        for (std::size_t i = 0; i < squares.size(); ++i) {
          place(square(*squares[i]), chosen->kinds[i], *squares[i]);
          rules_.formation_squares[side].push_back(square(*squares[i]));
        }
      }
      if (!royal_placed && rules_.sides[side].royal && has_royal_kind())
        (royal_entry ? *royal_entry : side_node).fail(side_name + " has no royal piece" + RoyalHint);
    }
    for (int s = 0; s < SideCount; ++s)
      if (!node.find(rules_.sides[s].name) && rules_.sides[s].royal && has_royal_kind())
        node.fail(rules_.sides[s].name + " has no royal piece" + RoyalHint);
    if (const ConfigNode* f = root_.find("formations"))
      for (const auto& [name, list] : f->entries()) check_formation_fits(name, list);
  }

  // A game's formation is switched on the compiled variant (RuleSet::with_formations), so every
  // formation must be able to stand in for the one a side's set-up names: a kind for each point,
  // each allowed where it lands, and the side's royals unchanged.
  void check_formation_fits(const std::string& name, const ConfigNode& list) const {
    const std::vector<Kind>& kinds = rules_.formation_named(name)->kinds;
    const auto royal = [&](Kind kind) { return rules_.pieces[std::size_t(kind)].royal; };
    for (int side = 0; side < SideCount; ++side) {
      const std::vector<Point>& points = rules_.formation_squares[side];
      if (points.empty()) continue;
      const std::string& side_name = rules_.sides[side].name;
      if (kinds.size() != points.size())
        list.fail("formation " + name + " places " + std::to_string(kinds.size()) + " pieces but " + side_name +
                  "'s formation has " + std::to_string(points.size()) + " points");
      for (std::size_t i = 0; i < points.size(); ++i) {
        const PieceDef& def = rules_.pieces[std::size_t(kinds[i])];
        if (!may_stand(side, kinds[i], points[i]))
          list.fail(def.name + " on " + board().point_name(points[i]) + " (" + side_name + "'s formation) is outside its zone " +
                    rules_.zone_names[std::size_t(def.stay_in)]);
      }
      const auto on_points = [&](const Placement& p) { return std::find(points.begin(), points.end(), p.square) != points.end(); };
      const auto royal_now = std::count_if(rules_.setup[side].begin(), rules_.setup[side].end(),
                                           [&](const Placement& p) { return on_points(p) && royal(p.kind); });
      if (std::count_if(kinds.begin(), kinds.end(), royal) != royal_now)
        list.fail("formation " + name + " changes how many royal pieces " + side_name + " has" + RoyalHint);
    }
  }

  // Whether a piece of `kind` may stand on `p` for `side`: inside its `stay_in` zone, if it has one.
  bool may_stand(int side, Kind kind, Point p) const {
    const PieceDef& def = rules_.pieces[std::size_t(kind)];
    return def.stay_in < 0 || rules_.sides[std::size_t(side)].zones[std::size_t(def.stay_in)][p];
  }

  // A game without any royal kind (antichess: the king is a piece like the others) has no check
  // and needs no royal on either side.
  bool has_royal_kind() const {
    return std::any_of(rules_.pieces.begin(), rules_.pieces.end(), [](const PieceDef& p) { return p.royal; });
  }

  static constexpr const char* RoyalHint = " (mark one piece `royal: true` and place exactly one)";


  void read_compound_moves(const ConfigNode& node) {
    for (const auto& [name, m] : node.entries()) {
      check_name(name, m, "compound move");
      m.expect_keys(keys::compound_move);
      CompoundMoveDef def;
      def.name = name;
      def.side = Side(side_named(rules_, m.at("side").as_string(), m.at("side")));
      const std::string& right = m.at("right").as_string();
      if (right.size() != 1 || !std::isalpha(static_cast<unsigned char>(right[0])))
        m.at("right").fail("expected one letter, got " + palace::quote(right));
      def.right = right[0];
      def.kind = kind_named(rules_, m.at("kind"));
      def.from = square(m.at("from"));
      def.to = square(m.at("to"));
      def.partner = kind_named(rules_, m.at("partner"));
      def.partner_from = square(m.at("partner_from"));
      def.partner_to = square(m.at("partner_to"));
      if (const ConfigNode* e = m.find("empty")) def.must_be_empty = point_set(*e);
      if (const ConfigNode* s = m.find("safe")) def.must_be_safe = point_set(*s);
      check_compound_move(def, m);
      for (const auto& other : rules_.compound_moves) {
        if (other.right == def.right) m.at("right").fail("right " + palace::quote(right) + " is used by " + other.name);
        if (other.side == def.side && other.from == def.from && other.to == def.to)
          m.at("to").fail("the move " + move_text(def) + " is " + other.name + " already");
      }
      rules_.compound_moves.push_back(def);
    }
    if (rules_.compound_moves.size() > 16) node.fail("at most 16 compound moves");
  }

  int file_letter(const ConfigNode& node) const {
    const std::string& text = node.as_string();
    if (text.size() != 1 || text[0] < 'a' || text[0] >= 'a' + board().files)
      node.fail("expected a file letter of the " + board_size() + " board, got " + palace::quote(text));
    return text[0] - 'a';
  }

  // The home rank of each side, and for each wing, start of the piece and start of a partner on
  // that wing, one compound move. Its right is named by the partner's file (Shredder's letters),
  // so every start of the piece shares it, and any move of the piece gives it up.
  void read_castling(const ConfigNode& node) {
    node.expect_keys(keys::castling);
    CastlingDef& c = rules_.castling;
    c.kind = kind_named(rules_, node.at("kind"));
    c.partner = kind_named(rules_, node.at("partner"));
    const ConfigNode& home = node.at("home");
    const int zone = zone_named(rules_, home);
    for (int s = 0; s < SideCount; ++s) {
      const PointSet& points = rules_.sides[s].zones[zone];
      int rank = -1;
      bool one_rank = points.any();
      for (Point p = Point(0); p < board().size(); ++p) {
        if (!points[p]) continue;
        if (rank < 0) rank = board().rank_of(p);
        one_rank = one_rank && board().rank_of(p) == rank;
      }
      if (!one_rank) home.fail("the home zone is one rank of each side's, not so for " + rules_.sides[s].name);
      c.home_rank[s] = rank;
    }
    for (const auto& [name, w] : node.at("wings").entries()) {
      check_name(name, w, "wing");
      w.expect_keys(keys::castling_wing);
      CastlingWing wing;
      wing.name = name;
      const std::string& right = w.at("right").as_string();
      if (right.size() != 1 || !std::isalpha(static_cast<unsigned char>(right[0])) ||
          std::tolower(static_cast<unsigned char>(right[0])) - 'a' < board().files)
        w.at("right").fail("expected one letter that names no file (file letters name the partners' files), got " +
                           palace::quote(right));
      wing.right = char(std::toupper(static_cast<unsigned char>(right[0])));
      wing.partners_right = word<bool>(w.at("partners"), {{"right", true}, {"left", false}});
      wing.to_file = file_letter(w.at("to"));
      wing.partner_to_file = file_letter(w.at("partner_to"));
      if (wing.to_file == wing.partner_to_file) w.at("partner_to").fail("the piece and its partner cannot both land on one file");
      c.wings.push_back(wing);
    }
    for (int s = 0; s < SideCount; ++s)
      for (std::size_t w = 0; w < c.wings.size(); ++w)
        for (int from = 0; from < board().files; ++from)
          for (int partner = 0; partner < board().files; ++partner)
            if (partner != from && (partner > from) == c.wings[w].partners_right) add_castling(Side(s), int(w), from, partner);
    if (rules_.compound_moves.size() > 255) node.fail("more than 255 castling moves: the board is too wide");
    std::vector<std::pair<Side, char>> rights;
    for (const CompoundMoveDef& def : rules_.compound_moves)
      if (std::find(rights.begin(), rights.end(), std::pair{def.side, def.right}) == rights.end()) rights.emplace_back(def.side, def.right);
    if (rights.size() > 16) node.fail("at most 16 rights, counting one per file for each side's castling partners");
  }

  void add_castling(Side side, int w, int from_file, int partner_file) {
    const CastlingDef& c = rules_.castling;
    const CastlingWing& wing = c.wings[std::size_t(w)];
    const int rank = c.home_rank[side];
    CompoundMoveDef def;
    def.name = rules_.sides[side].name + "-" + wing.name;
    def.side = side;
    const char file = char('a' + partner_file);
    def.right = rules_.sides[side].upper_case ? char(std::toupper(file)) : file;
    def.kind = c.kind;
    def.partner = c.partner;
    def.from = board().square(from_file, rank);
    def.to = board().square(wing.to_file, rank);
    def.partner_from = board().square(partner_file, rank);
    def.partner_to = board().square(wing.partner_to_file, rank);
    const auto span = [&](int a, int b, PointSet& set) {
      for (int f = std::min(a, b); f <= std::max(a, b); ++f) set.set(board().square(f, rank));
    };
    span(from_file, wing.to_file, def.must_be_safe);
    span(from_file, wing.to_file, def.must_be_empty);
    span(partner_file, wing.partner_to_file, def.must_be_empty);
    def.must_be_empty.reset(def.from);
    def.must_be_empty.reset(def.partner_from);
    def.takes_partner = true;
    def.wing = w;
    rules_.compound_moves.push_back(def);
  }

  std::string move_text(const CompoundMoveDef& def) const { return board().point_name(def.from) + board().point_name(def.to); }

  // A compound move is played by naming its piece's from and to, and both pieces are lifted and
  // put down again: so both must move, to different points, each landing where nothing stands
  // (an `empty` point, or the point the other piece leaves, as in Chess960), and no ordinary move
  // of the piece may share its text.
  void check_compound_move(const CompoundMoveDef& def, const ConfigNode& m) const {
    const auto point = [&](Point s) { return board().point_name(s); };
    if (def.from == def.to) m.at("to").fail("the piece must move, but from and to are both " + point(def.from));
    if (def.partner_from == def.partner_to)
      m.at("partner_to").fail("the partner must move, but partner_from and partner_to are both " + point(def.partner_from));
    if (def.from == def.partner_from) m.at("partner_from").fail("the piece and its partner cannot both start on " + point(def.from));
    if (def.to == def.partner_to) m.at("partner_to").fail("the piece and its partner cannot both land on " + point(def.to));
    const auto check_landing = [&](Point landing, Point left_by_other, const char* key) {
      if (landing != left_by_other && !def.must_be_empty[landing])
        m.at(key).fail(point(landing) + " must be listed under empty: a compound move lands only on an empty point "
                       "or on the point the other piece leaves");
    };
    check_landing(def.to, def.partner_from, "to");
    check_landing(def.partner_to, def.from, "partner_to");
    // Landing on the partner's start is never an ordinary move: the partner stands there.
    if (def.to != def.partner_from && reaches(def.kind, def.side, def.from, def.to))
      m.at("to").fail(move_text(def) + " is also an ordinary move of the " + rules_.pieces[def.kind].name +
                      "; a compound move needs a from and to of its own");
  }

  Point shifted(Point s, int files, int ranks) const {
    const int f = board().file_of(s) + files, r = board().rank_of(s) + ranks;
    if (f < 0 || f >= board().files || r < 0 || r >= board().ranks) return NoPoint;
    return board().square(f, r);
  }

  // One point along a line of the board (orthogonal lines always exist, diagonal ones as declared).
  Point line_step(Point s, int files, int ranks) const {
    const Point t = shifted(s, files, ranks);
    if (t == NoPoint || files == 0 || ranks == 0 || board().all_diagonals) return t;
    for (const auto& [a, b] : board().diagonal_lines)
      if ((a == s && b == t) || (a == t && b == s)) return t;
    return NoPoint;
  }

  // Whether a non-capturing move of the piece's own could take it from `from` to `to` on an
  // otherwise suitable board: blockers, screens and hooks aside, so the answer errs towards yes.
  bool reaches(Kind kind, Side side, Point from, Point to) const {
    const PieceDef& piece = rules_.pieces[kind];
    const SideDef& sd = rules_.sides[side];
    if (!may_stand(side, kind, to)) return false;
    for (const MovePart& part : piece.parts) {
      if (!(part.mode & CanMove)) continue;
      if (part.from_zone >= 0 && !sd.zones[part.from_zone][from]) continue;
      if (part.to_zone >= 0 && !sd.zones[part.to_zone][to]) continue;
      for (const LeapShape& leap : part.leaps)
        for (int leaps = 1; leaps == 1 || (part.rides && (!part.range || leaps <= part.range)); ++leaps) {
          const Point landing = shifted(from, leaps * leap.file * sd.right, leaps * leap.rank * sd.forward);
          if (landing == to) return true;
          if (landing == NoPoint) break;
        }
      const int reach = part.kind == PartKind::Step ? 1 : part.range ? part.range : std::max(MaxFiles, MaxRanks);
      for (const int d : part.directions) {
        Point s = from;
        for (int travelled = 1; travelled <= reach; ++travelled) {
          s = line_step(s, DirFile[d] * sd.right, DirRank[d] * sd.forward);
          if (s == NoPoint) break;
          // A hop needs its screen first, so it never lands on the first point of its line.
          if (s == to && (part.kind != PartKind::Hop || travelled > 1)) return true;
        }
      }
    }
    return false;
  }

  // How moves are played beyond the pieces' own: facing royals, passing, captures.
  void read_rules(const ConfigNode& node) {
    node.expect_keys(keys::rules);
    MoveRules& r = rules_.rules;
    if (const ConfigNode* f = node.find("facing_royals"))
      r.facing_royals = word<FacingRule>(*f, {{"allowed", FacingRule::Allowed}, {"forbidden", FacingRule::Forbidden},
                                              {"standoff", FacingRule::Standoff}});
    if (const ConfigNode* p = node.find("pass"))
      r.pass = word<PassRule>(*p, {{"never", PassRule::Never}, {"unless_in_check", PassRule::UnlessInCheck}});
    if (const ConfigNode* c = node.find("captures"))
      r.captures_compulsory = word<bool>(*c, {{"optional", false}, {"compulsory", true}});
    if (const ConfigNode* e = node.find("explosion")) {
      e->expect_keys(keys::explosion);
      r.explosion = true;
      if (const ConfigNode* spares = e->find("spares"))
        r.explosion_spares = kinds_named(rules_, *spares);
    }
  }

  // The engine's tuning, kept apart from the rules: it changes how the engine plays, never the game.
  void read_engine(const ConfigNode& node) {
    node.expect_keys(keys::engine);
    if (const ConfigNode* e = node.find("eval")) rules_.eval = read_eval(*e, rules_);
    if (const ConfigNode* s = node.find("search")) rules_.search = read_search_rules(*s);
  }

  void check_zones() const {
    for (const PieceDef& p : rules_.pieces) {
      if (p.stay_in < 0) continue;
      for (int s = 0; s < SideCount; ++s)
        if (rules_.sides[s].zones[p.stay_in].none())
          throw RuleError(p.mark, "pieces." + p.name + ".stay_in",
                          "zone '" + rules_.zone_names[p.stay_in] + "' is empty for " + rules_.sides[s].name);
    }
  }

  const ConfigNode& root_;
  RuleSet rules_;
};

}  // namespace

RuleSet load_rules_from_tree(const ConfigNode& root, const std::string& source_file) {
  return Loader(root, source_file).run();
}

RuleSet load_rules(const std::string& path) { return load_rules_from_tree(ConfigNode::load_file(path), path); }

}  // namespace palace
