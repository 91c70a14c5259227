// What every engine protocol Palace speaks (UCI, USI, UCCI, CECP) has in common: the variant in
// play and the ones a GUI may pick, the position, the search in its own thread, reading lines and
// answering bad input with one line. Each protocol is a small dialect on top (protocol/uci.h,
// usi.h, ucci.h, cecp.h): its words, its notation (WireStyle) and the forms of its answers.
// Lines go out through a function, so that tests drive a dialect directly and the CLI over stdio.
#pragma once

#include <atomic>
#include <chrono>
#include <functional>
#include <istream>
#include <memory>
#include <mutex>
#include <optional>
#include <sstream>
#include <string>
#include <thread>
#include <vector>

#include "compiler/variant.h"
#include "notation/wire.h"
#include "position/position.h"
#include "search/search.h"

namespace palace::protocol {

struct SessionConfig {
  std::string variants_dir;     // a GUI may pick any variant file found here
  std::string default_variant;  // the file played until a GUI picks another; it answers to its name first
};

// A `go` keyword and what its number sets; a word without `set` takes no number and is ignored.
struct GoWord {
  const char* word;
  std::function<void(search::Limits&, Side mover, int value)> set;
};

// The largest number a `go` word takes: 11 days in milliseconds, a billion nodes.
constexpr long long MaxGoNumber = 1'000'000'000;

// A limit of 0 (depth, nodes, movetime, mate) asks for the least search there is, one that
// still finds a move: a zero in Limits would mean no limit at all, an engine that never answers.
inline int least_one(int n) { return n > 0 ? n : 1; }

class Session {
 public:
  // Receives each line the engine says, without its newline, one call at a time.
  using Sender = std::function<void(const std::string&)>;

  Session(const Session&) = delete;
  Session& operator=(const Session&) = delete;

  // Answers one line of input. Returns false once the GUI said quit.
  bool handle(const std::string& line);
  // Answers lines until quit or the end of input. At the end of input a bounded search or perft
  // gets EndOfInputGrace to finish, so that a script piped in gets its answer, then is stopped (a
  // search answers its best move so far); an infinite one is stopped at once.
  void run(std::istream& in);
  static constexpr std::chrono::seconds EndOfInputGrace{5};

 protected:
  // Loads the default variant; throws RuleError when it does not load.
  Session(SessionConfig config, Sender send, WireStyle style);
  // A dialect's destructor calls finish_search(): the search thread calls back into the dialect.
  virtual ~Session() = default;

  // The dialect's commands. `command` is the line's first word, `words` the rest. False on quit.
  virtual bool dispatch(const std::string& command, std::istringstream& words) = 0;
  // Bad input in the protocol's form, one line ("info string ...", "Error (...): ...").
  virtual void complain(const std::string& why) = 0;
  // A line over the length limit, skipped (`start` is its beginning): complain(why), by default.
  virtual void refuse_overlong(const std::string& start, const std::string& why);
  // The search's answer, said from the search thread: a null move when there is none to play.
  virtual void answer(const Position& root, Move best) = 0;
  // A completed iteration, said from the search thread.
  virtual void report(const Position& root, const search::Report& report);

  // Commands every dialect answers alike; false when `command` is none of them.
  bool common(const std::string& command);

  // The catalogue: a variant's file by its UCI name or, with `xboard`, by its XBoard name.
  std::optional<std::string> variant_file(const std::string& name, bool xboard = false) const;
  std::string known_variants(bool xboard = false) const;  // "chess, shogi, ..."
  std::string variant_choices() const;                    // " var chess var shogi ...", for a combo option
  void use_variant(const std::string& file);              // throws RuleError; stops the search first

  // Options shared by the UCI-like dialects; each answers its own complaint when the value is bad.
  void set_variant_option(const std::string& name);
  void set_variant_file_option(const std::string& file);
  void set_hash_option(const std::string& value);
  static constexpr int MaxHashMb = 4096;

  // `setoption name NAME [value VALUE]`: false, having said why, when it is not of that form.
  bool read_option(std::istringstream& words, std::string& name, std::string& value);
  // `position startpos|KEYWORD TEXT [moves M...]`, KEYWORD being the protocol's fen or sfen.
  void position_command(std::istringstream& words, const std::string& keyword);
  // Sets the position from a position in the protocol's form (`text`, empty: the set-up) and moves
  // in its notation; on any error says why and changes nothing. True when it was set.
  bool set_position(const std::string& text, const std::vector<std::string>& moves);
  // Reads a `go` line by the dialect's words (plus infinite, ponder, perft); nullopt, having said
  // why, when it is bad or was a perft, which it answers at once.
  std::optional<search::Limits> read_go(std::istringstream& words, const std::vector<GoWord>& table);
  void start_search(const search::Limits& limits);
  void finish_search();  // stops the search thread, if any, and waits for its answer
  bool searching() const { return searching_; }
  void perft(int depth);  // starts the count on the search thread, answered like a search

  void say(const std::string& line);
  std::string line_of(const Position& root, const std::vector<Move>& moves) const;  // moves in wire notation

  SessionConfig config_;
  std::string variant_file_;  // the file variant_ came from
  std::shared_ptr<const Variant> variant_;
  std::unique_ptr<WireNotation> wire_;
  std::unique_ptr<Position> position_;
  std::unique_ptr<search::Searcher> searcher_;
  std::size_t hash_mb_ = 16;

 private:

  Sender send_;
  WireStyle style_;
  std::mutex send_mutex_;
  std::vector<WireEntry> catalogue_;  // sorted by UCI name
  std::thread search_thread_;
  std::atomic<bool> searching_ = false;  // set by start_search, cleared by the thread as it answers
  bool infinite_ = false;                 // the running search waits for stop
  bool counting_ = false;                 // the thread runs a perft, not a search
  std::atomic<bool> perft_stop_ = false;  // asks a running perft to give up

  // Says each root move's count and returns the total; throws HookInterrupted when stopped.
  std::uint64_t count_perft(Position& pos, int depth);
};

// The rest of the line, from the stream's current place, without the leading space.
std::string rest_of(std::istringstream& words);
// A non-negative number of up to 15 digits, read as the next word; nullopt when it is none.
std::optional<long long> read_count(std::istringstream& words);

}  // namespace palace::protocol
