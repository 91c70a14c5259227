#include "protocol/session.h"

#include <algorithm>
#include <chrono>
#include <filesystem>
#include <new>

#include "core/text.h"
#include "hooks/load_variant.h"
#include "movegen/movegen.h"

namespace palace::protocol {

namespace {

// Far more than any command needs (a long game's moves); a longer line is skipped, never held whole.
constexpr std::size_t MaxLineBytes = 1u << 20;

// One line of input, cut at MaxLineBytes (`cut` says so; the rest of it is skipped). False at the
// end of input. A carriage return before the newline (WinBoard's pipes) is dropped.
bool read_line(std::istream& in, std::string& line, bool& cut) {
  line.clear();
  cut = false;
  bool any = false;
  for (int c; (c = in.get()) != std::char_traits<char>::eof();) {
    any = true;
    if (c == '\n') break;
    if (line.size() < MaxLineBytes) line += char(c);
    else cut = true;
  }
  if (!line.empty() && line.back() == '\r') line.pop_back();
  return any;
}

}  // namespace

std::string rest_of(std::istringstream& words) {
  std::string rest;
  std::getline(words >> std::ws, rest);
  return rest;
}

std::optional<long long> read_count(std::istringstream& words) {
  std::string word;
  if (!(words >> word) || word.empty() || word.size() > 15 ||
      !std::all_of(word.begin(), word.end(), [](char c) { return c >= '0' && c <= '9'; }))
    return std::nullopt;
  return std::stoll(word);
}

Session::Session(SessionConfig config, Sender send, WireStyle style)
    : config_(std::move(config)), send_(std::move(send)), style_(style), catalogue_(wire_catalogue(config_.variants_dir, config_.default_variant)) {
  use_variant(config_.default_variant);
}

std::optional<std::string> Session::variant_file(const std::string& name, bool xboard) const {
  for (const WireEntry& e : catalogue_)
    if ((xboard ? e.xboard : e.name) == name) return e.file;
  return std::nullopt;
}

std::string Session::known_variants(bool xboard) const {
  std::vector<std::string> names;
  for (const WireEntry& e : catalogue_) names.push_back(xboard ? e.xboard : e.name);
  std::sort(names.begin(), names.end());
  // Two files may share an XBoard name (normal.yaml is chess.yaml under the reference's second
  // name): XBoard's list names it once, and `variant NAME` plays the first.
  names.erase(std::unique(names.begin(), names.end()), names.end());
  std::string known;
  for (const auto& n : names) known += (known.empty() ? "" : xboard ? "," : ", ") + n;
  return known;
}

std::string Session::variant_choices() const {
  std::string choices;
  for (const WireEntry& e : catalogue_) choices += " var " + e.name;
  return choices;
}

void Session::use_variant(const std::string& file) {
  finish_search();
  auto variant = load_variant(file);
  auto position = std::make_unique<Position>(variant);
  wire_ = std::make_unique<WireNotation>(*variant, style_);
  searcher_ = std::make_unique<search::Searcher>(variant, hash_mb_);
  position_ = std::move(position);
  variant_ = std::move(variant);
  variant_file_ = file;
}

void Session::run(std::istream& in) {
  bool cut = false;
  for (std::string line; read_line(in, line, cut);) {
    if (cut) {
      refuse_overlong(line, "a line over " + std::to_string(MaxLineBytes) + " bytes is ignored");
      continue;
    }
    if (!handle(line)) return;
  }
  // A GUI that closes its end wants the engine gone.
  const auto deadline = std::chrono::steady_clock::now() + EndOfInputGrace;
  while (!infinite_ && searching_ && std::chrono::steady_clock::now() < deadline)
    std::this_thread::sleep_for(std::chrono::milliseconds(1));
  finish_search();
}

void Session::refuse_overlong(const std::string&, const std::string& why) { complain(why); }

// A command that fails (a rule hook erring in a move, perft or eval) leaves the engine as it was,
// and says why.
bool Session::handle(const std::string& line) {
  try {
    std::istringstream words(line);
    std::string command;
    if (!(words >> command)) return true;
    return dispatch(command, words);
  } catch (const Error& e) {
    complain(palace::quote(line, 60) + " failed: " + e.what());
    return true;
  }
}

bool Session::common(const std::string& command) {
  if (command == "isready") {
    say("readyok");
  } else if (command == "stop") {
    finish_search();
  } else if (command == "eval") {
    say("info string static evaluation " + std::to_string(searcher_->evaluate(*position_)) + " cp for the side to move");
  } else {
    return false;
  }
  return true;
}

void Session::set_variant_option(const std::string& name) {
  const auto file = variant_file(name);
  if (!file) return complain("unknown variant " + palace::quote(name) + " (known: " + known_variants() + ")");
  try {
    use_variant(*file);
  } catch (const Error& e) {
    complain("variant not loaded: " + std::string(e.what()));
  }
}

void Session::set_variant_file_option(const std::string& file) {
  if (file.empty() || file == "<empty>") return;
  try {
    use_variant(file);
  } catch (const Error& e) {
    // A variant that does not load leaves the current one in play.
    complain("variant not loaded: " + std::string(e.what()));
  }
}

void Session::set_hash_option(const std::string& value) {
  std::istringstream number(value);
  const auto mb = read_count(number);
  if (!mb || *mb < 1 || *mb > MaxHashMb)
    return complain("Hash must be 1 to " + std::to_string(MaxHashMb) + " MB, not " + palace::quote(value));
  finish_search();
  try {
    searcher_->set_hash_size(std::size_t(*mb));
    hash_mb_ = std::size_t(*mb);
  } catch (const std::bad_alloc&) {
    complain("Hash " + std::to_string(*mb) + " MB: not enough memory; it stays " + std::to_string(hash_mb_) + " MB");
    searcher_->set_hash_size(hash_mb_);
  }
}

bool Session::read_option(std::istringstream& words, std::string& name, std::string& value) {
  std::string word;
  words >> word;
  if (word != "name") {
    complain("setoption needs: setoption name NAME [value VALUE]");
    return false;
  }
  name.clear();
  while (words >> word && word != "value") name += (name.empty() ? "" : " ") + word;
  value = rest_of(words);
  return true;
}

void Session::position_command(std::istringstream& words, const std::string& keyword) {
  std::string word, text;
  words >> word;
  if (word == keyword) {
    while (words >> word && word != "moves") text += (text.empty() ? "" : " ") + word;
    if (text.empty()) return complain("position " + keyword + " needs a position");
  } else if (word == "startpos") {
    if (words >> word && word != "moves") return complain("expected moves after startpos, not " + palace::quote(word));
  } else {
    return complain("position needs startpos or " + keyword + ", not " + palace::quote(word));
  }
  std::vector<std::string> moves;
  while (words >> word) moves.push_back(word);
  set_position(text, moves);
}

// The whole command applies, or none of it does.
bool Session::set_position(const std::string& text, const std::vector<std::string>& moves) {
  auto next = std::make_unique<Position>(variant_);
  if (!text.empty()) {
    try {
      next->set_fen(wire_->palace_fen(text));
    } catch (const FenError& e) {
      complain("bad position " + palace::quote(text, 100) + ": " + e.what());
      return false;
    }
  }
  int ply = 0;
  for (const std::string& word : moves) {
    ++ply;
    std::string why;
    const Move m = wire_->parse_move(*next, word, why);
    if (!m) {
      complain("position unchanged: move " + std::to_string(ply) + ": " + why);
      return false;
    }
    next->do_move(m);
  }
  position_ = std::move(next);
  return true;
}

std::optional<search::Limits> Session::read_go(std::istringstream& words, const std::vector<GoWord>& table) {
  if (searching_) {
    complain("go ignored: a search is running (send stop first)");
    return std::nullopt;
  }
  search::Limits limits;
  const Side mover = position_->side_to_move();
  std::string word;
  while (words >> word) {
    if (word == "infinite") {
      limits.infinite = true;
      continue;
    }
    if (word == "ponder") continue;  // searched as an ordinary go: Palace does not ponder
    const auto it = std::find_if(table.begin(), table.end(), [&](const GoWord& g) { return word == g.word; });
    if (it == table.end() && word != "perft") {
      complain("unknown go parameter " + palace::quote(word));
      return std::nullopt;
    }
    if (it != table.end() && !it->set) continue;
    std::string text;
    words >> text;
    if (text.empty() || !std::all_of(text.begin(), text.end(), [](char c) { return c >= '0' && c <= '9'; })) {
      complain("go " + word + " needs a number");
      return std::nullopt;
    }
    const std::size_t digits = text.size() - std::min(text.find_first_not_of('0'), text.size());
    if (digits > 10 || std::stoll(text) > MaxGoNumber) {
      complain("go " + word + " must be at most " + std::to_string(MaxGoNumber));
      return std::nullopt;
    }
    const int number = int(std::stoll(text));
    if (word == "perft") {
      perft(number);
      return std::nullopt;
    }
    it->set(limits, mover, number);
  }
  return limits;
}

void Session::start_search(const search::Limits& limits) {
  if (search_thread_.joinable()) search_thread_.join();
  // The thread gets its own copy of the position: the GUI's next command may replace it while it
  // runs. The searcher and notation are replaced only after finish_search().
  searching_ = true;
  counting_ = false;
  infinite_ = limits.infinite || (!limits.depth && !limits.nodes && !limits.movetime_ms &&
                                  limits.time_left_ms[position_->side_to_move()] < 0);
  search_thread_ = std::thread([this, root = *position_, limits] {
    // A rule hook that fails costs this search only: the GUI hears why, and gets no move.
    Move best;
    try {
      best = searcher_->search(root, limits, [&](const search::Report& r) { report(root, r); });
    } catch (const Error& e) {
      complain("search stopped: " + std::string(e.what()));
      // Said again here: in the optimised build `best` came back from a hook's error as a
      // nonsense move (tests/repro trap.yaml, UciHostileHooks); valgrind is silent, cause unknown.
      best = Move();
    }
    // Done before the answer goes out: a GUI may send its next go the moment it reads it, and
    // that go waits for this thread to end rather than being refused.
    searching_ = false;
    answer(root, best);
  });
}

void Session::finish_search() {
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

// On the search thread, like a search: `isready` is answered meanwhile, and `stop`, `quit` and the
// end of input end it (a stopped count says so instead of a total).
void Session::perft(int depth) {
  if (search_thread_.joinable()) search_thread_.join();
  searching_ = true;
  infinite_ = false;
  counting_ = true;
  perft_stop_ = false;
  // A copy: a hook failing half-way leaves the position as it was.
  search_thread_ = std::thread([this, pos = *position_, depth]() mutable {
    if (MoveHooks* hooks = pos.move_hooks()) hooks->set_interrupt([this] { return perft_stop_.load(); });
    std::optional<std::uint64_t> total;
    std::string failure;
    try {
      total = count_perft(pos, depth);
    } catch (const HookInterrupted&) {
      failure = "perft stopped";
    } catch (const Error& e) {
      failure = palace::quote("go perft " + std::to_string(depth), 60) + " failed: " + e.what();
    }
    // Done before the total or the failure goes out, as a search's before its answer: a client may
    // send its next go the moment it reads either, and that go must wait for this thread, not be
    // refused.
    searching_ = false;
    if (!total) return complain(failure);
    say("");
    say("Nodes searched: " + std::to_string(*total));
  });
}

std::uint64_t Session::count_perft(Position& pos, int depth) {
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
  return depth > 0 ? total : 1;
}

void Session::report(const Position& root, const search::Report& r) {
  std::ostringstream line;
  line << "info depth " << r.depth << " seldepth " << r.seldepth << " score ";
  if (r.mate_in)
    line << "mate " << r.mate_in;
  else
    line << "cp " << r.score_cp;
  const std::int64_t nps = r.time_ms > 0 ? std::int64_t(r.nodes * 1000 / std::uint64_t(r.time_ms)) : std::int64_t(r.nodes);
  line << " nodes " << r.nodes << " nps " << nps << " time " << r.time_ms;
  if (!r.pv.empty()) line << " pv " << line_of(root, r.pv);
  say(line.str());
}

// Each move written in the position it is played in (a pass names the mover's royal).
std::string Session::line_of(const Position& root, const std::vector<Move>& moves) const {
  Position pos = root;
  std::string line;
  for (const Move m : moves) {
    if (!line.empty()) line += ' ';
    line += wire_->move(pos, m);
    pos.do_move(m);
  }
  return line;
}

void Session::say(const std::string& line) {
  std::lock_guard lock(send_mutex_);
  send_(line);
}

}  // namespace palace::protocol
