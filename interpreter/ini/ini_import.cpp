#include "ini/ini_import.h"

#include <yaml-cpp/yaml.h>

#include <algorithm>
#include <cctype>
#include <cstring>
#include <map>
#include <set>
#include <sstream>

#include "core/error.h"
#include "core/text.h"
#include "loader/betza.h"

namespace palace {

namespace {

// A section refused: the key (or the section's header, key empty) and why.
struct Refusal {
  IniEntry entry;
  std::string why;
};

[[noreturn]] void refuse(const IniEntry& entry, const std::string& why) { throw Refusal{entry, why}; }

// The reference's predefined piece types and their Betza (the header of its variants.ini). `pawn`
// is its own: double steps, en passant and promotion come from the section's keys.
const std::map<std::string, std::string>& predefined_pieces() {
  static const std::map<std::string, std::string> table = {
      {"pawn", ""},           {"knight", "N"},         {"bishop", "B"},         {"rook", "R"},
      {"queen", "Q"},         {"fers", "F"},           {"alfil", "A"},          {"fersAlfil", "FA"},
      {"silver", "FfW"},      {"aiwok", "RNF"},        {"bers", "RF"},          {"archbishop", "BN"},
      {"chancellor", "RN"},   {"amazon", "QN"},        {"knibis", "mNcB"},      {"biskni", "mBcN"},
      {"kniroo", "mNcR"},     {"rookni", "mRcN"},      {"shogiPawn", "fW"},     {"lance", "fR"},
      {"shogiKnight", "fN"},  {"gold", "WfF"},         {"dragonHorse", "BW"},   {"clobber", "cW"},
      {"breakthrough", "fmWfF"}, {"immobile", ""},     {"cannon", "mRcpR"},     {"janggiCannon", "pR"},     {"soldier", "fsW"},
      {"horse", "nN"},        {"elephant", "nA"},      {"janggiElephant", "nZ"}, {"banner", "RcpRnN"},
      {"wazir", "W"},         {"commoner", "K"},       {"centaur", "KN"},       {"king", "K"}};
  return table;
}

bool is_piece_key(const std::string& key) {
  if (predefined_pieces().count(key)) return true;
  if (key.rfind("customPiece", 0) != 0 || key.size() == 11) return false;
  const std::string n = key.substr(11);
  return std::all_of(n.begin(), n.end(), [](char c) { return std::isdigit(static_cast<unsigned char>(c)); }) &&
         std::stoi(n) >= 1 && std::stoi(n) <= 25;
}

// Keys for GUIs and the reference's own engine: they change no rule.
bool is_ignored_key(const std::string& key) {
  static const std::set<std::string> keys = {"pieceToCharTable", "variantTemplate", "pocketSize", "pieceValueMg",
                                             "pieceValueEg", "nnueAlias"};
  return keys.count(key) || key.rfind("mobilityRegion", 0) == 0;
}

// The keys the converter reads.
const std::set<std::string>& mapped_keys() {
  static const std::set<std::string> keys = {
      "maxRank", "maxFile", "startFen", "pawnTypes", "promotionPawnTypes", "promotionRegionWhite",
      "promotionRegionBlack", "promotionPieceTypes", "promotedPieceType", "mandatoryPawnPromotion",
      "mandatoryPiecePromotion", "doubleStep", "doubleStepRegionWhite", "doubleStepRegionBlack", "castling",
      "castlingKingsideFile", "castlingQueensideFile", "castlingRank", "castlingKingPiece", "castlingRookPieces",
      "mustCapture", "pieceDrops", "capturesToHand", "dropLoop", "firstRankPawnDrops", "promotionZonePawnDrops",
      "dropNoDoubled", "immobilityIllegal", "shogiPawnDropMateIllegal", "blastOnCapture", "flyingGeneral",
      "nMoveRule", "nMoveRuleTypes", "nFoldRule", "nFoldValue", "nFoldValueAbsolute", "perpetualCheckIllegal",
      "stalemateValue", "checkmateValue", "extinctionValue", "extinctionPieceTypes", "extinctionPieceCount",
      "extinctionOpponentPieceCount", "flagPiece", "flagPieceWhite", "flagPieceBlack", "flagRegion",
      "flagRegionWhite", "flagRegionBlack", "flagPieceSafe", "checkCounting", "dropRegionWhite", "dropRegionBlack"};
  return keys;
}

// The reference's defaults (its Variant's template), for keys a section without a built-in
// parent does not give.
const std::map<std::string, std::string>& template_defaults() {
  static const std::map<std::string, std::string> values = {
      {"maxRank", "8"}, {"maxFile", "8"},
      {"startFen", "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1"},
      {"pawnTypes", "p"}, {"promotionRegionWhite", "*8"}, {"promotionRegionBlack", "*1"},
      {"promotionPieceTypes", "nbrq"}, {"mandatoryPawnPromotion", "true"}, {"mandatoryPiecePromotion", "false"},
      {"doubleStep", "true"}, {"doubleStepRegionWhite", "*2"}, {"doubleStepRegionBlack", "*7"},
      {"castling", "true"}, {"castlingKingsideFile", "g"}, {"castlingQueensideFile", "c"}, {"castlingRank", "1"},
      {"castlingKingPiece", "k"}, {"castlingRookPieces", "r"}, {"nMoveRule", "50"}, {"nFoldRule", "3"},
      {"nFoldValue", "draw"}, {"nFoldValueAbsolute", "false"}, {"stalemateValue", "draw"},
      {"checkmateValue", "loss"}, {"extinctionValue", "none"}, {"extinctionPieceCount", "0"},
      {"extinctionOpponentPieceCount", "0"}, {"flagPieceSafe", "false"}, {"checkCounting", "false"},
      {"mustCapture", "false"}, {"pieceDrops", "false"}, {"capturesToHand", "false"}, {"dropLoop", "false"},
      {"firstRankPawnDrops", "false"}, {"promotionZonePawnDrops", "false"}, {"immobilityIllegal", "false"},
      {"shogiPawnDropMateIllegal", "false"}, {"blastOnCapture", "false"}, {"flyingGeneral", "false"},
      {"perpetualCheckIllegal", "false"}};
  return values;
}

// Why a key the converter does not read refuses its section: the mechanics Palace has no
// construct for, by the key that turns them on (issue 52 lists them). A key with its template
// default changes nothing and passes.
std::string unmapped_reason(const std::string& key) {
  static const std::map<std::string, std::string> reasons = {
      {"wallingRule", "walls are not a construct of Palace"},
      {"wallOrMove", "walls are not a construct of Palace"},
      {"petrifyOnCaptureTypes", "walls are not a construct of Palace"},
      {"connectN", "winning by a line of pieces is not a construct of Palace"},
      {"connectNxN", "winning by a block of pieces is not a construct of Palace"},
      {"collinearN", "winning by a line of pieces is not a construct of Palace"},
      {"connectRegion1White", "winning by connecting regions is not a construct of Palace"},
      {"flipEnclosedPieces", "flipping pieces is not a construct of Palace"},
      {"enclosingDrop", "drops that must enclose are not a construct of Palace"},
      {"gating", "gating is not a construct of Palace"},
      {"seirawanGating", "gating is not a construct of Palace"},
      {"cambodianMoves", "one-time move rights are not a construct of Palace"},
      {"extinctionPseudoRoyal", "pseudo-royal kinds are not a construct of Palace"},
      {"dupleCheck", "pseudo-royal kinds are not a construct of Palace"},
      {"extinctionClaim", "an extinction only the side to move may claim is not a construct of Palace"},
      {"flagMove", "an extra move after the flag is reached is not a construct of Palace"},
      {"flagPieceCount", "several flag pieces are not a construct of Palace"},
      {"flagPieceBlockedWin", "several flag pieces are not a construct of Palace"},
      {"checking", "moves that may not give check are not a construct of Palace"},
      {"dropChecks", "drops that may not give check are not a construct of Palace"},
      {"mustDrop", "compulsory drops are not a construct of Palace"},
      {"sittuyinPromotion", "in-place promotion is not a construct of Palace"},
      {"sittuyinRookDrop", "a set-up phase is not a construct of Palace"},
      {"promotionLimit", "promotion count limits are not a construct of Palace"},
      {"piecePromotionOnCapture", "promotion on capture is not a construct of Palace"},
      {"pieceDemotion", "demotion is not a construct of Palace"},
      {"dropPromoted", "dropping a promoted piece is not a construct of Palace"},
      {"dropNoDoubledCount", "a limit of N a file is not a construct of Palace"},
      {"countingRule", "this counting rule is not a construct of Palace"},
      {"materialCounting", "this material counting is not a construct of Palace"},
      {"stalematePieceCount", "stalemate counted by material is not a construct of Palace"},
      {"castlingWins", "castling as a goal is not a construct of Palace"},
      {"oppositeCastling", "castling restricted by the opponent's is not a construct of Palace"},
      {"makpongRule", "a king that may not move out of check is not a construct of Palace"},
      {"shatarMateRule", "shatar's mate rules are not a construct of Palace"},
      {"bikjangRule", "bikjang as the reference rules it is not mapped by the importer"},
      {"chasingRule", "the AXF chase rules are not mapped by the importer"},
      {"moveRepetitionIllegal", "the back-and-forth rule is not mapped by the importer"},
      {"pass", "passing in check is not a construct of Palace"},
      {"passOnStalemate", "passing only when stalemated is not a construct of Palace"},
      {"tripleStepRegionWhite", "triple steps are not mapped by the importer"},
      {"tripleStepRegionBlack", "triple steps are not mapped by the importer"},
      {"enPassantRegion", "en passant in a region is not mapped by the importer"},
      {"soldierPromotionRank", "a soldier changing its moves at a rank is not mapped by the importer"},
      {"diagonalLines", "lines of a palace are not mapped by the importer"},
      {"chess960", "Chess960 starts are not mapped by the importer"},
      {"twoBoards", "bughouse's second board is not a construct of Palace"},
      {"blastImmuneTypes", "explosion-immune kinds are not a construct of Palace"},
      {"mutuallyImmuneTypes", "mutually immune kinds are not a construct of Palace"},
      {"adjudicateFullBoard", "a full board adjudicated is not a construct of Palace"}};
  const auto it = reasons.find(key);
  return it != reasons.end() ? it->second : "the importer has no mapping for this key";
}

// Keys a section without a built-in parent may give with their template default, changing nothing.
bool is_default(const std::string& key, const std::string& value) {
  static const std::map<std::string, std::string> defaults = {
      {"checking", "true"}, {"dropChecks", "true"}, {"mustDrop", "false"}, {"gating", "false"},
      {"extinctionClaim", "false"}, {"extinctionPseudoRoyal", "false"}, {"flagMove", "false"},
      {"flagPieceCount", "1"}, {"pass", "false"}, {"passOnStalemate", "false"}, {"chess960", "false"},
      {"dropNoDoubledCount", "1"}, {"countingRule", "none"}, {"materialCounting", "none"},
      {"wallingRule", "none"}, {"connectN", "0"}, {"castlingWins", "-"}, {"pieceDemotion", "false"},
      {"dropPromoted", "false"}, {"moveRepetitionIllegal", "false"}, {"chasingRule", "none"},
      {"enclosingDrop", "none"}, {"flipEnclosedPieces", "none"}, {"twoBoards", "false"}};
  const auto it = defaults.find(key);
  return it != defaults.end() && it->second == value;
}

// "fersAlfil" -> "fers-alfil", "customPiece3" -> "custom-piece-3": Palace's names for the kinds.
std::string kind_name(const std::string& key) {
  std::string name;
  for (const char c : key) {
    if (std::isupper(static_cast<unsigned char>(c)) || (std::isdigit(static_cast<unsigned char>(c)) && !name.empty() &&
                                                        !std::isdigit(static_cast<unsigned char>(name.back()))))
      name += '-';
    name += static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  }
  return name;
}

struct DeclaredKind {
  std::string name;
  char letter = '?';  // upper case
};

// Lists of scalars (points, kinds, offsets) written on one line, as the shipped files write them.
void inline_short_lists(YAML::Node node) {
  if (node.IsMap()) {
    for (auto entry : node) inline_short_lists(entry.second);
  } else if (node.IsSequence()) {
    bool scalars = true;
    for (auto item : node) {
      inline_short_lists(item);
      scalars = scalars && !item.IsMap();
    }
    if (scalars) node.SetStyle(YAML::EmitterStyle::Flow);
  }
}

// One section's conversion. `keys` are its own merged with its in-file parents'; `base` the shipped
// parent, or null for the reference's template.
class SectionConverter {
 public:
  SectionConverter(std::string name, std::map<std::string, IniEntry> keys, const ShippedVariant* base, IniEntry header)
      : name_(std::move(name)), keys_(std::move(keys)), base_(base), header_(std::move(header)) {}

  std::string convert() {
    check_keys();
    out_["language"] = 1;
    if (base_) out_["import"].push_back(base_->import_path);
    out_["name"] = name_;
    board();
    sides();
    pieces();
    setup();
    promotion();
    castling();
    hands();
    rules_and_ends();
    out_["uci"]["variant"] = name_;
    out_["notation"]["pgn"].push_back(name_);
    inline_short_lists(out_);
    YAML::Emitter emitter;
    emitter << out_;
    return std::string(emitter.c_str()) + "\n";
  }

 private:
  // The first key in file order that nothing maps refuses the section.
  void check_keys() const {
    std::vector<const IniEntry*> ordered;
    for (const auto& [key, entry] : keys_) ordered.push_back(&entry);
    std::sort(ordered.begin(), ordered.end(), [](const IniEntry* a, const IniEntry* b) { return a->line < b->line; });
    for (const IniEntry* e : ordered) {
      if (is_piece_key(e->key) || is_ignored_key(e->key) || mapped_keys().count(e->key)) continue;
      if (!base_ && is_default(e->key, e->value)) continue;
      refuse(*e, unmapped_reason(e->key));
    }
  }

  const IniEntry* given(const std::string& key) const {
    const auto it = keys_.find(key);
    return it == keys_.end() ? nullptr : &it->second;
  }
  // The section's value, else the template's; over a shipped parent, only what the section gives.
  std::optional<std::string> value(const std::string& key) const {
    if (const IniEntry* e = given(key)) return e->value;
    if (base_) return std::nullopt;
    const auto it = template_defaults().find(key);
    if (it == template_defaults().end()) return std::nullopt;
    return it->second;
  }
  // The section's value, else the template's, with or without a shipped parent: for the keys read
  // only once the section has given one of their group (castling's, the counts of a rule).
  std::string setting(const std::string& key) const {
    if (const IniEntry* e = given(key)) return e->value;
    const auto it = template_defaults().find(key);
    return it == template_defaults().end() ? "" : it->second;
  }
  // An entry to refuse by: the given one, else the section's header.
  const IniEntry& where(const std::string& key) const {
    if (const IniEntry* e = given(key)) return *e;
    return header_;
  }
  bool flag(const std::string& key) const {
    const std::string v = setting(key);
    if (v.empty() || v == "false" || v == "0") return false;
    if (v == "true" || v == "1") return true;
    refuse(where(key), "not true or false");
  }
  int number(const std::string& key, int low, int high) const {
    const std::string v = setting(key);
    try {
      std::size_t used = 0;
      const int n = std::stoi(v, &used);
      if (used == v.size() && n >= low && n <= high) return n;
    } catch (const std::exception&) {
    }
    refuse(where(key), "not a number from " + std::to_string(low) + " to " + std::to_string(high));
  }
  // A [File]: a number from 1 or a letter from a.
  int file_number(const std::string& key) const {
    const std::string v = setting(key);
    if (v.size() == 1 && std::isalpha(static_cast<unsigned char>(v[0]))) return std::tolower(v[0]) - 'a' + 1;
    return number(key, 1, 16);
  }

  void board() {
    files_ = base_ && !given("maxFile") ? base_->rules.board.files : file_number("maxFile");
    ranks_ = base_ && !given("maxRank") ? base_->rules.board.ranks : number("maxRank", 1, 16);
    if (files_ < 2 || files_ > 16) refuse(where("maxFile"), "a board has 2 to 16 files");
    if (ranks_ < 2) refuse(where("maxRank"), "a board has 2 to 16 ranks");
    if (base_) return resize_base();
    out_["board"]["files"] = files_;
    out_["board"]["ranks"] = ranks_;
    out_["board"]["diagonals"] = "all";
  }

  // The reference's regions are points of a fixed 12 by 10 grid: on a board of another size the
  // imported file's zones keep the points the board still has, its castling is built anew
  // (castling()), and its engine tuning, shaped to its board, is left out.
  void resize_base() {
    const BoardDef& old = base_->rules.board;
    resized_ = files_ != old.files || ranks_ != old.ranks;
    if (!resized_) return;
    if (old.ranks_from_top || !old.diagonal_lines.empty())
      refuse(where(given("maxFile") ? "maxFile" : "maxRank"), "the imported board's lines or numbering do not resize");
    out_["board"]["files"] = files_;
    out_["board"]["ranks"] = ranks_;
    for (int s = 0; s < 2; ++s)
      for (std::size_t z = 0; z < base_->rules.zone_names.size(); ++z) {
        YAML::Node points(YAML::NodeType::Sequence);
        for (const std::string& p : base_zone_points(int(z), s)) points.push_back(p);
        out_["sides"][side(s)]["zones"][base_->rules.zone_names[z]] = points;
      }
    if (base_->has_engine) out_["engine"] = YAML::Node(YAML::NodeType::Null);
  }

  // A zone of the shipped parent for side `s`, the points this board has.
  std::vector<std::string> base_zone_points(int zone, int s) const {
    const BoardDef& old = base_->rules.board;
    std::vector<std::string> points;
    for (int p = 0; p < old.size(); ++p)
      if (base_->rules.sides[s].zones[zone].test(p) && old.file_of(Point(p)) < files_ && old.rank_of(Point(p)) < ranks_)
        points.push_back(point(old.file_of(Point(p)), old.rank_of(Point(p))));
    return points;
  }

  // The parent pawn's promotion zone, or -1.
  int base_pawn_zone() const {
    const Kind k = base_->rules.kind_by_letter('P');
    return k == NoKind ? -1 : base_->rules.pieces[k].promotion_zone;
  }

  // `key` of `map` left out: written `~` where the imported file has it (`inherited`), else not at all.
  static void unset(YAML::Node map, const std::string& key, bool inherited) {
    if (inherited) {
      map[key] = YAML::Node(YAML::NodeType::Null);
    } else {
      map.remove(key);
    }
  }

  std::string side(int s) const { return base_ ? base_->rules.sides[s].name : (s == 0 ? "white" : "black"); }

  void sides() {
    if (base_) return;
    for (int s = 0; s < 2; ++s) {
      YAML::Node n = out_["sides"][side(s)];
      n["forward"] = s == 0 ? "up" : "down";
      n["letters"] = s == 0 ? "upper" : "lower";
    }
  }

  // The name of a point by its indices, rank 0 the first side's edge as a FEN reads it: a shipped
  // parent's board names it (its ranks may count from the top).
  std::string point(int file, int rank) const {
    if (base_ && !resized_) return base_->rules.board.point_name(base_->rules.board.square(file, rank));
    std::string name = std::to_string(rank + 1);
    name.insert(name.begin(), char('a' + file));
    return name;
  }

  // A [Bitboard]: points, `*N` for a whole rank, `-` for none. The reference's boards are drawn on
  // 12 files by 10 ranks: a point beyond this board is in no region, as there.
  std::vector<std::string> region(const IniEntry& e, const std::string& text) const {
    std::vector<std::string> points;
    std::istringstream words(text);
    for (std::string w; words >> w;) {
      if (w == "-") continue;
      int rank = 0;
      try {
        std::size_t used = 0;
        rank = std::stoi(w.substr(1), &used) - 1;
        if (used != w.size() - 1) rank = -1;
      } catch (const std::exception&) {
        rank = -1;
      }
      const bool all_files = w[0] == '*';
      const int file = all_files ? 0 : std::tolower(w[0]) - 'a';
      if (rank < 0 || file < 0 || (!all_files && w.size() < 2)) refuse(e, quote(w) + " is not a point");
      if (rank >= ranks_ || file >= files_) continue;
      for (int f = all_files ? 0 : file; f <= (all_files ? files_ - 1 : file); ++f) points.push_back(point(f, rank));
    }
    return points;
  }

  // A zone of each side, from the White and Black keys (or one key for both).
  void zone(const std::string& zone_name, const std::string& white_key, const std::string& black_key) {
    for (int s = 0; s < 2; ++s) {
      const std::string& key = s == 0 ? white_key : black_key;
      YAML::Node points(YAML::NodeType::Sequence);
      for (const std::string& p : region(where(key), setting(key))) points.push_back(p);
      out_["sides"][side(s)]["zones"][zone_name] = points;
    }
  }

  // The base's kind of a letter, or an empty name.
  std::string base_kind(char upper) const {
    if (!base_) return "";
    const Kind k = base_->rules.kind_by_letter(upper);
    return k == NoKind ? "" : base_->rules.pieces[k].name;
  }

  void pieces() {
    std::vector<const IniEntry*> declared;
    for (const auto& [key, entry] : keys_)
      if (is_piece_key(key)) declared.push_back(&entry);
    std::sort(declared.begin(), declared.end(), [](const IniEntry* a, const IniEntry* b) { return a->line < b->line; });
    for (const IniEntry* e : declared) declare(*e);
    const bool double_step_keys = given("doubleStep") || given("doubleStepRegionWhite") || given("doubleStepRegionBlack");
    if (base_ && double_step_keys && pawn_kind_.empty()) {
      pawn_kind_ = kind_of(header_, 'p');
      pawn_moves(out_["pieces"][pawn_kind_]["moves"]);
    }
  }

  void declare(const IniEntry& e) {
    if (e.value == "-") {
      if (base_) refuse(e, "removing a kind of the imported file is not converted (its evaluation and notation name it)");
      return;
    }
    const std::size_t colon = e.value.find(':');
    const std::string letter_text = e.value.substr(0, colon);
    if (letter_text.size() != 1 || !std::isalpha(static_cast<unsigned char>(letter_text[0])))
      refuse(e, "a piece's letter is one letter");
    const char letter = static_cast<char>(std::toupper(static_cast<unsigned char>(letter_text[0])));
    const auto predefined = predefined_pieces().find(e.key);
    const std::string betza = colon != std::string::npos ? e.value.substr(colon + 1)
                              : predefined != predefined_pieces().end() ? predefined->second
                                                                        : "";
    for (const DeclaredKind& k : kinds_)
      if (k.letter == letter) refuse(e, std::string("the letter ") + letter_text + " is " + k.name + "'s already");
    const std::string existing = base_kind(letter);
    const std::string name = existing.empty() ? kind_name(e.key) : existing;
    kinds_.push_back({name, letter});
    if (e.key == "pawn") pawn_kind_ = name;
    if (e.key == "shogiPawn") shogi_pawn_kinds_.push_back(name);
    YAML::Node piece = out_["pieces"][name];
    if (existing.empty()) piece["letter"] = std::string(1, letter);
    const bool royal = e.key == "king";
    const bool was_royal = !existing.empty() && base_->rules.pieces[base_->rules.kind_by_name(existing)].royal;
    if (royal != was_royal) piece["royal"] = royal;
    if (e.key == "pawn" && colon == std::string::npos) {
      pawn_moves(piece["moves"]);
    } else {
      betza_moves(e, betza, piece["moves"]);
    }
    if (e.key == "janggiCannon") {
      piece["may_not_jump"].push_back(name);
      piece["may_not_capture"].push_back(name);
    }
  }

  void betza_moves(const IniEntry& e, const std::string& betza, YAML::Node moves) {
    moves = YAML::Node(YAML::NodeType::Sequence);
    if (betza.empty()) return;
    const bool initial = betza.find('i') != std::string::npos;
    const BetzaReading reading = read_betza(betza, initial ? 0 : -1);
    if (!reading.error.empty()) refuse(e, "Betza " + quote(betza) + ": " + reading.error);
    YAML::Node part;
    part["betza"] = betza;
    if (initial) part["initial_zone"] = double_step_zone();
    moves.push_back(part);
  }

  // Where first moves (`i`, the pawn's double step) start: the section's double-step region (none
  // where `doubleStep` is false), else the imported pawn's.
  std::string double_step_zone() {
    if (!double_step_zone_.empty()) return double_step_zone_;
    const bool keys = given("doubleStep") || given("doubleStepRegionWhite") || given("doubleStepRegionBlack");
    if (base_ && !keys) {
      const Kind pawn = base_->rules.kind_by_letter('P');
      if (pawn != NoKind)
        for (const MovePart& part : base_->rules.pieces[pawn].parts)
          if (part.leaves_ghost && part.from_zone >= 0) return double_step_zone_ = base_->rules.zone_names[part.from_zone];
      refuse(header_, "the imported file's pawn has no double step whose zone first moves could start from");
    }
    double_step_zone_ = "double-step";
    if (flag("doubleStep") || (base_ && !given("doubleStep"))) {
      if (base_ && (!given("doubleStepRegionWhite") || !given("doubleStepRegionBlack")))
        refuse(header_, "a double step over a built-in parent needs doubleStepRegionWhite and doubleStepRegionBlack");
      zone(double_step_zone_, "doubleStepRegionWhite", "doubleStepRegionBlack");
    } else {
      no_double_step_ = true;
      for (int s = 0; s < 2; ++s) out_["sides"][side(s)]["zones"][double_step_zone_] = YAML::Node(YAML::NodeType::Sequence);
    }
    return double_step_zone_;
  }

  // The reference's pawn: a step forward, captures diagonally forward, and where `doubleStep`
  // holds a double step from its region that en passant may capture.
  void pawn_moves(YAML::Node moves) {
    moves = YAML::Node(YAML::NodeType::Sequence);
    YAML::Node step;
    step["step"] = "forward";
    step["only"] = "move";
    moves.push_back(step);
    const std::string zone_name = double_step_zone();
    if (!no_double_step_) {
      YAML::Node leap;
      leap["leap"].push_back(0);
      leap["leap"].push_back(2);
      YAML::Node block;
      block.push_back(0);
      block.push_back(1);
      leap["block"].push_back(block);
      leap["symmetry"] = "none";
      leap["only"] = "move";
      leap["from_zone"] = zone_name;
      leap["leaves_ghost"] = true;
      moves.push_back(leap);
    }
    YAML::Node capture;
    capture["step"].push_back("forward_left");
    capture["step"].push_back("forward_right");
    capture["only"] = "capture";
    if (!no_double_step_) capture["takes_ghost"] = true;
    moves.push_back(capture);
  }

  // The kind of a letter, the section's own first, then the base's.
  std::string kind_of(const IniEntry& e, char c) const {
    const char upper = static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
    for (const DeclaredKind& k : kinds_)
      if (k.letter == upper) return k.name;
    const std::string b = base_kind(upper);
    if (b.empty()) refuse(e, std::string("no piece has the letter ") + c);
    return b;
  }

  // A [PieceSet]: letters, `-` for none.
  std::vector<std::string> kinds_of(const std::string& key) const {
    std::vector<std::string> names;
    const std::string v = value(key).value_or("-");
    if (v == "-") return names;
    for (const char c : v)
      if (c != ' ') names.push_back(kind_of(where(key), c));
    return names;
  }
  // Template defaults name the chess pieces: those the section does not declare drop out.
  std::vector<std::string> declared_kinds_of(const std::string& key) const {
    if (given(key)) return kinds_of(key);
    std::vector<std::string> names;
    const std::string letters = value(key).value_or("");
    for (const char c : letters)
      for (const DeclaredKind& k : kinds_)
        if (k.letter == std::toupper(static_cast<unsigned char>(c))) names.push_back(k.name);
    return names;
  }

  // The imported file's kinds, then those the section adds (its own and the hand's promoted pawns).
  std::vector<std::string> every_kind() const {
    std::vector<std::string> names;
    if (base_)
      for (const auto& piece : base_->rules.pieces) names.push_back(piece.name);
    if (const YAML::Node own = out_["pieces"]; own.IsMap())
      for (const auto& piece : own) {
        const std::string name = piece.first.as<std::string>();
        if (std::find(names.begin(), names.end(), name) == names.end()) names.push_back(name);
      }
    return names;
  }

  void setup() {
    if (!value("startFen")) return;
    const IniEntry& e = where("startFen");
    std::istringstream fields(*value("startFen"));
    std::string placement, turn, rights, en_passant, checks;
    fields >> placement >> turn >> rights >> en_passant >> checks;
    std::string hand;
    if (const std::size_t open = placement.find('['); open != std::string::npos) {
      hand = placement.substr(open + 1, placement.find(']', open) - open - 1);
      placement.resize(open);
    }
    if (!hand.empty() && hand != "-") refuse(e, "a starting hand is not a construct of Palace");
    // The reference reads a FEN that stops early with White to move and no castling rights; one
    // without a rights field goes on with the counters.
    if (turn.empty()) turn = "w";
    if (rights.empty() || std::isdigit(static_cast<unsigned char>(rights[0]))) {
      checks = en_passant;
      rights = "-";
    }
    if (turn != "w") refuse(e, "a start with the second side to move is not a construct of Palace");
    start_rights_ = rights;
    std::map<std::string, std::vector<std::string>> placed[2];
    start_[0].clear();
    start_[1].clear();
    int rank = ranks_ - 1, file = 0;
    for (std::size_t i = 0; i < placement.size(); ++i) {
      const char c = placement[i];
      if (c == '/') {
        if (file != files_) refuse(e, "rank " + std::to_string(rank + 1) + " is not " + std::to_string(files_) + " points wide");
        --rank;
        file = 0;
      } else if (std::isdigit(static_cast<unsigned char>(c))) {
        int n = c - '0';
        while (i + 1 < placement.size() && std::isdigit(static_cast<unsigned char>(placement[i + 1]))) n = n * 10 + (placement[++i] - '0');
        file += n;
      } else if (c == '*') {
        refuse(e, "walls are not a construct of Palace");
      } else {
        const bool promoted = c == '+';
        const char letter = promoted && i + 1 < placement.size() ? placement[++i] : c;
        if (rank < 0 || file >= files_) refuse(e, "more points than the board has");
        std::string kind = kind_of(e, letter);
        if (promoted) kind = "promoted-" + kind;
        const int s = std::isupper(static_cast<unsigned char>(letter)) ? 0 : 1;
        // A wire that numbers ranks from the other edge writes its FEN from that edge too.
        const int r = base_ && base_->rules.uci.mirror_ranks ? ranks_ - 1 - rank : rank;
        placed[s][kind].push_back(point(file, r));
        start_[s][point(file, r)] = kind;
        ++file;
      }
    }
    if (rank != 0 || file != files_) refuse(e, "its ranks do not fill the board");
    for (int s = 0; s < 2; ++s) {
      YAML::Node pieces = out_["setup"][side(s)]["pieces"];
      if (base_ && !base_->rules.formation_squares[s].empty()) out_["setup"][side(s)]["formation"] = YAML::Node(YAML::NodeType::Null);
      if (base_)
        for (const Placement& p : base_->rules.setup[s]) {
          const std::string& name = base_->rules.pieces[p.kind].name;
          if (!placed[s].count(name)) pieces[name] = YAML::Node(YAML::NodeType::Null);
        }
      for (const auto& [kind, points] : placed[s]) {
        if (points.size() == 1) {
          pieces[kind] = points[0];
        } else {
          for (const std::string& p : points) pieces[kind].push_back(p);
        }
      }
    }
    if (flag("checkCounting")) {
      const std::size_t plus = checks.find('+');
      if (plus == std::string::npos || plus == 0 || checks.substr(0, plus) != checks.substr(plus + 1))
        refuse(e, "checkCounting needs the checks each side must give, equal, as N+N after the en passant field");
      out_["ends"]["checks_given"] = std::stoi(checks.substr(0, plus));
    }
  }

  void promotion() {
    const bool regions = given("promotionRegionWhite") || given("promotionRegionBlack");
    const bool pawn_keys = given("promotionPieceTypes") || given("mandatoryPawnPromotion") || given("promotionPawnTypes") ||
                           given("pawnTypes") || regions;
    if (!base_ || regions) zone("promotion-region", "promotionRegionWhite", "promotionRegionBlack");
    // Over a parent, the side the section does not give keeps its pawn's region.
    for (int s = 0; s < 2 && base_ && regions; ++s)
      if (!given(s == 0 ? "promotionRegionWhite" : "promotionRegionBlack")) {
        if (base_pawn_zone() < 0) refuse(header_, "the imported file's pawn has no promotion zone");
        YAML::Node points(YAML::NodeType::Sequence);
        for (const std::string& p : base_zone_points(base_pawn_zone(), s)) points.push_back(p);
        out_["sides"][side(s)]["zones"]["promotion-region"] = points;
      }
    if (!base_ || pawn_keys) pawn_promotion(regions);
    if (given("promotedPieceType")) piece_promotion(regions);
  }

  // The zone a promotion uses: the section's, else the base kind's own.
  std::string promotion_zone(const std::string& kind, bool regions) const {
    if (!base_ || regions) return "promotion-region";
    const Kind k = base_->rules.kind_by_name(kind);
    if (k == NoKind || base_->rules.pieces[k].promotion_zone < 0)
      refuse(header_, "the imported file gives " + kind + " no promotion zone");
    return base_->rules.zone_names[base_->rules.pieces[k].promotion_zone];
  }

  void pawn_promotion(bool regions) {
    const std::string types_key = given("promotionPawnTypes") ? "promotionPawnTypes" : "pawnTypes";
    std::vector<std::string> pawns = declared_kinds_of(types_key);
    if (base_ && !given(types_key)) pawns = {kind_of(header_, 'p')};
    std::vector<std::string> to;
    if (base_ && !given("promotionPieceTypes")) {
      const Kind k = base_->rules.kind_by_name(pawns.empty() ? "" : pawns[0]);
      if (k != NoKind)
        for (const Kind t : base_->rules.pieces[k].promotion_kinds) to.push_back(base_->rules.pieces[t].name);
    } else {
      to = declared_kinds_of("promotionPieceTypes");
    }
    for (const std::string& pawn : pawns) {
      YAML::Node p = out_["pieces"][pawn]["promotion"];
      if (to.empty()) {
        const Kind k = base_ ? base_->rules.kind_by_name(pawn) : NoKind;
        unset(out_["pieces"][pawn], "promotion", k != NoKind && base_->rules.pieces[k].promotion_zone >= 0);
        continue;
      }
      p["zone"] = promotion_zone(pawn, regions);
      p["to"] = YAML::Node(YAML::NodeType::Sequence);
      for (const std::string& t : to) p["to"].push_back(t);
      if (value("mandatoryPawnPromotion")) p["optional"] = !flag("mandatoryPawnPromotion");
    }
  }

  // `p:g s:g`: each kind promotes, shogi's way, to a kind of its own moving like the target, written
  // `+P`, which a hand takes back unpromoted.
  void piece_promotion(bool regions) {
    const IniEntry& e = *given("promotedPieceType");
    std::istringstream pairs(e.value);
    for (std::string pair; pairs >> pair;) {
      if (pair.size() != 3 || pair[1] != ':') refuse(e, quote(pair) + " is not FROM:TO");
      const std::string from = kind_of(e, pair[0]), like = kind_of(e, pair[2]);
      const std::string promoted = "promoted-" + from;
      const char letter = static_cast<char>(std::toupper(static_cast<unsigned char>(pair[0])));
      YAML::Node kind = out_["pieces"][promoted];
      kind["letter"] = std::string(1, letter);
      kind["written"] = std::string("+") + letter;
      YAML::Node part;
      part["like"] = like;
      kind["moves"].push_back(part);
      YAML::Node p = out_["pieces"][from]["promotion"];
      p["zone"] = promotion_zone(from, regions);
      p["to"].push_back(promoted);
      p["leaving"] = true;
      if (flag("mandatoryPiecePromotion")) {
        p["optional"] = false;
      } else if (flag("immobilityIllegal")) {
        p["optional"] = "unless_dead";
      } else {
        p["optional"] = true;
      }
      demoted_[promoted] = from;
    }
  }

  void castling() {
    const bool keys = resized_ || given("castling") || given("castlingKingsideFile") || given("castlingQueensideFile") ||
                      given("castlingRank") || given("castlingKingPiece") || given("castlingRookPieces");
    if (base_ && given("startFen") && start_rights_ == "-" && !keys) return drop_base_castling();
    if (base_ && !keys) return;
    if (base_) drop_base_castling();
    const bool on = given("castling") ? flag("castling") : !base_ || !base_->rules.compound_moves.empty();
    if (!on || start_rights_ == "-") return;
    const std::string king = kind_of(where("castlingKingPiece"), setting("castlingKingPiece")[0]);
    if (setting("castlingRookPieces").size() != 1 || setting("castlingRookPieces") == "-")
      refuse(where("castlingRookPieces"), "castling with several kinds of partner is not converted");
    const std::string rook = kind_of(where("castlingRookPieces"), setting("castlingRookPieces")[0]);
    if (base_ && !given("startFen")) {
      if (resized_) refuse(where("maxFile"), "castling on a resized board needs the section's startFen");
      const RuleSet& r = base_->rules;
      for (int s = 0; s < 2; ++s)
        for (const Placement& p : r.setup[s]) start_[s][point(r.board.file_of(p.square), r.board.rank_of(p.square))] = r.pieces[p.kind].name;
    }
    for (const char right : start_rights_)
      if (!std::strchr("KQkq", right)) refuse(where("startFen"), std::string("the castling right ") + right + " is not converted (only KQkq)");
    const int rank = number("castlingRank", 1, ranks_) - 1;
    for (int s = 0; s < 2; ++s) castling_side(s, s == 0 ? rank : ranks_ - 1 - rank, king, rook);
  }

  // The reference's castling from its start: the royal on its castling rank moves to the wing's
  // file and the outermost partner of that wing lands beside it, inside; the points between both
  // and their landings are empty and those the royal crosses unattacked.
  void castling_side(int s, int rank, const std::string& king, const std::string& rook) {
    int king_file = -1;
    for (int f = 0; f < files_; ++f)
      if (start_[s].count(point(f, rank)) && start_[s][point(f, rank)] == king) {
        if (king_file >= 0) refuse(where("startFen"), "two castling pieces on a castling rank are not converted");
        king_file = f;
      }
    if (king_file < 0) return;
    const int king_to = file_number("castlingKingsideFile") - 1, queen_to = file_number("castlingQueensideFile") - 1;
    for (const bool king_side : {true, false}) {
      const char right = static_cast<char>(s == 0 ? (king_side ? 'K' : 'Q') : (king_side ? 'k' : 'q'));
      if (start_rights_.find(right) == std::string::npos) continue;
      int rook_file = -1;
      for (int f = king_side ? files_ - 1 : 0; king_side ? f > king_file : f < king_file; f += king_side ? -1 : 1)
        if (start_[s].count(point(f, rank)) && start_[s][point(f, rank)] == rook) {
          rook_file = f;
          break;
        }
      if (rook_file < 0) continue;
      const int to = king_side ? king_to : queen_to, partner_to = king_side ? to - 1 : to + 1;
      YAML::Node m = out_["compound_moves"][side(s) + (king_side ? "-castles-king-side" : "-castles-queen-side")];
      m["side"] = side(s);
      m["right"] = std::string(1, right);
      m["kind"] = king;
      m["from"] = point(king_file, rank);
      m["to"] = point(to, rank);
      m["partner"] = rook;
      m["partner_from"] = point(rook_file, rank);
      m["partner_to"] = point(partner_to, rank);
      m["empty"] = YAML::Node(YAML::NodeType::Sequence);
      m["safe"] = YAML::Node(YAML::NodeType::Sequence);
      for (int f = 0; f < files_; ++f) {
        const bool king_path = f >= std::min(king_file, to) && f <= std::max(king_file, to);
        const bool rook_path = f >= std::min(rook_file, partner_to) && f <= std::max(rook_file, partner_to);
        if ((king_path || rook_path) && f != king_file && f != rook_file) m["empty"].push_back(point(f, rank));
        if (king_path) m["safe"].push_back(point(f, rank));
      }
    }
  }

  void drop_base_castling() {
    for (const CompoundMoveDef& m : base_->rules.compound_moves)
      if (m.wing < 0) out_["compound_moves"][m.name] = YAML::Node(YAML::NodeType::Null);
    if (base_->rules.castling.kind != NoKind) out_["castling"] = YAML::Node(YAML::NodeType::Null);
  }

  void hands() {
    const bool drops = flag("pieceDrops"), to_hand = flag("capturesToHand");
    if (drops != to_hand && (given("pieceDrops") || given("capturesToHand")))
      refuse(where(given("pieceDrops") ? "pieceDrops" : "capturesToHand"),
             "drops without captures to hand, or captures to hand without drops, are not a construct of Palace");
    if (!drops) return;
    const bool new_hands = !base_ || !base_->rules.hands.enabled;
    YAML::Node h = out_["hands"];
    if (new_hands) h["demote"] = YAML::Node(YAML::NodeType::Map);
    if (new_hands && !flag("dropLoop")) promoted_pawns_return();
    if (!flag("dropLoop"))
      for (const auto& [promoted, from] : demoted_) h["demote"][promoted] = from;
    if (given("dropNoDoubled") || (!base_ && value("dropNoDoubled")))
      for (const std::string& k : kinds_of("dropNoDoubled")) h["one_per_file"].push_back(k);
    if (flag("immobilityIllegal")) h["no_dead_drops"] = true;
    if (flag("shogiPawnDropMateIllegal"))
      for (const std::string& k : shogi_pawn_kinds_) h["drop_may_not_mate"].push_back(k);
    if (given("dropRegionWhite") || given("dropRegionBlack"))
      refuse(where(given("dropRegionWhite") ? "dropRegionWhite" : "dropRegionBlack"), "drop regions are not mapped by the importer");
    if (new_hands && !(base_ ? base_kind('P') : pawn_kind_).empty()) pawn_drop_zone();
  }

  // The pawn's promotion list: the section's, else the parent's.
  std::vector<std::string> pawn_promotion_kinds(const std::string& pawn) const {
    std::vector<std::string> to;
    const YAML::Node& root = out_;
    const YAML::Node pieces = root["pieces"];
    const YAML::Node promotion = pieces && pieces[pawn] ? pieces[pawn]["promotion"] : YAML::Node();
    if (promotion && promotion["to"] && promotion["to"].IsSequence()) {
      for (const auto& t : promotion["to"]) to.push_back(t.as<std::string>());
    } else if (base_ && base_->rules.kind_by_name(pawn) != NoKind) {
      for (const Kind t : base_->rules.pieces[base_->rules.kind_by_name(pawn)].promotion_kinds) to.push_back(base_->rules.pieces[t].name);
    }
    return to;
  }

  // A promoted pawn goes back to a hand as a pawn: it becomes a kind of its own moving like the
  // one chosen, written `Q~`, that the hand demotes.
  void promoted_pawns_return() {
    const std::string pawn = base_ ? base_kind('P') : pawn_kind_;
    if (pawn.empty()) return;
    const std::vector<std::string> to = pawn_promotion_kinds(pawn);
    if (to.empty()) return;
    YAML::Node list(YAML::NodeType::Sequence);
    for (const std::string& t : to) {
      const std::string promoted = t + "-from-" + pawn;
      const Kind k = base_ ? base_->rules.kind_by_name(t) : NoKind;
      char letter = k != NoKind ? base_->rules.pieces[k].letter : '?';
      for (const DeclaredKind& d : kinds_)
        if (d.name == t) letter = d.letter;
      YAML::Node kind = out_["pieces"][promoted];
      kind["letter"] = std::string(1, letter);
      kind["written"] = std::string(1, letter) + "~";
      YAML::Node part;
      part["like"] = t;
      kind["moves"].push_back(part);
      list.push_back(promoted);
      out_["hands"]["demote"][promoted] = pawn;
    }
    out_["pieces"][pawn]["promotion"]["to"] = list;
  }

  // The reference drops its pawn neither on the first rank nor in the promotion region, unless
  // `firstRankPawnDrops` or `promotionZonePawnDrops` says it may.
  void pawn_drop_zone() {
    const bool first_rank = flag("firstRankPawnDrops"), in_zone = flag("promotionZonePawnDrops");
    const bool regions = given("promotionRegionWhite") || given("promotionRegionBlack");
    for (int s = 0; s < 2; ++s) {
      const std::string key = s == 0 ? "promotionRegionWhite" : "promotionRegionBlack";
      const std::vector<std::string> zone_points = !base_ || given(key) ? region(where(key), setting(key))
                                                   : base_pawn_zone() >= 0 && !regions ? base_zone_points(base_pawn_zone(), s)
                                                   : std::vector<std::string>{};
      const std::set<std::string> barred(zone_points.begin(), zone_points.end());
      YAML::Node points(YAML::NodeType::Sequence);
      for (int r = 0; r < ranks_; ++r)
        for (int f = 0; f < files_; ++f) {
          const bool own_first = r == (s == 0 ? 0 : ranks_ - 1);
          if ((own_first && !first_rank) || (!in_zone && barred.count(point(f, r)))) continue;
          points.push_back(point(f, r));
        }
      out_["sides"][side(s)]["zones"]["pawn-drops"] = points;
    }
    out_["hands"]["drop_zones"][base_ ? base_kind('P') : pawn_kind_] = "pawn-drops";
  }

  std::string result(const std::string& key) const {
    const std::string v = *value(key);
    if (v == "win" || v == "loss" || v == "draw") return v;
    refuse(where(key), "not win, loss or draw");
  }

  void rules_and_ends() {
    if (given("checkmateValue")) out_["ends"]["checkmate"] = result("checkmateValue");
    if (value("mustCapture")) out_["rules"]["captures"] = flag("mustCapture") ? "compulsory" : "optional";
    if (value("flyingGeneral")) out_["rules"]["facing_royals"] = flag("flyingGeneral") ? "forbidden" : "allowed";
    if (value("blastOnCapture") && flag("blastOnCapture")) {
      out_["rules"]["explosion"]["spares"] = YAML::Node(YAML::NodeType::Sequence);
      if (!pawn_kind_.empty() || base_) out_["rules"]["explosion"]["spares"].push_back(kind_of(header_, 'p'));
    }
    if (value("stalemateValue")) out_["ends"]["stalemate"] = result("stalemateValue");
    repetition();
    move_limit();
    extinction();
    flag_rule();
  }

  void repetition() {
    if (!value("nFoldRule") && !value("nFoldValue") && !value("perpetualCheckIllegal")) return;
    YAML::Node r = out_["ends"]["repetition"];
    if (value("nFoldRule")) {
      const int n = number("nFoldRule", 0, 100);
      if (n < 2) {
        const auto& parent = base_ ? base_->rules.ends.get<Repetition>() : Repetition{};
        unset(out_["ends"], "repetition", parent.count || parent.claim);
        return;
      }
      r["count"] = n;
    }
    if (value("nFoldValue")) {
      const std::string v = result("nFoldValue");
      if (v == "draw") {
        r["result"] = "draw";
      } else if (value("nFoldValueAbsolute") && flag("nFoldValueAbsolute")) {
        r["result"]["winner"] = side(v == "win" ? 0 : 1);
      } else {
        refuse(where("nFoldValue"), "a repetition won or lost by the side to move is not a construct of Palace");
      }
    }
    if (value("perpetualCheckIllegal") && flag("perpetualCheckIllegal")) r["perpetual_check"] = "illegal";
  }

  void move_limit() {
    if (!value("nMoveRule")) return;
    const int n = number("nMoveRule", 0, 5000);
    if (n == 0) {
      const auto& parent = base_ ? base_->rules.ends.get<MoveLimit>() : MoveLimit{};
      unset(out_["ends"], "move_limit", parent.plies || parent.claim);
      return;
    }
    YAML::Node m = out_["ends"]["move_limit"];
    m["plies"] = 2 * n;
    m["reset_by"] = YAML::Node(YAML::NodeType::Sequence);
    const std::string key = given("nMoveRuleTypes") ? "nMoveRuleTypes" : "pawnTypes";
    if (base_ && !given(key)) {
      const Kind k = base_->rules.kind_by_letter('P');
      if (k != NoKind) m["reset_by"].push_back(base_->rules.pieces[k].name);
    } else {
      for (const std::string& k : declared_kinds_of(key)) m["reset_by"].push_back(k);
    }
  }

  void extinction() {
    const bool keys = given("extinctionValue") || given("extinctionPieceTypes") || given("extinctionPieceCount") ||
                      given("extinctionOpponentPieceCount");
    if (!keys) return;
    std::string v;
    if (given("extinctionValue")) {
      if (given("extinctionValue")->value == "none") {
        unset(out_["ends"], "extinction", base_ && base_->rules.ends.get<Extinction>().kinds);
        return;
      }
      v = result("extinctionValue");
    } else if (base_ && base_->rules.ends.get<Extinction>().kinds) {
      static const char* const words[] = {"loss", "draw", "win"};
      v = words[static_cast<int>(base_->rules.ends.get<Extinction>().result)];
    } else {
      return;
    }
    const std::string letters = value("extinctionPieceTypes").value_or("");
    const int count = value("extinctionPieceCount") ? number("extinctionPieceCount", 0, 99) : 0;
    const int opponent = value("extinctionOpponentPieceCount") ? number("extinctionOpponentPieceCount", 0, 99) : 0;
    if (letters == "*" && count == 0 && opponent == 0) {
      // `*` counts all of a side's pieces: none left is Palace's `no_pieces`.
      out_["ends"]["no_pieces"] = v;
      if (base_) out_["ends"]["extinction"] = YAML::Node(YAML::NodeType::Null);
      return;
    }
    if (!value("extinctionPieceTypes"))
      refuse(where("extinctionValue"), "an extinction without extinctionPieceTypes is not converted");
    YAML::Node e = out_["ends"]["extinction"];
    if (letters == "*") {
      for (const std::string& k : every_kind()) e["kinds"].push_back(k);
      e["together"] = true;
    } else {
      for (const std::string& k : kinds_of("extinctionPieceTypes")) e["kinds"].push_back(k);
    }
    if (count) e["count"] = count;
    if (opponent) e["opponent_count"] = opponent;
    e["result"] = v;
  }

  void flag_rule() {
    const bool any = given("flagPiece") || given("flagPieceWhite") || given("flagPieceBlack") || given("flagRegion") ||
                     given("flagRegionWhite") || given("flagRegionBlack");
    if (!any) return;
    const std::string white_piece = value("flagPieceWhite").value_or(value("flagPiece").value_or("*"));
    const std::string black_piece = value("flagPieceBlack").value_or(value("flagPiece").value_or("*"));
    const IniEntry& piece_entry = where(given("flagPiece") ? "flagPiece" : "flagPieceWhite");
    if (white_piece != black_piece) refuse(piece_entry, "a flag piece of another kind for each side is not a construct of Palace");
    std::string flag_kind;
    if (white_piece == "*" && base_ && base_->rules.ends.get<ZoneReached>().kind != NoKind) {
      flag_kind = base_->rules.pieces[base_->rules.ends.get<ZoneReached>().kind].name;
    } else if (white_piece == "*" || white_piece.size() != 1) {
      refuse(piece_entry, "a flag of any piece is not a construct of Palace");
    } else {
      flag_kind = kind_of(piece_entry, white_piece[0]);
    }
    const std::string white_key = given("flagRegionWhite") ? "flagRegionWhite" : "flagRegion";
    const std::string black_key = given("flagRegionBlack") ? "flagRegionBlack" : "flagRegion";
    if (!value(white_key) || !value(black_key))
      refuse(where(given("flagRegionWhite") ? "flagRegionWhite" : "flagRegionBlack"),
             "a flag region for one side only is not a construct of Palace");
    zone("flag-region", white_key, black_key);
    YAML::Node z = out_["ends"]["zone_reached"];
    z["kind"] = flag_kind;
    z["zone"] = "flag-region";
    z["safely"] = value("flagPieceSafe") ? flag("flagPieceSafe") : false;
  }

  std::string name_;
  std::map<std::string, IniEntry> keys_;
  const ShippedVariant* base_;
  IniEntry header_;
  YAML::Node out_;
  int files_ = 8, ranks_ = 8;
  bool resized_ = false;  // a board of another size than the shipped parent's
  std::vector<DeclaredKind> kinds_;                 // declared by the section, in line order
  std::string pawn_kind_;                    // the reference's `pawn`, when declared
  std::vector<std::string> shogi_pawn_kinds_;
  std::map<std::string, std::string> demoted_;  // promoted kind: what it was
  std::string start_rights_ = "KQkq";
  std::map<std::string, std::string> start_[2];  // by side: point: kind, as the start FEN places them
  std::string double_step_zone_;  // once a move needs it
  bool no_double_step_ = false;   // `doubleStep = false`: the zone is empty
};

std::string refusal_line(const IniFile& file, const IniSection& section, const Refusal& r) {
  const IniEntry& e = r.entry;
  const std::string where = file.name + ":" + std::to_string(e.line) + ": [" + section.name + "]";
  return where + (e.key.empty() ? "" : " " + e.key + " = " + e.value) + ": " + r.why;
}

ImportedSection import_section(const IniFile& file, std::size_t index, const ShippedLookup& shipped) {
  const IniSection& section = file.sections[index];
  const IniEntry header{"", "", section.line};
  try {
    // The chain of in-file parents, each defined before its child; the first parent not in the
    // file must be a shipped built-in variant.
    std::vector<const IniSection*> chain = {&section};
    std::string parent = section.parent;
    std::size_t before = index;
    while (!parent.empty()) {
      const IniSection* found = nullptr;
      for (std::size_t i = before; i-- > 0;)
        if (file.sections[i].name == parent) {
          found = &file.sections[i];
          before = i;
          break;
        }
      if (!found) break;
      chain.push_back(found);
      parent = found->parent;
      if (chain.size() > file.sections.size()) throw Refusal{header, "its parents form a loop"};
    }
    std::optional<ShippedVariant> base;
    if (!parent.empty()) {
      base = shipped(parent);
      if (!base) throw Refusal{header, "its parent " + parent + " is no earlier section and no shipped variant's wire name"};
    }
    std::map<std::string, IniEntry> keys;
    for (auto it = chain.rbegin(); it != chain.rend(); ++it)
      for (const IniEntry& e : (*it)->entries) keys[e.key] = e;
    SectionConverter converter(section.name, std::move(keys), base ? &*base : nullptr, header);
    return {section.name, section.line, converter.convert(), ""};
  } catch (const Refusal& r) {
    return {section.name, section.line, "", refusal_line(file, section, r)};
  }
}

}  // namespace

ShippedLookup shipped_files(std::map<std::string, std::string> files,
                            std::function<std::string(const std::string& file)> import_path) {
  return [files = std::move(files), import_path = std::move(import_path)](const std::string& name) -> std::optional<ShippedVariant> {
    const auto it = files.find(name);
    if (it == files.end()) return std::nullopt;
    const ConfigNode tree = ConfigNode::load_file(it->second);
    return ShippedVariant{import_path(it->second), load_rules_from_tree(tree, it->second), tree.find("engine") != nullptr};
  };
}

std::string load_refusal(const IniFile& file, const ImportedSection& section, const std::string& why) {
  return file.name + ":" + std::to_string(section.line) + ": [" + section.name + "]: the converted file does not load: " + why;
}

std::vector<ImportedSection> import_ini(const IniFile& file, const std::vector<std::string>& wanted,
                                        const ShippedLookup& shipped) {
  std::vector<ImportedSection> out;
  for (const std::string& name : wanted)
    if (!file.section(name)) out.push_back({name, 0, "", file.name + ": no section [" + name + "]"});
  for (std::size_t i = 0; i < file.sections.size(); ++i) {
    const IniSection& s = file.sections[i];
    if (!wanted.empty() && std::find(wanted.begin(), wanted.end(), s.name) == wanted.end()) continue;
    if (file.section(s.name) != &s) continue;  // a later section of the name replaces it
    out.push_back(import_section(file, i, shipped));
  }
  return out;
}

}  // namespace palace
