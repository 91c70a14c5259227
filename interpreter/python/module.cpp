// The Python module `palace` (python/README.md): pyffish's functions, so that software written for
// the reference engine's module switches by its import, and a Pythonic layer over the game layer
// (Variant, Game, Outcome, records). Everything here calls the layers below; no rule is decided here.
//
// Threads: a compiled Variant is immutable and shared; every call builds its own Position, and a
// Game refuses a second call while one of its own runs without the GIL (perft, search).
#include <pybind11/pybind11.h>
#include <pybind11/stl.h>

#include <nlohmann/json.hpp>

#include <dlfcn.h>

#include <algorithm>
#include <cctype>
#include <atomic>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <random>
#include <set>
#include <sstream>
#include <string>
#include <vector>

#include "core/error.h"
#include "core/text.h"
#include "core/text_file.h"
#include "game/evaluator.h"
#include "game/game.h"
#include "game/material.h"
#include "hooks/load_variant.h"
#include "loader/config_tree.h"
#include "movegen/movegen.h"
#include "notation/gib.h"
#include "movetext/notation.h"
#include "movetext/usi.h"
#include "notation/replay.h"
#include "notation/wire.h"
#include "ini/ini_import.h"
#include "search/search.h"

namespace py = pybind11;
namespace fs = std::filesystem;

namespace palace::python {

namespace {

// A move the position or game refuses: palace.IllegalMoveError, a palace.Error.
class IllegalMoveError : public Error {
 public:
  using Error::Error;
};

// pyffish's constants, so that code comparing with them keeps working.
constexpr int ValueMate = search::MateScore;
constexpr int FenOk = 1;
enum PyffishNotation {
  NotationDefault = 0,
  NotationSan = 1,
  NotationLan = 2,
  NotationShogiHosking = 3,
  NotationShogiHodges = 4,
  NotationShogiHodgesNumber = 5,
  NotationJanggi = 6,
  NotationWxf = 7,
  NotationThaiSan = 8,
  NotationThaiLan = 9,
};
// The interface level of pyffish that this module answers for (pyffish's version()).
constexpr int PyffishVersion[] = {0, 0, 89};

// pyffish's code for a FEN Palace refuses, by the field its message names (fen_error gives the
// words): the reference's FEN_INVALID_* values, from -1 (move number) to -14 (endgame count).
int fen_code(const std::string& message, const Variant& variant) {
  // A `+` before a letter that has no promoted form, in a game that writes promoted pieces so.
  const bool plus_written = std::any_of(variant.rules().pieces.begin(), variant.rules().pieces.end(),
                                        [](const auto& piece) { return piece.written.rfind('+', 0) == 0; });
  if (plus_written && message.rfind("FEN board: unknown piece letter \"+", 0) == 0) return -12;
  static const std::pair<const char*, int> fields[] = {
      {"FEN is empty", 0},
      {"FEN board: unknown piece letter", -10},
      {"FEN hands", -7},
      {"FEN side to move", -6},
      {"FEN rights", -5},
      {"FEN ghost square", -4},
      {"FEN check counters", -13},
      {"FEN endgame count", -14},
      {"FEN half-move clock", -2},
      {"FEN move number", -1},
      {"FEN: unexpected text", -11},
  };
  for (const auto& [prefix, code] : fields)
    if (message.rfind(prefix, 0) == 0) return code;
  // The royal pieces' count, else the board's shape or a position that cannot arise.
  if (message.find(" has no ") != std::string::npos || message.find("more than one") != std::string::npos) return -3;
  return -8;
}

// Record collections run to megabytes (as `palace replay` reads them).
constexpr std::size_t MaxRecordBytes = std::size_t(64) << 20;

// This module's own file, to find the variants installed beside it.
fs::path module_folder() {
  Dl_info info{};
  if (!dladdr(reinterpret_cast<void*>(&module_folder), &info) || !info.dli_fname) return {};
  return fs::path(info.dli_fname).parent_path();
}

// $PALACE_VARIANTS, else the copy `pip install` puts beside the module, else the source tree's.
std::string variants_folder() {
  if (const char* given = std::getenv("PALACE_VARIANTS"); given && *given) return given;
  const fs::path installed = module_folder() / "palace_data" / "variants";
  std::error_code error;
  if (fs::is_directory(installed, error)) return installed.string();
  return PALACE_SOURCE_DIR "/variants";
}

// The name a variant is known by on the wire (its `uci:` section), as pyffish names it.
std::string wire_name(const Variant& variant) { return WireNotation(variant).variant_name(); }

// The variants by name: those of the variants folder, loaded on first use, and those
// load_variant_config added. Safe from every thread.
class Catalogue {
 public:
  std::vector<std::string> names() {
    const std::lock_guard lock(mutex_);
    scan();
    return names_;
  }

  std::shared_ptr<const Variant> get(const std::string& name) {
    const std::lock_guard lock(mutex_);
    scan();
    if (const auto found = loaded_.find(name); found != loaded_.end()) return found->second;
    const auto file = files_.find(name);
    if (file == files_.end()) {
      std::string known;
      for (const std::string& n : names_) known += (known.empty() ? "" : ", ") + n;
      throw Error("unknown variant " + quote(name) + " (known: " + known + ")");
    }
    return loaded_.emplace(name, load_variant(file->second)).first->second;
  }

  // Adds a variant under its wire name, replacing one of that name; returns the name.
  std::string add(std::shared_ptr<const Variant> variant) {
    const std::lock_guard lock(mutex_);
    scan();
    std::string name = wire_name(*variant);
    loaded_[name] = std::move(variant);
    if (std::find(names_.begin(), names_.end(), name) == names_.end()) {
      names_.push_back(name);
      std::sort(names_.begin(), names_.end());
    }
    return name;
  }

 private:
  // Each file answers to its wire name and, where that is free, its file stem ("janggi-kakao");
  // variants() lists the wire names, as pyffish does. A file that does not load is left out.
  void scan() {
    if (scanned_) return;
    scanned_ = true;
    const std::vector<WireEntry> entries = wire_catalogue(variants_folder());
    for (const WireEntry& e : entries) {
      files_.emplace(e.name, e.file);
      names_.push_back(e.name);
    }
    for (const WireEntry& e : entries) files_.emplace(fs::path(e.file).stem().string(), e.file);
  }

  std::mutex mutex_;
  bool scanned_ = false;
  std::vector<std::string> names_;
  std::map<std::string, std::string> files_;
  std::map<std::string, std::shared_ptr<const Variant>> loaded_;
};

Catalogue& catalogue() {
  static Catalogue instance;
  return instance;
}

// A YAML text as a variant file: written to a fresh folder, its relative imports resolving from the
// variants folder (each becomes a one-line file there that imports the real one), as `palace serve`
// treats an upload.
std::shared_ptr<const Variant> load_yaml_text(const std::string& yaml) {
  const ConfigNode root = ConfigNode::parse_string(yaml, "variant.yaml");
  std::vector<std::string> imports;
  std::size_t depth = 0;  // how far up its imports climb ("../rules/..."): the file sits that deep
  if (const ConfigNode* listed = root.find("import"))
    for (const ConfigNode* item : listed->items()) {
      imports.push_back(item->as_string());
      std::size_t up = 0;
      for (const auto& part : fs::path(imports.back())) up += part == "..";
      depth = std::max(depth, up);
    }
  std::random_device random;
  const fs::path base = fs::temp_directory_path() / ("palace-variant-" + std::to_string(random()) + std::to_string(random()));
  fs::path folder = base;
  for (std::size_t i = 0; i < depth; ++i) folder /= "d";
  struct Cleanup {
    fs::path path;
    ~Cleanup() {
      std::error_code ignored;
      fs::remove_all(path, ignored);
    }
  } cleanup{base};
  fs::create_directories(folder);
  const fs::path shipped = fs::absolute(variants_folder());
  std::set<std::string> written;  // an import named twice is refused by the load, after one stub
  for (const std::string& item : imports) {
    if (fs::path(item).is_absolute() || !written.insert(item).second) continue;
    const fs::path stub = (folder / item).lexically_normal();
    fs::create_directories(stub.parent_path());
    // JSON is YAML: the absolute path goes in quoted.
    std::ofstream(stub) << nlohmann::json{{"import", {(shipped / item).lexically_normal().string()}}}.dump() << "\n";
  }
  std::ofstream(folder / "variant.yaml") << yaml;
  return load_variant((folder / "variant.yaml").string());
}

// A path to a YAML file, or YAML text. A path to something that is no file (a directory, a
// device) is refused as such, not read as the YAML text of its name.
std::shared_ptr<const Variant> load_file_or_text(const std::string& path_or_yaml) {
  std::error_code error;
  if (path_or_yaml.find('\n') == std::string::npos && fs::exists(path_or_yaml, error))
    return load_variant(path_or_yaml);
  return load_yaml_text(path_or_yaml);
}

// Movegen's legal moves less those a rule about the game's history refuses, as the game layer
// keeps them (Game::legal_moves).
std::vector<Move> legal_moves_of(Position& pos) {
  MoveList list;
  generate_legal(pos, list);
  std::vector<Move> legal;
  for (const Move m : list)
    if (!judge_move(pos, m).refused) legal.push_back(m);
  return legal;
}

// A pyffish call's position: a variant by name, a FEN and moves as the wire writes them.
// pyffish's chess960 flag asks for the game's Chess960 form: the variant its file names under
// `uci.chess960`, or the game itself where its castling is already Chess960's.
std::shared_ptr<const Variant> variant_named(const std::string& name, bool chess960) {
  std::shared_ptr<const Variant> variant = catalogue().get(name);
  if (!chess960 || !variant->rules().castling.wings.empty()) return variant;
  if (variant->rules().uci.chess960.empty())
    throw Error(quote(name) + " has no Chess960 form in Palace (its file names none under uci.chess960)");
  return catalogue().get(variant->rules().uci.chess960);
}

// pyffish also reads a FEN whose hands follow the board as one more `/` field (lichess writes
// crazyhouse so: `.../r3q~3/RQNRPQBb w`); Palace's reader takes hands only in brackets.
std::string bracket_hands(const Variant& variant, const std::string& fen) {
  if (!variant.has_hands()) return fen;
  const std::size_t board_end = std::min(fen.find(' '), fen.size());
  const std::string board = fen.substr(0, board_end);
  if (board.find('[') != std::string::npos ||
      std::count(board.begin(), board.end(), '/') != variant.board().ranks) return fen;
  const std::size_t last = board.rfind('/');
  return board.substr(0, last) + "[" + board.substr(last + 1) + "]" + fen.substr(board_end);
}

// A position is refused where the side not to move stands in check, as no game reaches it (pyffish
// reads it and plays on; Palace will not make moves from it); a caller
// that only asks about check (`played` false) reads any position, as pyffish reads every FEN.
struct WireBoard {
  WireBoard(const std::string& name, const std::string& fen, const std::vector<std::string>& moves, bool chess960 = false,
            bool played = true)
      : variant(variant_named(name, chess960)), wire(*variant), pos(variant) {
    if (!fen.empty() && played) set_played_fen(pos, wire.fen(bracket_hands(*variant, fen)));
    if (!fen.empty() && !played) pos.set_fen(wire.fen(bracket_hands(*variant, fen)));
    for (std::size_t i = 0; i < moves.size(); ++i) pos.do_move(parse(moves[i], "move " + std::to_string(i + 1) + ": "));
  }

  Move parse(const std::string& text, const std::string& where = "") {
    std::string why;
    const Move m = wire.parse_move(pos, text, why);
    if (!m) throw IllegalMoveError(where + why);
    return m;
  }

  std::shared_ptr<const Variant> variant;
  WireNotation wire;
  Position pos;
};

// pyffish's notation numbers, its default being SAN, or Palace's own names ("wxf", "chinese", ...).
NotationStyle notation_style(const py::object& notation, const Variant& variant) {
  NotationStyle style = NotationStyle::San;
  if (py::isinstance<py::str>(notation)) {
    if (!notation_style_by_name(notation.cast<std::string>(), style))
      throw Error("unknown notation " + quote(notation.cast<std::string>()));
  } else {
    switch (notation.cast<int>()) {
      case NotationDefault:
      case NotationSan: break;
      case NotationLan: style = NotationStyle::Lan; break;
      case NotationJanggi: style = NotationStyle::Janggi; break;
      case NotationWxf: style = NotationStyle::Wxf; break;
      default: throw Error("notation " + std::to_string(notation.cast<int>()) + " is not one Palace writes (SAN, LAN, Janggi, WXF, or a name like \"korean\")");
    }
  }
  MoveNotation(variant).require(style);
  return style;
}

// `m` in `style`, its squares named as the wire names them: SAN's squares are Palace's, whose ranks
// the wire may number from the other edge (every number in a SAN text is a rank).
std::string wire_text(WireBoard& b, Move m, NotationStyle style) {
  if (style == NotationStyle::Coordinates) return b.wire.move(b.pos, m);
  std::string text = MoveNotation(*b.variant).write(b.pos, m, style);
  if ((style != NotationStyle::San && style != NotationStyle::Lan) || !b.variant->rules().uci.mirror_ranks) return text;
  std::string mirrored;
  for (std::size_t i = 0; i < text.size();) {
    if (!std::isdigit(static_cast<unsigned char>(text[i]))) {
      mirrored += text[i++];
      continue;
    }
    int rank = 0;
    for (; i < text.size() && std::isdigit(static_cast<unsigned char>(text[i])); ++i) rank = rank * 10 + (text[i] - '0');
    mirrored += std::to_string(b.variant->board().ranks + 1 - rank);
  }
  return mirrored;
}

// A finished game's value for the side to move, as pyffish gives it.
int value_for_mover(const Outcome& state, Side to_move) {
  if (!state.winner) return 0;
  return *state.winner == to_move ? ValueMate : -ValueMate;
}

// Ends that pyffish calls optional (a player or an arbiter may end the game): repetitions, perpetuals
// and move limits. Palace applies some of them itself; they stay optional ones to pyffish's callers.
bool optional_reason(Termination reason) {
  return reason == Termination::Repetition || reason == Termination::PerpetualCheck ||
         reason == Termination::PerpetualChase || reason == Termination::MoveLimit;
}

// The FEN as pyffish writes it: the en-passant field only where a legal move takes there, and
// Chess960 castling's rights by file.
std::string pyffish_fen(WireBoard& b) {
  const std::vector<Move> legal = legal_moves_of(b.pos);
  FenOmissions omit;
  omit.wing_letters = !b.variant->rules().castling.wings.empty();
  omit.ghosts = std::none_of(legal.begin(), legal.end(), [](Move m) { return m.type() == MoveType::CaptureGhost; });
  return b.wire.fen(b.pos.fen(omit));
}

// pyffish's fog of war: every point the side to move neither holds nor may move to is hidden.
std::string fog_fen(Position& pos) {
  const BoardDef& board = pos.variant().board();
  FenOmissions omit;
  omit.hidden.assign(std::size_t(board.size()), true);
  for (int p = 0; p < board.size(); ++p)
    if (pos.at(Point(p)) != NoPiece && side_of(pos.at(Point(p))) == pos.side_to_move()) omit.hidden[std::size_t(p)] = false;
  for (const Move m : legal_moves_of(pos))
    if (!m.is_pass()) omit.hidden[std::size_t(m.to())] = false;
  return pos.fen(omit);
}

// The piece the last move took, as pyffish's piece_to_partner names it (the letter of its
// unpromoted kind, in its side's case), or "" when it took none.
std::string captured_piece(const Position& pos) {
  const Piece taken = pos.state().captured;
  if (taken == NoPiece) return "";
  const Variant& variant = pos.variant();
  return std::string(1, variant.letter(make_piece(side_of(taken), variant.family(kind_of(taken)))));
}

// The convertible sections of a reference-style variants.ini (`palace import-ini`'s converter), each
// added under its section's name; a refused section, or one whose rule file does not load, is one
// warning. Returns the names added.
std::vector<std::string> load_ini(const std::string& text, const std::string& name) {
  const IniFile ini = read_ini(text, name);
  std::map<std::string, std::string> shipped;
  for (const WireEntry& e : wire_catalogue(variants_folder())) shipped.emplace(e.name, e.file);
  const fs::path folder = fs::absolute(variants_folder());
  const ShippedLookup lookup = shipped_files(std::move(shipped), [&](const std::string& file) {
    return fs::absolute(file).lexically_normal().lexically_relative(folder).string();
  });
  std::vector<std::string> names;
  const py::object warn = py::module_::import("warnings").attr("warn");
  for (const ImportedSection& s : import_ini(ini, {}, lookup)) {
    if (!s.refusal.empty()) {
      warn(s.refusal);
      continue;
    }
    try {
      names.push_back(catalogue().add(load_yaml_text(s.yaml)));
    } catch (const Error& e) {
      warn(load_refusal(ini, s, e.what()));
    }
  }
  return names;
}

// pyffish's set_option: VariantPath loads the variants of a file, the UCI options of the engine are
// accepted and change nothing here (the module does not search through them), others are refused.
void set_option(const std::string& name, const py::object& value) {
  static const std::set<std::string> engine_options = {
      "Threads", "Hash", "Clear Hash", "Ponder", "MultiPV", "Skill Level", "Move Overhead", "Slow Mover",
      "nodestime", "UCI_Chess960", "UCI_Variant", "UCI_AnalyseMode", "UCI_LimitStrength", "UCI_Elo",
      "UCI_ShowWDL", "SyzygyPath", "SyzygyProbeDepth", "Syzygy50MoveRule", "SyzygyProbeLimit", "Use NNUE",
      "EvalFile", "TsumeMode", "VariantPath", "Protocol", "Debug Log File", "Contempt", "Analysis Contempt"};
  if (!engine_options.count(name)) throw Error("No such option " + quote(name));
  if (name != "VariantPath") return;
  const std::string path = py::str(value).cast<std::string>();
  if (path.empty() || path == "<empty>") return;
  const std::string text = read_text_file(path);
  if (is_ini_text(text)) {
    load_ini(text, fs::path(path).filename().string());
    return;
  }
  catalogue().add(load_variant(path));
}

// ---- The Pythonic layer ----

// A compiled variant, with the file it came from.
struct PyVariant {
  std::shared_ptr<const Variant> variant;
  std::string path;  // empty for one loaded from text or by name

  std::string name() const { return variant->rules().name; }
  std::string uci_name() const { return wire_name(*variant); }
  std::string start_fen() const { return Position(variant).fen(); }
  std::vector<std::string> sides() const {
    std::vector<std::string> names;
    for (Side s = First; s < SideCount; ++s) names.push_back(variant->side_name(s));
    return names;
  }
};

PyVariant variant_of(const py::object& given) {
  if (py::isinstance<PyVariant>(given)) return given.cast<PyVariant>();
  if (!py::isinstance<py::str>(given))
    throw py::type_error("expected a palace.Variant or a variant's name, got " + given.get_type().attr("__name__").cast<std::string>());
  return {catalogue().get(given.cast<std::string>()), ""};
}

// How a game ended, as python-chess's Outcome: the termination, the winner (a side name) or None.
struct GameOutcome {
  std::string termination;  // "checkmate", "repetition", ...
  std::optional<std::string> winner;
  std::string result;  // "1-0", "0-1", "1/2-1/2"
  std::string text;    // "red wins: checkmate"
  bool claimed = false;
};

GameOutcome outcome_of(const Verdict& state, const Variant& variant, bool claimed) {
  GameOutcome o;
  o.termination = termination_name(state.termination);
  if (state.winner) o.winner = variant.side_name(*state.winner);
  o.result = result_token(state);
  o.text = state.str(variant);
  o.claimed = claimed;
  return o;
}

// The best move a search found and what it says of the position.
struct SearchResult {
  std::string move;  // empty when the game is over
  int score = 0;     // centipawns for the side to move
  int mate = 0;      // moves to mate: > 0 the side to move mates, < 0 it is mated
  int depth = 0;
  std::uint64_t nodes = 0;
  std::vector<std::string> pv;
};

// A Game's calls run one at a time: perft and search release the GIL, and another Python thread
// calling into the same Game meanwhile gets an error rather than a race.
class Busy {
 public:
  explicit Busy(std::atomic<bool>& flag) : flag_(flag) {
    if (flag_.exchange(true)) throw std::runtime_error("this Game is busy in another thread (perft or search)");
  }
  ~Busy() { flag_ = false; }
  Busy(const Busy&) = delete;
  Busy& operator=(const Busy&) = delete;

 private:
  std::atomic<bool>& flag_;
};

class PyGame {
 public:
  PyGame(const py::object& variant, const std::optional<std::string>& fen) : game_(variant_of(variant).variant) {
    if (fen) game_.set_fen(*fen);
  }
  explicit PyGame(Game game) : game_(std::move(game)) {}
  const Game& game() const { return game_; }

  PyVariant variant() const { return {game_.variant_ptr(), ""}; }
  std::string fen() const { return game_.fen(); }
  std::string turn() const { return game_.variant().side_name(game_.side_to_move()); }
  std::vector<std::string> moves() const { return game_.history_texts(); }
  bool is_check() const { return game_.is_in_check(game_.side_to_move()); }

  void push(const std::string& move) {
    const Busy busy(busy_);
    const MoveVerdict verdict = game_.play(move);
    if (!verdict.accepted) throw IllegalMoveError(quote(move) + ": " + verdict.reason);
  }

  std::string pop() {
    const Busy busy(busy_);
    if (game_.history().empty()) throw py::index_error("pop from a game with no moves");
    const std::string last = game_.history_texts().back();
    game_.undo();
    return last;
  }

  std::vector<std::string> legal_moves() const {
    std::vector<std::string> texts;
    for (const Move m : game_.legal_moves()) texts.push_back(game_.position().move_text(m));
    std::sort(texts.begin(), texts.end());
    return texts;
  }

  // Why `move` is refused, or "" when it is legal: the move is tried and taken back.
  std::string explain(const std::string& move) {
    const Busy busy(busy_);
    const MoveVerdict verdict = game_.play(move);
    if (!verdict.accepted) return verdict.reason;
    game_.undo();
    return "";
  }

  std::optional<GameOutcome> outcome(bool claim_draw) const {
    const Verdict& state = game_.game_state();
    if (state.finished()) return outcome_of(state, game_.variant(), game_.claimed());
    if (claim_draw && state.claimable != Termination::None) {
      Verdict claimed;
      claimed.termination = state.claimable;
      return outcome_of(claimed, game_.variant(), true);
    }
    return std::nullopt;
  }

  std::optional<std::string> claimable() const {
    const Termination reason = game_.game_state().claimable;
    if (reason == Termination::None) return std::nullopt;
    return std::string(termination_name(reason));
  }

  bool claim_draw() {
    const Busy busy(busy_);
    return game_.claim_draw();
  }

  std::uint64_t perft(int depth) {
    if (depth < 0) throw Error("perft depth must be 0 or more");
    const Busy busy(busy_);
    Position copy = game_.position();
    const py::gil_scoped_release unlocked;
    return palace::perft(copy, depth);
  }

  SearchResult search(int depth, std::uint64_t nodes, int movetime_ms, std::size_t hash_mb) {
    // A negative limit would read as none, a search without end, its GIL released.
    if (depth < 0) throw Error("search depth must be 0 or more, got " + std::to_string(depth));
    if (movetime_ms < 0) throw Error("search movetime must be 0 or more, got " + std::to_string(movetime_ms));
    if (!depth && !nodes && !movetime_ms) throw Error("search needs a depth, nodes or movetime");
    const Busy busy(busy_);
    if (!searcher_ || hash_mb != hash_mb_) {
      searcher_ = std::make_unique<search::Searcher>(game_.variant_ptr(), hash_mb);
      hash_mb_ = hash_mb;
    }
    search::Limits limits;
    limits.depth = depth;
    limits.nodes = nodes;
    limits.movetime_ms = movetime_ms;
    search::Report last;
    Move best;
    {
      const py::gil_scoped_release unlocked;
      best = searcher_->search(game_.position(), limits, [&](const search::Report& r) { last = r; });
    }
    SearchResult result;
    if (game_.game_state().finished() || !best) return result;
    result.move = game_.position().move_text(best);
    result.score = last.score_cp;
    result.mate = last.mate_in;
    result.depth = last.depth;
    result.nodes = last.nodes;
    Position line = game_.position();
    for (const Move m : last.pv) {
      result.pv.push_back(line.move_text(m));
      line.do_move(m);
    }
    return result;
  }

 private:
  Game game_;
  std::unique_ptr<search::Searcher> searcher_;  // kept between searches: its table helps the next
  std::size_t hash_mb_ = 0;
  std::atomic<bool> busy_{false};
};

// One game of a record file, replayed with its variant's rules.
struct Record {
  GameRecord record;  // its tags, its moves as written, its stated result
  bool good = false;  // every move legal and the stated result the board's
  std::string verdict;
  std::vector<std::string> notes;  // the rulings the record went past (Replay::notes)
  std::shared_ptr<PyGame> game;    // as far as the record could be played
};

// `r` written in `format` (RecordWriter), PGN's moves in `notation` (the variant's own by default),
// with the record's game as it now stands.
std::string write_record(const Record& r, const std::string& format, const std::optional<std::string>& notation) {
  const RecordWriter* writer = record_writer_named(format);
  if (!writer) throw Error("unknown record format " + quote(format) + " (pgn, gib, kif, ki2 or csa)");
  const Game& game = r.game->game();
  NotationStyle style = game.variant().rules().notation.native;
  if (notation && !notation_style_by_name(*notation, style)) throw Error("unknown notation " + quote(*notation));
  return writer->write(r.record, game, style);
}

// The records of one file, replayed one by one as Python iterates.
class RecordReader {
 public:
  explicit RecordReader(const std::string& path) : catalog_(variants_folder()) {
    const std::string bytes = read_text_file(path, MaxRecordBytes);
    format_ = &record_format(path, bytes);
    games_ = read_records(bytes, *format_);
  }

  Record next() {
    if (at_ >= games_.size()) throw py::stop_iteration();
    GameRecord& game = games_[at_++];
    auto variant = catalog_.find(game, format_->variant);
    apply_formation_tags(game, variant);
    Replay replay = replay_record(game, variant);
    return Record{game, replay.good, replay.verdict, replay.notes, std::make_shared<PyGame>(std::move(replay.game))};
  }

 private:
  VariantCatalog catalog_;
  const RecordFormat* format_ = nullptr;
  std::vector<GameRecord> games_;
  std::size_t at_ = 0;
};

}  // namespace

}  // namespace palace::python

PYBIND11_MODULE(palace, m) {
  using namespace palace;
  using namespace palace::python;
  m.doc() = "Palace, a data-driven rules interpreter for Janggi, Xiangqi, chess, shogi and their variants";
  static py::exception<Error> error(m, "Error", PyExc_ValueError);
  static py::exception<IllegalMoveError> illegal(m, "IllegalMoveError", error.ptr());
  py::register_exception_translator([](std::exception_ptr p) {
    try {
      if (p) std::rethrow_exception(p);
    } catch (const IllegalMoveError& e) {
      illegal(e.what());
    } catch (const Error& e) {
      error(e.what());
    }
  });

  m.attr("VALUE_MATE") = ValueMate;
  m.attr("VALUE_DRAW") = 0;
  m.attr("FEN_OK") = FenOk;
  m.attr("FEN_INVALID_CHAR") = -10;
  m.attr("FEN_INVALID_PROMOTED_PIECE") = -12;
  m.attr("NOTATION_DEFAULT") = int(NotationDefault);
  m.attr("NOTATION_SAN") = int(NotationSan);
  m.attr("NOTATION_LAN") = int(NotationLan);
  m.attr("NOTATION_SHOGI_HOSKING") = int(NotationShogiHosking);
  m.attr("NOTATION_SHOGI_HODGES") = int(NotationShogiHodges);
  m.attr("NOTATION_SHOGI_HODGES_NUMBER") = int(NotationShogiHodgesNumber);
  m.attr("NOTATION_JANGGI") = int(NotationJanggi);
  m.attr("NOTATION_XIANGQI_WXF") = int(NotationWxf);
  m.attr("NOTATION_THAI_SAN") = int(NotationThaiSan);
  m.attr("NOTATION_THAI_LAN") = int(NotationThaiLan);
  m.attr("error") = error;

  // ---- pyffish's functions: positions and moves as the wire (UCI) writes them ----
  m.def("version", [] { return py::make_tuple(PyffishVersion[0], PyffishVersion[1], PyffishVersion[2]); },
        "The version of pyffish whose functions this module gives");
  m.def("info", [] { return std::string("Palace, a data-driven rules interpreter (pyffish ") + std::to_string(PyffishVersion[0]) + "." +
                            std::to_string(PyffishVersion[1]) + "." + std::to_string(PyffishVersion[2]) + " functions)"; });
  m.def("set_option", &set_option, py::arg("name"), py::arg("value"),
        "Sets a UCI option: VariantPath loads a YAML variant file, or a variants.ini's convertible sections; the engine's other options change nothing here");
  m.def("variants", [] { return catalogue().names(); }, "The names of the variants, as UCI_Variant gives them");
  m.def("load_variant_config", [](const std::string& path_or_yaml) -> py::object {
          if (is_ini_text(path_or_yaml)) return py::cast(load_ini(path_or_yaml, "variants.ini"));
          return py::cast(catalogue().add(load_file_or_text(path_or_yaml)));
        },
        py::arg("config"),
        "Loads a variant from a YAML file or YAML text and returns the name it is known by; variants.ini text loads its "
        "convertible sections and returns their names");
  m.def("is_variants_ini", &is_ini_text, py::arg("text"),
        "Whether the text is a reference-style variants.ini (a line that is only a [name] or [name:template] section)");
  m.def("start_fen", [](const std::string& v) {
          WireBoard b(v, "", {});
          return pyffish_fen(b);
        },
        py::arg("variant"));
  m.def(
      "legal_moves",
      [](const std::string& v, const std::string& fen, const std::vector<std::string>& moves, bool chess960) {
        WireBoard b(v, fen, moves, chess960);
        std::vector<std::string> texts;
        for (const Move mv : legal_moves_of(b.pos)) texts.push_back(b.wire.move(b.pos, mv));
        return texts;
      },
      py::arg("variant"), py::arg("fen"), py::arg("moves"), py::arg("chess960") = false);
  m.def(
      "get_fen",
      [](const std::string& v, const std::string& fen, const std::vector<std::string>& moves, bool chess960, bool sfen, bool, int) {
        WireBoard b(v, fen, moves, chess960);
        return sfen ? sfen_from_fen(b.pos.fen()) : pyffish_fen(b);
      },
      py::arg("variant"), py::arg("fen"), py::arg("moves"), py::arg("chess960") = false, py::arg("sfen") = false,
      py::arg("show_promoted") = false, py::arg("count_started") = 0);
  m.def(
      "get_san",
      [](const std::string& v, const std::string& fen, const std::string& move, bool chess960, const py::object& notation) {
        WireBoard b(v, fen, {}, chess960);
        return wire_text(b, b.parse(move), notation_style(notation, *b.variant));
      },
      py::arg("variant"), py::arg("fen"), py::arg("move"), py::arg("chess960") = false, py::arg("notation") = 0);
  m.def(
      "get_san_moves",
      [](const std::string& v, const std::string& fen, const std::vector<std::string>& moves, bool chess960, const py::object& notation) {
        WireBoard b(v, fen, {}, chess960);
        const NotationStyle style = notation_style(notation, *b.variant);
        std::vector<std::string> texts;
        for (std::size_t i = 0; i < moves.size(); ++i) {
          const Move mv = b.parse(moves[i], "move " + std::to_string(i + 1) + ": ");
          texts.push_back(wire_text(b, mv, style));
          b.pos.do_move(mv);
        }
        return texts;
      },
      py::arg("variant"), py::arg("fen"), py::arg("moves"), py::arg("chess960") = false, py::arg("notation") = 0);
  m.def(
      "gives_check",
      [](const std::string& v, const std::string& fen, const std::vector<std::string>& moves, bool chess960) {
        WireBoard b(v, fen, moves, chess960, !moves.empty());
        return in_check(b.pos);
      },
      py::arg("variant"), py::arg("fen"), py::arg("moves"), py::arg("chess960") = false,
      "Whether the side to move stands in check after the moves");
  m.def(
      "is_capture",
      [](const std::string& v, const std::string& fen, const std::vector<std::string>& moves, const std::string& move, bool chess960) {
        WireBoard b(v, fen, moves, chess960);
        return is_capture(b.pos, b.parse(move));
      },
      py::arg("variant"), py::arg("fen"), py::arg("moves"), py::arg("move"), py::arg("chess960") = false);
  m.def(
      "game_result",
      [](const std::string& v, const std::string& fen, const std::vector<std::string>& moves, bool chess960) {
        WireBoard b(v, fen, moves, chess960);
        return value_for_mover(evaluate(b.pos), b.pos.side_to_move());
      },
      py::arg("variant"), py::arg("fen"), py::arg("moves"), py::arg("chess960") = false,
      "VALUE_MATE when the side to move has won, -VALUE_MATE when it has lost, 0 for a draw or a game going on");
  m.def(
      "is_immediate_game_end",
      [](const std::string& v, const std::string& fen, const std::vector<std::string>& moves, bool chess960) {
        WireBoard b(v, fen, moves, chess960);
        const Verdict state = evaluate(b.pos);
        const bool ends = state.finished() && state.termination != Termination::Checkmate &&
                          state.termination != Termination::Stalemate && !optional_reason(state.termination);
        return py::make_tuple(ends, ends ? value_for_mover(state, b.pos.side_to_move()) : 0);
      },
      py::arg("variant"), py::arg("fen"), py::arg("moves"), py::arg("chess960") = false);
  m.def(
      "is_optional_game_end",
      [](const std::string& v, const std::string& fen, const std::vector<std::string>& moves, bool chess960, int) {
        WireBoard b(v, fen, moves, chess960);
        const Verdict state = evaluate(b.pos);
        const Side to_move = b.pos.side_to_move();
        // A side bound to vary a perpetual loses if an arbiter ends the game now.
        if (!state.finished() && state.perpetual.termination != Termination::None)
          return py::make_tuple(true, state.perpetual.side == to_move ? -ValueMate : ValueMate);
        if (!state.finished()) return py::make_tuple(state.claimable != Termination::None, 0);
        const bool ends = optional_reason(state.termination);
        return py::make_tuple(ends, ends ? value_for_mover(state, to_move) : 0);
      },
      py::arg("variant"), py::arg("fen"), py::arg("moves"), py::arg("chess960") = false, py::arg("count_started") = 0);
  m.def(
      "has_insufficient_material",
      [](const std::string& v, const std::string& fen, const std::vector<std::string>& moves, bool chess960) {
        WireBoard b(v, fen, moves, chess960);
        return py::make_tuple(side_cannot_mate(b.pos, First), side_cannot_mate(b.pos, Second));
      },
      py::arg("variant"), py::arg("fen"), py::arg("moves"), py::arg("chess960") = false);
  m.def(
      "validate_fen",
      [](const std::string& fen, const std::string& v, bool chess960) {
        const auto variant = variant_named(v, chess960);
        Position pos(variant);
        try {
          set_played_fen(pos, WireNotation(*variant).fen(bracket_hands(*variant, fen)));
        } catch (const FenError& e) {
          return fen_code(e.what(), *variant);
        }
        return FenOk;
      },
      py::arg("fen"), py::arg("variant"), py::arg("chess960") = false,
      "FEN_OK, or pyffish's negative code for the field Palace refuses (fen_error says why in words)");
  m.def(
      "fen_error",
      [](const std::string& fen, const std::string& v) -> std::optional<std::string> {
        const auto variant = catalogue().get(v);
        Position pos(variant);
        try {
          set_played_fen(pos, WireNotation(*variant).fen(bracket_hands(*variant, fen)));
        } catch (const FenError& e) {
          return std::string(e.what());
        }
        return std::nullopt;
      },
      py::arg("fen"), py::arg("variant"), "Why a FEN is not valid for the variant, or None");
  m.def("two_boards", [](const std::string& v) { return static_cast<void>(catalogue().get(v)), false; }, py::arg("variant"),
        "Whether the variant is played on two boards (bughouse): never in Palace");
  m.def("captures_to_hand", [](const std::string& v) { return catalogue().get(v)->captures_to_hand(); }, py::arg("variant"));
  m.def(
      "piece_to_partner",
      [](const std::string& v, const std::string& fen, const std::vector<std::string>& moves, bool chess960) {
        return captured_piece(WireBoard(v, fen, moves, chess960).pos);
      },
      py::arg("variant"), py::arg("fen"), py::arg("moves"), py::arg("chess960") = false,
      "The piece the last move took, unpromoted, or '' (a bughouse partner's gain)");
  m.def(
      "get_fog_fen",
      [](const std::string& fen, const std::string& v, bool chess960) {
        WireBoard b(v, fen, {}, chess960);
        return b.wire.fen(fog_fen(b.pos));
      },
      py::arg("fen"), py::arg("variant"), py::arg("chess960") = false,
      "The FEN with every point the side to move cannot see (holds nor may move to) written '*'");
  m.def(
      "perft",
      [](const std::string& v, const std::string& fen, const std::vector<std::string>& moves, int depth) {
        if (depth < 0) throw Error("perft depth must be 0 or more");
        WireBoard b(v, fen, moves);
        const py::gil_scoped_release unlocked;
        return palace::perft(b.pos, depth);
      },
      py::arg("variant"), py::arg("fen"), py::arg("moves"), py::arg("depth"));

  // ---- The Pythonic layer: moves in Palace's own notation (the command line's) ----
  py::class_<PyVariant>(m, "Variant")
      .def_static("load", [](const std::string& path) { return PyVariant{load_file_or_text(path), path}; }, py::arg("path"),
                  "A variant from a YAML file (or YAML text)")
      .def_static("named", [](const std::string& name) { return PyVariant{catalogue().get(name), ""}; }, py::arg("name"))
      .def_property_readonly("name", &PyVariant::name)
      .def_property_readonly("uci_name", &PyVariant::uci_name)
      .def_property_readonly("start_fen", &PyVariant::start_fen)
      .def_property_readonly("sides", &PyVariant::sides)
      .def_readonly("path", &PyVariant::path)
      .def("__repr__", [](const PyVariant& v) { return "<palace.Variant " + v.name() + ">"; });

  py::class_<GameOutcome>(m, "Outcome")
      .def_readonly("termination", &GameOutcome::termination)
      .def_readonly("winner", &GameOutcome::winner)
      .def_readonly("result", &GameOutcome::result)
      .def_readonly("text", &GameOutcome::text)
      .def_readonly("claimed", &GameOutcome::claimed)
      .def("__repr__", [](const GameOutcome& o) { return "<palace.Outcome " + o.text + ">"; });

  py::class_<SearchResult>(m, "SearchResult")
      .def_readonly("move", &SearchResult::move)
      .def_readonly("score", &SearchResult::score)
      .def_readonly("mate", &SearchResult::mate)
      .def_readonly("depth", &SearchResult::depth)
      .def_readonly("nodes", &SearchResult::nodes)
      .def_readonly("pv", &SearchResult::pv)
      .def("__repr__", [](const SearchResult& r) { return "<palace.SearchResult " + r.move + " " + std::to_string(r.score) + ">"; });

  py::class_<PyGame, std::shared_ptr<PyGame>>(m, "Game")
      .def(py::init<const py::object&, const std::optional<std::string>&>(), py::arg("variant"), py::arg("fen") = std::nullopt,
           "A game of a Variant (or a variant name), at its set-up or at `fen`")
      .def_property_readonly("variant", &PyGame::variant)
      .def_property_readonly("fen", &PyGame::fen)
      .def_property_readonly("turn", &PyGame::turn)
      .def_property_readonly("moves", &PyGame::moves)
      .def("is_check", &PyGame::is_check)
      .def("push", &PyGame::push, py::arg("move"), "Plays a move in any notation; IllegalMoveError says why not")
      .def("pop", &PyGame::pop, "Takes back the last move and returns it")
      .def("legal_moves", &PyGame::legal_moves, "The legal moves, sorted")
      .def("explain", &PyGame::explain, py::arg("move"), "Why a move is illegal, or '' when it is legal")
      .def("outcome", &PyGame::outcome, py::arg("claim_draw") = false,
           "How the game ended, or None; with claim_draw, a draw the side to move may claim counts")
      .def_property_readonly("claimable", &PyGame::claimable)
      .def("claim_draw", &PyGame::claim_draw)
      .def("perft", &PyGame::perft, py::arg("depth"), "Leaf nodes of the legal move tree (releases the GIL)")
      .def("search", &PyGame::search, py::kw_only(), py::arg("depth") = 0, py::arg("nodes") = 0, py::arg("movetime") = 0,
           py::arg("hash_mb") = 16, "The engine's best move (releases the GIL)");

  py::class_<Record>(m, "Record")
      .def_property_readonly("tags", [](const Record& r) { return r.record.tags; })
      .def_property_readonly("moves", [](const Record& r) { return r.record.moves; })
      .def_property_readonly("result", [](const Record& r) { return r.record.result; })
      .def_property_readonly("line", [](const Record& r) { return r.record.line; })
      .def_readonly("good", &Record::good)
      .def_readonly("verdict", &Record::verdict)
      .def_readonly("notes", &Record::notes)
      .def_readonly("game", &Record::game)
      .def("write", &write_record, py::arg("format") = "pgn", py::arg("notation") = py::none(),
           "The record as text: pgn (moves in `notation`, the variant's own by default), gib, kif, ki2 or csa")
      .def("tag", [](const Record& r, const std::string& name) -> std::optional<std::string> {
        if (const std::string* value = r.record.tag(name)) return *value;
        return std::nullopt;
      }, py::arg("name"), "A tag's value (its name compared without case), or None")
      .def("__repr__", [](const Record& r) { return "<palace.Record line " + std::to_string(r.record.line) + ": " + r.verdict + ">"; });

  py::class_<RecordReader>(m, "RecordReader")
      .def("__iter__", [](RecordReader& r) -> RecordReader& { return r; })
      .def("__next__", &RecordReader::next);
  m.def("read_records", [](const std::string& path) { return std::make_unique<RecordReader>(path); }, py::arg("path"),
        "The games of a record file (PGN, .gib, KIF, CSA), each replayed with its variant's rules");
}
