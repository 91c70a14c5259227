// The UCI protocol, reading lines and sending lines through a function, so that tests drive it
// directly and `palace uci` over stdin and stdout. The search runs in its own thread; the reader keeps answering `isready` and
// `stop` meanwhile. Bad input is answered by one `info string` line and changes nothing.
#pragma once

#include <atomic>
#include <chrono>
#include <functional>
#include <istream>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <thread>

#include "compiler/variant.h"
#include "notation/wire.h"
#include "position/position.h"
#include "search/search.h"

namespace palace::protocol {

struct UciConfig {
  std::string variants_dir;     // UCI_Variant offers every variant file found here
  std::string default_variant;  // the file played until a GUI picks another
};

class UciEngine {
 public:
  // Receives each line the engine says, without its newline, one call at a time.
  using Sender = std::function<void(const std::string&)>;

  // Loads the default variant; throws RuleError when it does not load.
  UciEngine(UciConfig config, Sender send);
  ~UciEngine();  // stops a running search

  // Answers one line of input. Returns false once the GUI said `quit`.
  bool handle(const std::string& line);
  // Answers lines until `quit` or the end of input. At the end of input a bounded search or perft
  // gets EndOfInputGrace to finish, so that a script piped in gets its bestmove, then is stopped
  // (a search answers its best move so far); an infinite one is stopped at once.
  void run(std::istream& in);
  static constexpr std::chrono::seconds EndOfInputGrace{5};

 private:
  void identify();
  void set_option(std::istringstream& words);
  void set_position(std::istringstream& words);
  void go(std::istringstream& words);
  bool dispatch(const std::string& line);  // handle(), errors left to it
  void perft(int depth);                       // starts the count on the search thread
  void count_perft(Position& pos, int depth);  // throws HookInterrupted when stopped
  void use_variant(const std::string& file);
  void finish_search();  // stops the search thread, if any, and waits for its bestmove
  void say(const std::string& line);
  void info(const Position& root, const search::Report& report);
  std::string wire_line(const Position& root, const std::vector<Move>& moves) const;

  UciConfig config_;
  Sender send_;
  std::mutex send_mutex_;
  std::map<std::string, std::string> catalogue_;  // UCI_Variant name -> variant file
  std::string variant_file_;
  std::shared_ptr<const Variant> variant_;
  std::unique_ptr<WireNotation> wire_;
  std::unique_ptr<Position> position_;
  std::unique_ptr<search::Searcher> searcher_;
  std::size_t hash_mb_ = 16;
  std::thread search_thread_;
  std::atomic<bool> searching_ = false;  // set by go, cleared by the thread as it answers bestmove
  bool infinite_ = false;                 // the running search waits for stop
  bool counting_ = false;                 // the thread runs a perft, not a search
  std::atomic<bool> perft_stop_ = false;  // asks a running perft to give up
};

}  // namespace palace::protocol
