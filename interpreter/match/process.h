// A child process spoken to line by line over its stdin and stdout, with deadlines: an external
// engine that hangs or dies must cost the referee one game, never the match.
#pragma once

#include <sys/types.h>

#include <chrono>
#include <cstddef>
#include <optional>
#include <string>
#include <vector>

namespace palace::match {

class Process {
 public:
  // Starts `argv[0]` (looked up in PATH) with stdin and stdout as pipes, leading a process group of
  // its own that is killed with it; stderr is left alone.
  // Throws MatchError when it cannot start.
  explicit Process(const std::vector<std::string>& argv);
  ~Process();  // closes the pipes, then kills and reaps the child if it has not exited
  Process(const Process&) = delete;
  Process& operator=(const Process&) = delete;

  // False when the child no longer reads (it exited or closed its stdin).
  bool send(const std::string& line);
  // The next line, or nullopt at the deadline or when the child closed its stdout, exited, or sent
  // a line over MaxLineBytes.
  std::optional<std::string> receive(std::chrono::steady_clock::time_point deadline);
  bool closed() const { return eof_; }

 private:
  static constexpr std::size_t MaxLineBytes = 1u << 20;

  bool engine_gone();  // reaps the engine if it exited

  pid_t pid_ = -1;
  bool exited_ = false;  // reaped
  int to_child_ = -1, from_child_ = -1;
  std::string buffer_;
  bool eof_ = false;
};

}  // namespace palace::match
