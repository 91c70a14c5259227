#include "match/process.h"

#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>

#include "core/text.h"
#include "match/match_error.h"

extern char** environ;

namespace palace::match {

Process::Process(const std::vector<std::string>& argv) {
  if (argv.empty()) throw MatchError("an engine needs a command");
  int in[2], out[2];
  if (pipe2(in, O_CLOEXEC) != 0) throw MatchError("cannot make a pipe: " + std::string(std::strerror(errno)));
  if (pipe2(out, O_CLOEXEC) != 0) {
    close(in[0]);
    close(in[1]);
    throw MatchError("cannot make a pipe: " + std::string(std::strerror(errno)));
  }
  posix_spawn_file_actions_t actions;
  posix_spawn_file_actions_init(&actions);
  posix_spawn_file_actions_adddup2(&actions, in[0], STDIN_FILENO);
  posix_spawn_file_actions_adddup2(&actions, out[1], STDOUT_FILENO);
  std::vector<char*> args;
  for (const auto& a : argv) args.push_back(const_cast<char*>(a.c_str()));
  args.push_back(nullptr);
  // The engine leads a process group of its own, so that whatever it starts goes with it.
  posix_spawnattr_t attributes;
  posix_spawnattr_init(&attributes);
  posix_spawnattr_setflags(&attributes, POSIX_SPAWN_SETPGROUP);
  posix_spawnattr_setpgroup(&attributes, 0);
  const int failed = posix_spawnp(&pid_, args[0], &actions, &attributes, args.data(), environ);
  posix_spawnattr_destroy(&attributes);
  posix_spawn_file_actions_destroy(&actions);
  close(in[0]);
  close(out[1]);
  to_child_ = in[1];
  from_child_ = out[0];
  if (failed) {
    close(to_child_);
    close(from_child_);
    pid_ = -1;
    throw MatchError("cannot start engine " + palace::quote(argv[0], 100) + ": " + std::strerror(failed));
  }
  // A child that dies must not kill the referee with SIGPIPE on the next write.
  signal(SIGPIPE, SIG_IGN);
}

Process::~Process() {
  if (to_child_ >= 0) close(to_child_);
  if (from_child_ >= 0) close(from_child_);
  if (pid_ <= 0) return;
  // Closing stdin asks a UCI engine to leave; one that does not within a moment is killed. Either
  // way its group goes too: a child it left behind would outlive the match.
  for (int i = 0; i < 50 && !exited_; ++i) {
    exited_ = waitpid(pid_, nullptr, WNOHANG) == pid_;
    if (!exited_) usleep(2000);
  }
  kill(-pid_, SIGKILL);
  if (!exited_) waitpid(pid_, nullptr, 0);
}

// An engine that exited while a child of its own holds its stdout never closes the pipe: it counts
// as closed once the engine is gone, and the rest of its group is killed.
bool Process::engine_gone() {
  if (!exited_) exited_ = waitpid(pid_, nullptr, WNOHANG) == pid_;
  if (exited_) kill(-pid_, SIGKILL);
  return exited_;
}

bool Process::send(const std::string& line) {
  const std::string text = line + "\n";
  std::size_t done = 0;
  while (done < text.size()) {
    const ssize_t n = write(to_child_, text.data() + done, text.size() - done);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) return false;
    done += std::size_t(n);
  }
  return true;
}

std::optional<std::string> Process::receive(std::chrono::steady_clock::time_point deadline) {
  for (;;) {
    if (const auto newline = buffer_.find('\n'); newline != std::string::npos) {
      std::string line = buffer_.substr(0, newline);
      buffer_.erase(0, newline + 1);
      if (!line.empty() && line.back() == '\r') line.pop_back();
      return line;
    }
    // A line longer than any UCI line is a flood: the engine is treated as crashed.
    if (buffer_.size() > MaxLineBytes) {
      buffer_.clear();
      eof_ = true;
      kill(-pid_, SIGKILL);
    }
    if (eof_) return std::nullopt;
    const auto left = std::chrono::duration_cast<std::chrono::milliseconds>(deadline - std::chrono::steady_clock::now());
    if (left.count() <= 0) return std::nullopt;
    pollfd fd{from_child_, POLLIN, 0};
    const int ready = poll(&fd, 1, int(std::min<long long>(left.count(), 100)));
    if (ready < 0 && errno != EINTR) return std::nullopt;
    if (ready == 0 && engine_gone()) eof_ = true;
    if (ready <= 0) continue;
    char chunk[4096];
    const ssize_t n = read(from_child_, chunk, sizeof chunk);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) {
      eof_ = true;
      continue;
    }
    buffer_.append(chunk, std::size_t(n));
  }
}

}  // namespace palace::match
