// A protocol engine (protocol/session.h) and everything it said, driven as a GUI drives it: after a
// command that starts a search, tell() waits for the search's answer, whatever the protocol.
#pragma once

#include <chrono>
#include <mutex>
#include <string>
#include <thread>
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
          std::lock_guard lock(mutex_);
          lines_.push_back(line);
        }) {}

  // The lines the engine said in answer to `line`; when `searches`, up to the search's answer (or
  // the first line, when that refuses the search).
  std::vector<std::string> tell(const std::string& line, bool searches) {
    const std::size_t before = said().size();
    engine_.handle(line);
    const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(60);
    for (;;) {
      const auto all = said();
      const std::vector<std::string> answer(all.begin() + std::ptrdiff_t(before), all.end());
      const bool refused = !answer.empty() && (answer.front().rfind("info string", 0) == 0 ||
                                                answer.front().rfind("Error", 0) == 0 ||
                                                answer.front().rfind("Illegal", 0) == 0);
      if (!searches || refused || is_search_answer(last(answer)) || std::chrono::steady_clock::now() > deadline)
        return answer;
      std::this_thread::sleep_for(std::chrono::milliseconds(2));
    }
  }

  std::vector<std::string> said() {
    std::lock_guard lock(mutex_);
    return lines_;
  }

  Engine& engine() { return engine_; }

 private:
  std::mutex mutex_;
  std::vector<std::string> lines_;
  Engine engine_;
};

}  // namespace palace::test
