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

class UciPlayer : public Player {
 public:
  UciPlayer(PlayerSpec spec, std::shared_ptr<const Variant> variant)
      : Player(std::move(spec)), variant_(std::move(variant)), wire_(*variant_) {
    launch();
  }

  // Why the engine did not start for this game; empty when it did.
  const std::string& start_failure() const { return start_failure_; }

  // A crashed engine is started afresh, so that the rest of the match goes on; one that then does
  // not start loses this game (think answers why).
  void new_game() override {
    if (!process_) return;  // it did not start: this game is lost (think says why)
    if (!process_->closed()) {
      process_->send("ucinewgame");
      if (ready()) return;
    }
    launch();
    if (process_) process_->send("ucinewgame");
    if (process_ && !ready()) fail_start("engine " + palace::quote(spec_.command, 100) + " did not answer readyok");
  }

  Answer think(const Game& game, const std::string& start_fen, const Clocks& clocks) override {
    std::string position = "position fen " + wire_.fen(start_fen);
    if (!game.history().empty()) {
      position += " moves";
      Position pos(variant_);
      pos.set_fen(start_fen);
      for (const Move m : game.history()) {
        position += ' ';
        position += wire_.move(pos, m);
        pos.do_move(m);
      }
    }
    const Side mover = game.side_to_move();
    const search::Limits l = limits(clocks);
    std::ostringstream go;
    go << "go";
    if (l.depth) go << " depth " << l.depth;
    if (l.nodes) go << " nodes " << l.nodes;
    if (l.movetime_ms) go << " movetime " << l.movetime_ms;
    if (clocks.left_ms[0] || clocks.left_ms[1])
      go << " wtime " << clocks.left_ms[0] << " btime " << clocks.left_ms[1] << " winc " << clocks.increment_ms[0]
         << " binc " << clocks.increment_ms[1];
    // How long the referee waits: the clock (or move time) and a second of grace for the pipes;
    // a depth or node search gets a minute.
    const std::int64_t allowed = clocks.left_ms[mover] ? clocks.left_ms[mover] : l.movetime_ms ? l.movetime_ms : 60'000;
    const auto start = std::chrono::steady_clock::now();
    const auto deadline = start + std::chrono::milliseconds(allowed + 1000);
    Answer answer;
    if (!process_) {
      answer.failure = start_failure_.empty() ? "crashed" : "crashed (" + start_failure_ + ")";
      return answer;
    }
    if (!process_->send(position) || !process_->send(go.str())) {
      answer.failure = "crashed";
      return answer;
    }
    while (const auto line = process_->receive(deadline)) {
      std::istringstream words(*line);
      std::string word;
      if (!(words >> word) || word != "bestmove") continue;
      words >> answer.move;
      answer.used_ms = elapsed_ms(start);
      return answer;
    }
    answer.used_ms = elapsed_ms(start);
    answer.failure = process_->closed() ? "crashed" : "lost on time (no move after " + std::to_string(answer.used_ms) + " ms)";
    // An engine still thinking past its time would answer the next game's request.
    if (!process_->closed()) process_.reset();
    return answer;
  }

 private:
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
    process_->send("uci");
    if (!expect("uciok")) return fail_start("engine " + palace::quote(spec_.command, 100) + " did not answer uciok");
    process_->send("setoption name UCI_Variant value " + (spec_.variant.empty() ? wire_.variant_name() : spec_.variant));
    for (const auto& [option, value] : spec_.options) process_->send("setoption name " + option + " value " + value);
    if (!ready()) fail_start("engine " + palace::quote(spec_.command, 100) + " did not answer readyok");
  }

  void fail_start(const std::string& why) {
    process_.reset();
    start_failure_ = why;
  }

  bool ready() {
    process_->send("isready");
    return expect("readyok");
  }

  bool expect(const std::string& word) {
    const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(10);
    while (const auto line = process_->receive(deadline))
      if (*line == word) return true;
    return false;
  }

  std::shared_ptr<const Variant> variant_;
  WireNotation wire_;
  std::unique_ptr<Process> process_;
  std::string start_failure_;  // why the engine did not start for this game
};

}  // namespace

search::Limits Player::limits(const Clocks& clocks) const {
  search::Limits l;
  l.depth = spec_.depth;
  l.nodes = spec_.nodes;
  l.movetime_ms = spec_.movetime_ms;
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
                       " (palace, engine=CMD, name, variant, option.NAME, eval, depth, nodes, movetime)");
  }
  if (palace == !spec.command.empty())
    throw MatchError("a player is either palace or engine=CMD: " + palace::quote(text, 100));
  if (!palace && !spec.eval_file.empty()) throw MatchError("eval= is a setting of palace's own engine");
  if (palace && (!spec.variant.empty() || !spec.options.empty()))
    throw MatchError("variant= and option. are settings of an external engine");
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
  const UciPlayer engine(spec, std::move(variant));
  if (!engine.start_failure().empty()) throw MatchError(engine.start_failure());
}

std::unique_ptr<Player> make_player(const PlayerSpec& spec, std::shared_ptr<const Variant> variant) {
  if (!spec.command.empty()) return std::make_unique<UciPlayer>(spec, std::move(variant));
  return std::make_unique<LocalPlayer>(spec, spec.eval_file.empty() ? std::move(variant) : load_variant(spec.eval_file));
}

}  // namespace palace::match
