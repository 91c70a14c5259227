#include "protocol/uci.h"

#include <algorithm>
#include <chrono>
#include <filesystem>
#include <istream>
#include <new>
#include <sstream>

#include "core/move_hooks.h"
#include "core/text.h"
#include "hooks/load_variant.h"
#include "movegen/movegen.h"

namespace palace::protocol {

namespace {

constexpr int MaxHashMb = 4096;
// Far more than any command needs (a long game's moves); a longer line is skipped, never held whole.
constexpr std::size_t MaxLineBytes = 1u << 20;

// The rest of the line, from the stream's current place, without the leading space.
std::string rest_of(std::istringstream& words) {
  std::string rest;
  std::getline(words >> std::ws, rest);
  return rest;
}

// Reads a non-negative count after a `go` keyword; nullopt when the word is missing or not a number.
std::optional<long long> read_count(std::istringstream& words) {
  std::string word;
  if (!(words >> word) || word.empty() || word.size() > 15 ||
      !std::all_of(word.begin(), word.end(), [](char c) { return c >= '0' && c <= '9'; }))
    return std::nullopt;
  return std::stoll(word);
}

// One line of input, cut at MaxLineBytes (`cut` says so; the rest of it is skipped). False at the
// end of input.
bool read_line(std::istream& in, std::string& line, bool& cut) {
  line.clear();
  cut = false;
  bool any = false;
  for (int c; (c = in.get()) != std::char_traits<char>::eof();) {
    any = true;
    if (c == '\n') return true;
    if (line.size() < MaxLineBytes) line += char(c);
    else cut = true;
  }
  return any;
}

}  // namespace

UciEngine::UciEngine(UciConfig config, Sender send) : config_(std::move(config)), send_(std::move(send)) {
  std::error_code error;
  std::vector<std::filesystem::path> files;
  for (const auto& entry : std::filesystem::directory_iterator(config_.variants_dir, error))
    if (entry.path().extension() == ".yaml") files.push_back(entry.path());
  std::sort(files.begin(), files.end());
  // A broken file in the folder costs its own entry only: the others stay playable.
  for (const auto& file : files) {
    try {
      const RuleSet rules = load_rules(file.string());
      catalogue_.emplace(rules.uci.variant.empty() ? rules.name : rules.uci.variant, file.string());
    } catch (const Error&) {
    }
  }
  use_variant(config_.default_variant);
}

UciEngine::~UciEngine() { finish_search(); }

void UciEngine::use_variant(const std::string& file) {
  auto variant = load_variant(file);
  auto position = std::make_unique<Position>(variant);
  wire_ = std::make_unique<WireNotation>(*variant);
  searcher_ = std::make_unique<search::Searcher>(variant, hash_mb_);
  position_ = std::move(position);
  variant_ = std::move(variant);
  variant_file_ = file;
}

void UciEngine::run(std::istream& in) {
  bool cut = false;
  for (std::string line; read_line(in, line, cut);) {
    if (cut) {
      say("info string a line over " + std::to_string(MaxLineBytes) + " bytes is ignored");
      continue;
    }
    if (!handle(line)) return;
  }
  // A GUI that closes its end wants the engine gone: a bounded search or perft still gets
  // EndOfInputGrace to answer (a script piped in wants its bestmove), then it is stopped.
  const auto deadline = std::chrono::steady_clock::now() + EndOfInputGrace;
  while (!infinite_ && searching_ && std::chrono::steady_clock::now() < deadline)
    std::this_thread::sleep_for(std::chrono::milliseconds(1));
  finish_search();
}

// A command that fails (a rule hook erring in `position ... moves`, `perft` or `eval`) leaves the
// engine as it was, and says why.
bool UciEngine::handle(const std::string& line) {
  try {
    return dispatch(line);
  } catch (const Error& e) {
    say("info string " + palace::quote(line, 60) + " failed: " + e.what());
    return true;
  }
}

bool UciEngine::dispatch(const std::string& line) {
  std::istringstream words(line);
  std::string command;
  if (!(words >> command)) return true;
  if (command == "quit") {
    finish_search();
    return false;
  }
  if (command == "isready") {
    say("readyok");
  } else if (command == "stop") {
    finish_search();
  } else if (command == "uci") {
    identify();
  } else if (command == "ucinewgame") {
    finish_search();
    searcher_->clear();
    position_->set_start();
  } else if (command == "setoption") {
    finish_search();
    set_option(words);
  } else if (command == "position") {
    set_position(words);
  } else if (command == "go") {
    go(words);
  } else if (command == "eval") {
    say("info string static evaluation " + std::to_string(searcher_->evaluate(*position_)) +
        " cp for the side to move");
  } else {
    say("info string unknown command " + palace::quote(command));
  }
  return true;
}

void UciEngine::identify() {
  say("id name Palace");
  say("id author the Palace developers");
  std::string combo = "option name UCI_Variant type combo default " + wire_->variant_name();
  for (const auto& [name, file] : catalogue_) combo += " var " + name;
  say(combo);
  say("option name VariantFile type string default <empty>");
  say("option name Hash type spin default 16 min 1 max " + std::to_string(MaxHashMb));
  say("option name Threads type spin default 1 min 1 max 1");
  say("uciok");
}

void UciEngine::set_option(std::istringstream& words) {
  std::string word, name, value;
  words >> word;
  if (word != "name") {
    say("info string setoption needs: setoption name NAME [value VALUE]");
    return;
  }
  while (words >> word && word != "value") name += (name.empty() ? "" : " ") + word;
  value = rest_of(words);
  try {
    if (name == "UCI_Variant") {
      const auto it = catalogue_.find(value);
      if (it == catalogue_.end()) {
        std::string known;
        for (const auto& [n, file] : catalogue_) known += (known.empty() ? "" : ", ") + n;
        say("info string unknown variant " + palace::quote(value) + " (known: " + known + ")");
        return;
      }
      use_variant(it->second);
    } else if (name == "VariantFile") {
      if (value.empty() || value == "<empty>") return;
      use_variant(value);
    } else if (name == "Hash") {
      std::istringstream number(value);
      const auto mb = read_count(number);
      if (!mb || *mb < 1 || *mb > MaxHashMb) {
        say("info string Hash must be 1 to " + std::to_string(MaxHashMb) + " MB, not " + palace::quote(value));
        return;
      }
      try {
        searcher_->set_hash_size(std::size_t(*mb));
        hash_mb_ = std::size_t(*mb);
      } catch (const std::bad_alloc&) {
        say("info string Hash " + std::to_string(*mb) + " MB: not enough memory; it stays " + std::to_string(hash_mb_) + " MB");
        searcher_->set_hash_size(hash_mb_);
      }
    } else if (name == "Threads") {
      if (value != "1") say("info string Threads stays 1: the search runs in one thread");
    } else {
      say("info string unknown option " + palace::quote(name));
    }
  } catch (const Error& e) {
    // A variant that does not load leaves the current one in play.
    say("info string variant not loaded: " + std::string(e.what()));
  }
}

// position startpos|fen FEN [moves M...]: the whole command applies, or none of it does.
void UciEngine::set_position(std::istringstream& words) {
  std::string word, fen;
  words >> word;
  if (word == "fen") {
    while (words >> word && word != "moves") fen += (fen.empty() ? "" : " ") + word;
    if (fen.empty()) {
      say("info string position fen needs a FEN");
      return;
    }
  } else if (word == "startpos") {
    if (words >> word && word != "moves") {
      say("info string expected moves after startpos, not " + palace::quote(word));
      return;
    }
  } else {
    say("info string position needs startpos or fen, not " + palace::quote(word));
    return;
  }
  auto next = std::make_unique<Position>(variant_);
  if (!fen.empty()) {
    try {
      next->set_fen(wire_->fen(fen));
    } catch (const FenError& e) {
      say("info string bad fen " + palace::quote(fen, 100) + ": " + e.what());
      return;
    }
  }
  int ply = 0;
  while (words >> word) {
    ++ply;
    std::string why;
    const Move m = wire_->parse_move(*next, word, why);
    if (!m) {
      say("info string position unchanged: move " + std::to_string(ply) + ": " + why);
      return;
    }
    next->do_move(m);
  }
  position_ = std::move(next);
}

void UciEngine::go(std::istringstream& words) {
  if (searching_) {
    say("info string go ignored: a search is running (send stop first)");
    return;
  }
  if (search_thread_.joinable()) search_thread_.join();
  search::Limits limits;
  std::string word;
  while (words >> word) {
    if (word == "infinite") {
      limits.infinite = true;
      continue;
    }
    if (word == "ponder") continue;  // searched as an ordinary go: Palace does not ponder
    const auto count = read_count(words);
    if (!count) {
      say("info string go " + word + " needs a number");
      return;
    }
    const int clipped = int(std::min<long long>(*count, 1'000'000'000));
    if (word == "perft") {
      perft(clipped);
      return;
    }
    if (word == "depth")
      limits.depth = clipped;
    else if (word == "nodes")
      limits.nodes = std::uint64_t(*count);
    else if (word == "movetime")
      limits.movetime_ms = clipped;
    else if (word == "wtime")
      limits.time_left_ms[0] = clipped;
    else if (word == "btime")
      limits.time_left_ms[1] = clipped;
    else if (word == "winc")
      limits.increment_ms[0] = clipped;
    else if (word == "binc")
      limits.increment_ms[1] = clipped;
    else if (word == "movestogo")
      limits.moves_to_go = clipped;
    else if (word == "mate")
      limits.depth = 2 * clipped;
    else {
      say("info string unknown go parameter " + palace::quote(word));
      return;
    }
  }
  // The thread gets its own copy of the position and searcher's pointer: `position` may come
  // while it runs, and the searcher is replaced only after finish_search().
  searching_ = true;
  counting_ = false;
  infinite_ = limits.infinite || (!limits.depth && !limits.nodes && !limits.movetime_ms &&
                                  !limits.time_left_ms[position_->side_to_move()]);
  search_thread_ = std::thread([this, root = *position_, limits] {
    // A rule hook that fails costs this search only: the GUI hears why, and gets no move.
    Move best;
    try {
      best = searcher_->search(root, limits, [&](const search::Report& r) { info(root, r); });
    } catch (const Error& e) {
      say("info string search stopped: " + std::string(e.what()));
    }
    // Done before the bestmove goes out: a GUI may send its next go the moment it reads it, and
    // that go waits for this thread to end rather than being refused.
    searching_ = false;
    say(best ? "bestmove " + wire_->move(root, best) : "bestmove (none)");
  });
}

// On the search thread, like a search: `isready` is answered meanwhile, and `stop`, `quit` and the
// end of input end it (a stopped count says so instead of a total).
void UciEngine::perft(int depth) {
  searching_ = true;
  infinite_ = false;
  counting_ = true;
  perft_stop_ = false;
  search_thread_ = std::thread([this, pos = *position_, depth]() mutable {
    if (MoveHooks* hooks = pos.move_hooks()) hooks->set_interrupt([this] { return perft_stop_.load(); });
    try {
      count_perft(pos, depth);
    } catch (const HookInterrupted&) {
      say("info string perft stopped");
    } catch (const Error& e) {
      say("info string " + palace::quote("go perft " + std::to_string(depth), 60) + " failed: " + e.what());
    }
    searching_ = false;
  });
}

void UciEngine::count_perft(Position& pos, int depth) {
  MoveList moves;
  generate_legal(pos, moves);
  std::uint64_t total = 0;
  for (const Move m : moves) {
    const std::string text = wire_->move(pos, m);
    pos.do_move(m);
    const std::uint64_t n = depth > 1 ? palace::perft(pos, depth - 1, &perft_stop_) : 1;
    pos.undo_move();
    if (perft_stop_) throw HookInterrupted();
    total += n;
    say(text + ": " + std::to_string(n));
  }
  say("");
  say("Nodes searched: " + std::to_string(depth > 0 ? total : 1));
}

void UciEngine::info(const Position& root, const search::Report& r) {
  std::ostringstream line;
  line << "info depth " << r.depth << " seldepth " << r.seldepth << " score ";
  if (r.mate_in)
    line << "mate " << r.mate_in;
  else
    line << "cp " << r.score_cp;
  const std::int64_t nps = r.time_ms > 0 ? std::int64_t(r.nodes * 1000 / std::uint64_t(r.time_ms)) : std::int64_t(r.nodes);
  line << " nodes " << r.nodes << " nps " << nps << " time " << r.time_ms;
  if (!r.pv.empty()) line << " pv " << wire_line(root, r.pv);
  say(line.str());
}

// Moves in wire notation, each written in the position it is played in (a pass names the mover's royal).
std::string UciEngine::wire_line(const Position& root, const std::vector<Move>& moves) const {
  Position pos = root;
  std::string line;
  for (const Move m : moves) {
    if (!line.empty()) line += ' ';
    line += wire_->move(pos, m);
    pos.do_move(m);
  }
  return line;
}

void UciEngine::finish_search() {
  if (!search_thread_.joinable()) return;
  // Asked again until the search has ended: a stop that comes before the search has started
  // could otherwise be lost, and an infinite search would never end.
  while (searching_) {
    // The searcher keeps a stop until its next search ends, so a perft must not be sent one.
    if (counting_)
      perft_stop_ = true;
    else
      searcher_->stop();
    std::this_thread::sleep_for(std::chrono::milliseconds(1));
  }
  search_thread_.join();
}

void UciEngine::say(const std::string& line) {
  std::lock_guard lock(send_mutex_);
  send_(line);
}

}  // namespace palace::protocol
