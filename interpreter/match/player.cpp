#include "match/player.h"

#include <sstream>

#include "core/text.h"
#include "hooks/load_variant.h"
#include "match/match_error.h"

namespace palace::match {

namespace {

int read_number(const std::string& key, const std::string& value, long long max) {
  std::size_t used = 0;
  long long n = -1;
  try {
    n = std::stoll(value, &used);
  } catch (const std::exception&) {
  }
  if (used != value.size() || n < 0 || n > max)
    throw MatchError("player " + key + " must be a number from 0 to " + std::to_string(max) + ", not " +
                     palace::quote(value));
  return int(n);
}

std::int64_t elapsed_ms(std::chrono::steady_clock::time_point since) {
  return std::chrono::duration_cast<std::chrono::milliseconds>(std::chrono::steady_clock::now() - since).count();
}

class LocalPlayer : public Player {
 public:
  LocalPlayer(PlayerSpec spec, std::shared_ptr<const Variant> variant)
      : Player(std::move(spec)), variant_(std::move(variant)), wire_(*variant_), searcher_(variant_) {}

  void new_game() override { searcher_.clear(); }

  // The engine may search a variant of its own (another eval:), so the game is replayed on it;
  // both compile the same rules, so moves mean the same.
  Answer think(const Game& game, const std::string& start_fen, const Clocks& clocks) override {
    Position pos(variant_);
    pos.set_fen(start_fen);
    for (const Move m : game.history()) pos.do_move(m);
    const auto start = std::chrono::steady_clock::now();
    const Move best = searcher_.search(pos, limits(clocks));
    Answer answer;
    answer.used_ms = elapsed_ms(start);
    if (best)
      answer.move = wire_.move(pos, best);
    else
      answer.failure = "gave no move";
    return answer;
  }

 private:
  std::shared_ptr<const Variant> variant_;
  WireNotation wire_;
  search::Searcher searcher_;
};

// What each protocol calls the same steps.
struct Dialect {
  const char* hello;     // the first command, answered by hello + "ok" (CECP: features, done=1)
  const char* new_game;  // empty: the protocol has none
  const char* variant_option;
  const char* position;  // the keyword of a position given in full
  WireStyle style;
};

const Dialect* dialect_of(const std::string& protocol) {
  static const Dialect uci{"uci", "ucinewgame", "setoption name UCI_Variant value ", "fen", WireStyle::Uci};
  static const Dialect usi{"usi", "usinewgame", "setoption name USI_Variant value ", "sfen", WireStyle::Usi};
  static const Dialect ucci{"ucci", "", "setoption name UCI_Variant value ", "fen", WireStyle::Iccs};
  static const Dialect xboard{"xboard", "new", "variant ", "setboard", WireStyle::XBoard};
  if (protocol == "uci") return &uci;
  if (protocol == "usi") return &usi;
  if (protocol == "ucci") return &ucci;
  if (protocol == "xboard") return &xboard;
  return nullptr;
}

// An external engine over pipes. CECP is spoken without relying on the engine's own game: each move
// request sets the board afresh in force mode and replays the game's moves.
class EnginePlayer : public Player {
 public:
  EnginePlayer(PlayerSpec spec, std::shared_ptr<const Variant> variant)
      : Player(std::move(spec)),
        dialect_(*dialect_of(spec_.protocol)),
        variant_(std::move(variant)),
        wire_(*variant_, dialect_.style),
        uci_wire_(*variant_) {
    launch();
  }

  // Why the engine did not start for this game; empty when it did.
  const std::string& start_failure() const { return start_failure_; }

  // A crashed engine is started afresh, so that the rest of the match goes on; one that then does
  // not start loses this game (think answers why).
  void new_game() override {
    if (!process_) return;  // it did not start: this game is lost (think says why)
    if (!process_->closed()) {
      start_game();
      if (ready()) return;
    }
    launch();
    if (process_) start_game();
    if (process_ && !ready()) fail_start("engine " + palace::quote(spec_.command, 100) + " did not answer " + ready_word());
  }

  Answer think(const Game& game, const std::string& start_fen, const Clocks& clocks) override {
    const bool xboard = dialect_.style == WireStyle::XBoard;
    std::vector<std::string> lines;
    std::string position = xboard ? "setboard " + wire_.fen(start_fen)
                                  : std::string("position ") + dialect_.position + " " + wire_.position_text(start_fen);
    if (xboard) lines = {"force", position};
    Position pos(variant_);
    pos.set_fen(start_fen);
    if (!xboard && !game.history().empty()) position += " moves";
    for (const Move m : game.history()) {
      const std::string move = wire_.move(pos, m);
      if (xboard) lines.push_back("usermove " + move);
      else position += ' ' + move;
      pos.do_move(m);
    }
    const Side mover = game.side_to_move();
    if (xboard) {
      append_xboard_go(lines, mover, clocks);
    } else {
      lines.push_back(position);
      lines.push_back(go_line(mover, clocks));
    }
    // How long the referee waits: the clock (or move time, in CECP whole seconds) and a second of
    // grace for the pipes; a depth or node search gets a minute.
    const int movetime_ms = limits(clocks).movetime_ms;
    const std::int64_t move_ms = xboard && movetime_ms ? std::max(movetime_ms, 1000) : movetime_ms;
    const std::int64_t allowed = clocks.left_ms[mover] ? clocks.left_ms[mover] : move_ms ? move_ms : 60'000;
    const auto start = std::chrono::steady_clock::now();
    const auto deadline = start + std::chrono::milliseconds(allowed + 1000);
    Answer answer;
    if (!process_) {
      answer.failure = start_failure_.empty() ? "crashed" : "crashed (" + start_failure_ + ")";
      return answer;
    }
    for (const std::string& line : lines)
      if (!process_->send(line)) {
        answer.failure = "crashed";
        return answer;
      }
    while (const auto line = process_->receive(deadline)) {
      std::istringstream words(*line);
      std::string word;
      words >> word;
      // USI's `bestmove resign`, UCCI's `nobestmove`, CECP's `resign` and a CECP engine refusing
      // one of the game's moves all end the request.
      const bool refused = xboard ? word == "resign" || word == "Illegal" : word == "nobestmove";
      if (!refused && word != (xboard ? "move" : "bestmove")) continue;
      if (!refused) words >> answer.move;
      answer.used_ms = elapsed_ms(start);
      // The referee reads UCI's notation; a move of another protocol's that is no legal move here
      // goes to it as sent, for it to refuse by name.
      std::string why;
      if (const Move m = dialect_.style == WireStyle::Uci ? Move() : wire_.parse_move(pos, answer.move, why))
        answer.move = uci_wire_.move(pos, m);
      if (refused || answer.move == "resign") answer.failure = "resigned (" + palace::quote(*line, 100) + ")";
      return answer;
    }
    answer.used_ms = elapsed_ms(start);
    answer.failure = process_->closed() ? "crashed" : "lost on time (no move after " + std::to_string(answer.used_ms) + " ms)";
    // An engine still thinking past its time would answer the next game's request.
    if (!process_->closed()) process_.reset();
    return answer;
  }

 private:
  std::string go_line(Side mover, const Clocks& clocks) const {
    const search::Limits l = limits(clocks);
    std::ostringstream go;
    go << "go";
    if (l.depth) go << " depth " << l.depth;
    if (l.nodes) go << " nodes " << l.nodes;
    if (l.movetime_ms) {
      // UCCI has no move time: the mover's clock holds exactly that.
      if (dialect_.style == WireStyle::Iccs) go << " time " << l.movetime_ms << " movestogo 1";
      else go << " movetime " << l.movetime_ms;
    }
    if (clocks.left_ms[0] || clocks.left_ms[1]) {
      if (dialect_.style == WireStyle::Iccs)
        go << " time " << clocks.left_ms[mover] << " increment " << clocks.increment_ms[mover];
      else if (dialect_.style == WireStyle::Usi)  // USI's b(lack) is the first side
        go << " btime " << clocks.left_ms[0] << " wtime " << clocks.left_ms[1] << " binc " << clocks.increment_ms[0]
           << " winc " << clocks.increment_ms[1];
      else
        go << " wtime " << clocks.left_ms[0] << " btime " << clocks.left_ms[1] << " winc " << clocks.increment_ms[0]
           << " binc " << clocks.increment_ms[1];
    }
    return go.str();
  }

  // CECP: st for a move time, sd for a depth, time and otim in centiseconds for a clock, then go.
  void append_xboard_go(std::vector<std::string>& lines, Side mover, const Clocks& clocks) const {
    const search::Limits l = limits(clocks);
    if (l.movetime_ms) lines.push_back("st " + std::to_string(std::max(1, l.movetime_ms / 1000)));
    if (l.depth) lines.push_back("sd " + std::to_string(l.depth));
    if (clocks.left_ms[0] || clocks.left_ms[1]) {
      lines.push_back("level 0 " + std::to_string(clocks.left_ms[mover] / 60'000) + ":" +
                      std::to_string(clocks.left_ms[mover] / 1000 % 60) + " " + std::to_string(clocks.increment_ms[mover] / 1000));
      lines.push_back("time " + std::to_string(clocks.left_ms[mover] / 10));
      lines.push_back("otim " + std::to_string(clocks.left_ms[opponent(mover)] / 10));
    }
    lines.push_back("go");
  }

  void start_game() {
    if (*dialect_.new_game) process_->send(dialect_.new_game);
    if (dialect_.style == WireStyle::XBoard) process_->send("variant " + variant_name());
  }

  std::string variant_name() const {
    if (!spec_.variant.empty()) return spec_.variant;
    return dialect_.style == WireStyle::XBoard ? wire_.xboard_name() : wire_.variant_name();
  }

  // Starts the engine; when it does not start, process_ is empty and start_failure_ says why.
  void launch() {
    start_failure_.clear();
    std::vector<std::string> argv;
    std::istringstream words(spec_.command);
    for (std::string word; words >> word;) argv.push_back(word);
    try {
      process_ = std::make_unique<Process>(argv);
    } catch (const MatchError& e) {
      return fail_start(e.what());
    }
    const std::string hello = dialect_.hello, ok = dialect_.style == WireStyle::XBoard ? "done=1" : hello + "ok";
    process_->send(hello);
    if (dialect_.style == WireStyle::XBoard) process_->send("protover 2");
    if (!expect(ok)) return fail_start("engine " + palace::quote(spec_.command, 100) + " did not answer " + ok);
    if (dialect_.style == WireStyle::XBoard) {
      process_->send("new");
      process_->send("variant " + variant_name());
    } else {
      process_->send(dialect_.variant_option + variant_name());
    }
    for (const auto& [option, value] : spec_.options)
      process_->send(dialect_.style == WireStyle::XBoard ? "option " + option + "=" + value
                                                         : "setoption name " + option + " value " + value);
    if (!ready()) fail_start("engine " + palace::quote(spec_.command, 100) + " did not answer " + ready_word());
  }

  void fail_start(const std::string& why) {
    process_.reset();
    start_failure_ = why;
  }

  // CECP's ping answers when every command before it is done, as isready does.
  std::string ready_word() const { return dialect_.style == WireStyle::XBoard ? "pong 1" : "readyok"; }
  bool ready() {
    process_->send(dialect_.style == WireStyle::XBoard ? "ping 1" : "isready");
    return expect(ready_word());
  }

  // A line that is `word`, or (CECP's features) one that ends in it.
  bool expect(const std::string& word) {
    const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(10);
    while (const auto line = process_->receive(deadline))
      if (*line == word || (line->size() > word.size() && line->ends_with(" " + word))) return true;
    return false;
  }

  const Dialect& dialect_;
  std::shared_ptr<const Variant> variant_;
  WireNotation wire_;      // the protocol's
  WireNotation uci_wire_;  // the referee's
  std::unique_ptr<Process> process_;
  std::string start_failure_;  // why the engine did not start for this game
};

}  // namespace

search::Limits Player::limits(const Clocks& clocks) const {
  search::Limits l;
  l.depth = spec_.depth;
  l.nodes = spec_.nodes;
  l.movetime_ms = spec_.movetime_ms;
  // No clock (both at 0) leaves the search's "no time given", as the engines' go lines leave out
  // wtime and btime: a time left of 0 would give a depth-limited search a 1 ms budget.
  if (clocks.left_ms[0] || clocks.left_ms[1])
    for (int s = 0; s < SideCount; ++s) {
      l.time_left_ms[s] = int(clocks.left_ms[s]);
      l.increment_ms[s] = int(clocks.increment_ms[s]);
    }
  return l;
}

PlayerSpec parse_player_spec(const std::string& text) {
  PlayerSpec spec;
  std::istringstream parts(text);
  bool palace = false;
  for (std::string part; std::getline(parts, part, ',');) {
    const auto eq = part.find('=');
    const std::string key = part.substr(0, eq);
    const std::string value = eq == std::string::npos ? "" : part.substr(eq + 1);
    if (part == "palace")
      palace = true;
    else if (key == "protocol") {
      if (!dialect_of(value)) throw MatchError("unknown protocol " + palace::quote(value) + " (uci, usi, ucci, xboard)");
      spec.protocol = value;
    }
    else if (key == "engine")
      spec.command = value;
    else if (key == "name")
      spec.name = value;
    else if (key == "variant")
      spec.variant = value;
    else if (key == "eval")
      spec.eval_file = value;
    else if (key == "depth")
      spec.depth = read_number(key, value, 128);
    else if (key == "nodes")
      spec.nodes = std::uint64_t(read_number(key, value, 2'000'000'000));
    else if (key == "movetime")
      spec.movetime_ms = read_number(key, value, 86'400'000);
    else if (key.rfind("option.", 0) == 0 && eq != std::string::npos)
      spec.options[key.substr(7)] = value;
    else
      throw MatchError("unknown player setting " + palace::quote(part) +
                       " (palace, engine=CMD, protocol, name, variant, option.NAME, eval, depth, nodes, movetime)");
  }
  if (palace == !spec.command.empty())
    throw MatchError("a player is either palace or engine=CMD: " + palace::quote(text, 100));
  if (!palace && !spec.eval_file.empty()) throw MatchError("eval= is a setting of palace's own engine");
  if (palace && (!spec.variant.empty() || !spec.options.empty() || spec.protocol != "uci"))
    throw MatchError("variant=, protocol= and option. are settings of an external engine");
  if (spec.name.empty()) {
    const auto slash = spec.command.rfind('/');
    spec.name = palace ? "palace" : spec.command.substr(slash == std::string::npos ? 0 : slash + 1);
    if (const auto space = spec.name.find(' '); space != std::string::npos) spec.name.resize(space);
  }
  return spec;
}

void check_player(const PlayerSpec& spec, std::shared_ptr<const Variant> variant) {
  if (spec.command.empty()) {
    make_player(spec, std::move(variant));
    return;
  }
  const EnginePlayer engine(spec, std::move(variant));
  if (!engine.start_failure().empty()) throw MatchError(engine.start_failure());
}

std::unique_ptr<Player> make_player(const PlayerSpec& spec, std::shared_ptr<const Variant> variant) {
  if (!spec.command.empty()) return std::make_unique<EnginePlayer>(spec, std::move(variant));
  return std::make_unique<LocalPlayer>(spec, spec.eval_file.empty() ? std::move(variant) : load_variant(spec.eval_file));
}

}  // namespace palace::match
