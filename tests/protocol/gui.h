// A protocol engine (protocol/session.h) and everything it said, driven as a GUI drives it: after a
// command that starts a search, tell() waits for the search's answer, whatever the protocol, and
// returns the moment that line is said, as a client reading the engine's pipe would.
#pragma once

#include <chrono>
#include <condition_variable>
#include <mutex>
#include <string>
#include <vector>

#include "test_support.h"

namespace palace::test {

inline std::string last(const std::vector<std::string>& lines) { return lines.empty() ? "" : lines.back(); }

// The lines that end a search (or a perft, which runs on the search thread) in any of the protocols.
inline bool is_search_answer(const std::string& line) {
  for (const char* start : {"bestmove", "nobestmove", "move ", "resign", "Nodes searched"})
    if (line.rfind(start, 0) == 0) return true;
  return false;
}

template <class Engine>
class Gui {
 public:
  // An engine started with variants/`variant`.yaml.
  explicit Gui(const std::string& variant) : Gui(File{variant_path(variant)}) {}
  // An engine started with the variant file at `file.path`.
  struct File {
    std::string path;
  };
  explicit Gui(const File& file)
      : engine_({source_path("variants"), file.path}, [this](const std::string& line) {
          {
            std::lock_guard lock(mutex_);
            lines_.push_back(line);
          }
          said_.notify_all();
        }) {}

  // The lines the engine said in answer to `line`; when `searches`, up to the search's answer (or
  // the first line, when that refuses the search).
  std::vector<std::string> tell(const std::string& line, bool searches) {
    const std::size_t before = said().size();
    engine_.handle(line);
    const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(60);
    std::unique_lock lock(mutex_);
    const auto answered = [&] {
      if (!searches) return true;
      const std::vector<std::string> answer(lines_.begin() + std::ptrdiff_t(before), lines_.end());
      // A search a hook stopped says why and then answers; any other first line of its own is a refusal.
      const bool refused = !answer.empty() && ((answer.front().rfind("info string", 0) == 0 &&
                                                 answer.front().rfind("info string search stopped", 0) != 0) ||
                                                answer.front().rfind("Error", 0) == 0 ||
                                                answer.front().rfind("Illegal", 0) == 0);
      return refused || is_search_answer(last(answer));
    };
    said_.wait_until(lock, deadline, answered);
    return std::vector<std::string>(lines_.begin() + std::ptrdiff_t(before), lines_.end());
  }

  std::vector<std::string> said() {
    std::lock_guard lock(mutex_);
    return lines_;
  }

  Engine& engine() { return engine_; }

 private:
  std::mutex mutex_;
  std::condition_variable said_;
  std::vector<std::string> lines_;
  Engine engine_;
};

}  // namespace palace::test
