#include "protocol/cecp.h"

#include <algorithm>
#include <cmath>

#include "core/text.h"

namespace palace::protocol {

namespace {

// A CECP number: a count, or seconds with a fraction ("0.5"); nullopt when it is neither.
std::optional<double> read_number(std::istringstream& words) {
  std::string word;
  if (!(words >> word) || word.size() > 15) return std::nullopt;
  std::size_t used = 0;
  try {
    const double n = std::stod(word, &used);
    if (used == word.size() && std::isfinite(n) && n >= 0 && n < 1e9) return n;
  } catch (const std::exception&) {
  }
  return std::nullopt;
}

// level's base time: minutes, or minutes:seconds.
std::optional<int> read_base_ms(std::istringstream& words) {
  std::string word;
  if (!(words >> word)) return std::nullopt;
  const auto colon = word.find(':');
  std::istringstream minutes(word.substr(0, colon)), seconds(colon == std::string::npos ? "0" : word.substr(colon + 1));
  const auto m = read_count(minutes), s = read_count(seconds);
  if (!m || !s || *m > 100'000 || *s > 59) return std::nullopt;
  return int(*m * 60'000 + *s * 1000);
}

// `st` is a clock, not UCI's exact movetime: XBoard starts the engine's clock at the seconds
// given at each move and flags an engine that overruns it, which a search stopping at the second
// did on a loaded machine (by 2 to 70 ms). A very short `st` keeps half.
constexpr int StMarginMs = 100;

// The command or move an error names, as sent when it is short and printable; else quoted and cut,
// so that the answer stays one short line (a megabyte of input, a newline escape, a control byte).
std::string echo(const std::string& text) {
  constexpr std::size_t Limit = 100;
  const bool plain = text.size() <= Limit && std::all_of(text.begin(), text.end(), [](char c) {
                       return static_cast<unsigned char>(c) >= ' ' && c != 0x7f;
                     });
  return plain ? text : palace::quote(text, Limit);
}

// Commands XBoard sends that change nothing for an engine without book, pondering or analysis.
bool ignored(const std::string& command) {
  for (const char* word : {"xboard", "accepted", "rejected", "random", "hard", "easy", "computer", "name", "rating",
                           "ics", "draw", "cores", "nps", "bk", "hint", "."})
    if (command == word) return true;
  return false;
}

}  // namespace

void CecpEngine::complain(const std::string& why) {
  std::lock_guard lock(line_mutex_);
  say("Error (" + why + "): " + echo(line_));
}

void CecpEngine::refuse_overlong(const std::string& start, const std::string& why) {
  {
    std::lock_guard lock(line_mutex_);
    line_ = start;
  }
  complain(why);
}

bool CecpEngine::dispatch(const std::string& command, std::istringstream& words) {
  {
    std::lock_guard lock(line_mutex_);
    line_ = words.str();
  }
  if (command == "quit") {
    drop_search();
    return false;
  }
  if (command == "protover") {
    say("feature myname=\"Palace\" variants=\"" + known_variants(true) +
        "\" setboard=1 usermove=1 ping=1 time=1 draw=0 reuse=1 analyze=0 colors=0 san=0 sigint=0 sigterm=0 done=1");
  } else if (command == "ping") {
    const std::string n = rest_of(words);
    if (n.empty()) return complain("ping needs a number"), true;
    say("pong " + n);
  } else if (command == "post" || command == "nopost") {
    post_ = command == "post";
  } else if (command == "memory") {
    set_hash_option(rest_of(words));
  } else if (command == "?") {
    finish_search();  // plays the best move found so far
  } else if (!ignored(command) && !game_command(command, words) && !clock_command(command, words)) {
    complain("unknown command");
  }
  return true;
}

// Commands on the game; each ends a search in progress without playing its move.
bool CecpEngine::game_command(const std::string& command, std::istringstream& words) {
  if (command == "usermove") {
    if (searching()) return complain("it is not your move"), true;
    const std::string move = rest_of(words);
    if (move.empty()) return complain("usermove needs a move"), true;
    user_move(move);
    return true;
  }
  if (command == "new") {
    drop_search();
    new_game();
  } else if (command == "variant") {
    drop_search();
    const std::string name = rest_of(words);
    const auto file = variant_file(name, true);
    if (!file) return complain("unsupported variant"), true;
    use_variant(*file);
  } else if (command == "setboard") {
    const std::string fen = rest_of(words);
    if (fen.empty()) return complain("setboard needs a FEN"), true;
    drop_search();
    set_position(fen, {});
  } else if (command == "go") {
    drop_search();
    force_ = false;
    engine_side_ = position_->side_to_move();
    think();
  } else if (command == "playother") {
    drop_search();
    force_ = false;
    engine_side_ = opponent(position_->side_to_move());
  } else if (command == "force" || command == "result") {
    drop_search();
    force_ = true;
  } else if (command == "undo") {
    drop_search();
    take_back(1);
  } else if (command == "remove") {
    drop_search();
    take_back(2);
  } else {
    return false;
  }
  return true;
}

bool CecpEngine::clock_command(const std::string& command, std::istringstream& words) {
  if (command == "level") {
    const auto moves = read_count(words);
    const auto base = read_base_ms(words);
    const auto increment = read_number(words);
    if (!moves || !base || !increment) return complain("level needs MOVES MINUTES[:SECONDS] INCREMENT"), true;
    moves_per_session_ = int(std::min<long long>(*moves, 10'000));
    base_ms_ = *base;
    increment_ms_ = int(*increment * 1000);
    move_ms_ = 0;
    clock_ms_[0] = clock_ms_[1] = base_ms_;
  } else if (command == "st") {
    const auto seconds = read_number(words);
    if (!seconds) return complain("st needs seconds"), true;
    const int ms = int(*seconds * 1000);
    move_ms_ = std::max({1, ms / 2, ms - StMarginMs});
  } else if (command == "sd") {
    const auto depth = read_count(words);
    if (!depth || *depth < 1 || *depth > 100) return complain("sd needs a depth from 1 to 100"), true;
    depth_ = int(*depth);
  } else if (command == "time" || command == "otim") {
    const auto centiseconds = read_count(words);
    if (!centiseconds) return complain(command + " needs centiseconds"), true;
    const Side side = command == "time" ? engine_side_ : opponent(engine_side_);
    clock_ms_[side] = int(std::min<long long>(*centiseconds * 10, 1'000'000'000));
  } else {
    return false;
  }
  return true;
}

void CecpEngine::new_game() {
  if (variant_file_ != config_.default_variant) use_variant(config_.default_variant);
  searcher_->clear();
  position_->set_start();
  force_ = false;
  engine_side_ = Second;
  depth_ = 0;
  move_ms_ = 0;
}

void CecpEngine::user_move(const std::string& text) {
  std::string why;
  const Move m = wire_->parse_move(*position_, text, why);
  if (!m) {
    // parse_move quotes the text; CECP's form names the reason and then the move as sent.
    const std::string quoted = palace::quote(text) + " ";
    if (why.rfind(quoted, 0) == 0) why.erase(0, quoted.size());
    return say("Illegal move (" + why + "): " + echo(text));
  }
  position_->do_move(m);
  if (!force_ && position_->side_to_move() == engine_side_) think();
}

void CecpEngine::take_back(int plies) {
  if (position_->plies_recorded() < plies) return complain("no move to take back");
  for (int i = 0; i < plies; ++i) position_->undo_move();
}

void CecpEngine::think() {
  search::Limits limits;
  const Side us = position_->side_to_move();
  limits.depth = depth_;
  if (move_ms_) {
    limits.movetime_ms = move_ms_;
  } else if (clock_ms_[us]) {
    for (Side s = First; s < SideCount; ++s) {
      limits.time_left_ms[s] = clock_ms_[s];
      limits.increment_ms[s] = increment_ms_;
    }
    if (moves_per_session_)
      limits.moves_to_go = moves_per_session_ - (position_->fullmove_number() - 1) % moves_per_session_;
  } else if (!depth_) {
    limits.movetime_ms = 1000;  // no limit given: a second a move rather than thinking for ever
  }
  start_search(limits);
}

void CecpEngine::drop_search() {
  discard_ = true;
  finish_search();
  discard_ = false;
}

// Played on the engine's own board before it is announced: the GUI may answer at once. Every
// command that reads the board ends this thread first, so the board is the thread's meanwhile.
void CecpEngine::answer(const Position& root, Move best) {
  if (discard_) return;
  if (!best) return say("resign");
  const std::string text = wire_->move(root, best);
  position_->do_move(best);
  say("move " + text);
}

// XBoard's thinking line: depth, score in centipawns, time in centiseconds, nodes, the line.
void CecpEngine::report(const Position& root, const search::Report& r) {
  if (!post_) return;
  const int score = r.mate_in ? (r.mate_in > 0 ? 100000 - r.mate_in : -100000 - r.mate_in) : r.score_cp;
  say(std::to_string(r.depth) + " " + std::to_string(score) + " " + std::to_string(r.time_ms / 10) + " " +
      std::to_string(r.nodes) + " " + line_of(root, r.pv));
}

}  // namespace palace::protocol
