#include "server/connection_gate.h"

#include <arpa/inet.h>
#include <fcntl.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <sys/epoll.h>
#include <sys/eventfd.h>
#include <sys/socket.h>
#include <unistd.h>

#include <algorithm>
#include <cctype>
#include <cerrno>
#include <cstring>
#include <nlohmann/json.hpp>
#include <stdexcept>

namespace palace::server {

namespace {

using Clock = std::chrono::steady_clock;

std::string lower(std::string_view text) {
  std::string out(text);
  for (char& c : out) c = char(std::tolower((unsigned char)c));
  return out;
}

std::string_view trimmed(std::string_view text) {
  while (!text.empty() && (text.front() == ' ' || text.front() == '\t')) text.remove_prefix(1);
  while (!text.empty() && (text.back() == ' ' || text.back() == '\t')) text.remove_suffix(1);
  return text;
}

const char* reason(int status) {
  switch (status) {
    case 400: return "Bad Request";
    case 408: return "Request Timeout";
    case 413: return "Payload Too Large";
    case 431: return "Request Header Fields Too Large";
    default: return "Service Unavailable";
  }
}

// Best effort: a client that does not read its refusal only misses it.
void send_all(int fd, std::string_view bytes) {
  while (!bytes.empty()) {
    const ssize_t n = ::send(fd, bytes.data(), bytes.size(), MSG_DONTWAIT | MSG_NOSIGNAL);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) return;
    bytes.remove_prefix(std::size_t(n));
  }
}

}  // namespace

RequestScan scan_request(std::string_view bytes, const GateLimits& limits) {
  RequestScan scan;
  const std::size_t end = bytes.find("\r\n\r\n");
  if (end == std::string_view::npos || end + 4 > limits.max_head_bytes) {
    if (bytes.size() >= limits.max_head_bytes) scan.outcome = RequestScan::HeadTooLarge;
    return scan;
  }
  scan.head_bytes = end + 4;
  bool expect = false, length_seen = false;
  // The request line first, then one header a line, as cpp-httplib reads them: the first
  // Content-Length counts. A body sent chunked or compressed is refused by the server before any of
  // it is read (server.cpp, the same-origin policy): such a request is whole with its head.
  std::size_t at = bytes.find("\r\n") + 2;
  while (at < end + 2) {
    const std::size_t eol = bytes.find("\r\n", at);
    const std::string_view line = bytes.substr(at, eol - at);
    at = eol + 2;
    const std::size_t colon = line.find(':');
    if (colon == std::string_view::npos) continue;
    const std::string name = lower(trimmed(line.substr(0, colon)));
    const std::string_view value = trimmed(line.substr(colon + 1));
    if (name == "transfer-encoding" || (name == "content-encoding" && !value.empty() && lower(value) != "identity")) {
      scan.outcome = RequestScan::Whole;
      return scan;
    }
    if (name == "expect" && lower(value) == "100-continue") expect = true;
    if (name == "content-length" && !length_seen) {
      length_seen = true;
      // cpp-httplib reads a length as strtoull would ("5x" as 5, a huge one as the largest): the
      // gate takes digits alone, so that the two never disagree on where a body ends.
      if (value.empty() || !std::all_of(value.begin(), value.end(), [](char c) { return c >= '0' && c <= '9'; })) {
        scan.outcome = RequestScan::BadLength;
        return scan;
      }
      scan.body_bytes = value.size() > 18 ? std::size_t(-1) : std::stoull(std::string(value));
    }
  }
  if (scan.body_bytes > limits.max_body_bytes) scan.outcome = RequestScan::BodyTooLarge;
  else if (bytes.size() - scan.head_bytes >= scan.body_bytes) scan.outcome = RequestScan::Whole;
  else scan.expects_continue = expect;
  return scan;
}

ConnectionGate::ConnectionGate(GateLimits limits, Serve serve) : limits_(limits), serve_(std::move(serve)) {}

ConnectionGate::~ConnectionGate() { stop(); }

void ConnectionGate::start() {
  const std::lock_guard lock(mutex_);
  if (running_) return;
  epoll_ = ::epoll_create1(EPOLL_CLOEXEC);
  wake_ = ::eventfd(0, EFD_CLOEXEC | EFD_NONBLOCK);
  if (epoll_ < 0 || wake_ < 0) throw std::runtime_error(std::string("cannot watch connections: ") + std::strerror(errno));
  epoll_event event{};
  event.events = EPOLLIN;
  event.data.fd = wake_;
  ::epoll_ctl(epoll_, EPOLL_CTL_ADD, wake_, &event);
  running_ = true;
  stopping_ = false;
  watcher_ = std::thread([this] { watch(); });
  for (std::size_t i = 0; i < std::max<std::size_t>(limits_.workers, 1); ++i) workers_.emplace_back([this] { work(); });
}

void ConnectionGate::stop() {
  {
    const std::lock_guard lock(mutex_);
    if (!running_) return;
    stopping_ = true;
    std::vector<int> fds;
    for (const auto& [fd, waiting] : waiting_) fds.push_back(fd);
    for (const int fd : fds) drop_waiting(fd);
  }
  const std::uint64_t one = 1;
  [[maybe_unused]] const ssize_t written = ::write(wake_, &one, sizeof one);
  watcher_.join();
  work_ready_.notify_all();
  for (std::thread& worker : workers_) worker.join();  // each serves what was handed over first
  workers_.clear();
  const std::lock_guard lock(mutex_);
  ::close(epoll_);
  ::close(wake_);
  running_ = false;
}

void ConnectionGate::admit(int fd) {
  Connection conn;
  conn.fd = fd;
  sockaddr_storage peer{};
  socklen_t size = sizeof peer;
  char text[INET6_ADDRSTRLEN] = "?";
  if (::getpeername(fd, reinterpret_cast<sockaddr*>(&peer), &size) == 0) {
    if (peer.ss_family == AF_INET) {
      const auto* in = reinterpret_cast<const sockaddr_in*>(&peer);
      ::inet_ntop(AF_INET, &in->sin_addr, text, sizeof text);
      conn.port = ntohs(in->sin_port);
    } else if (peer.ss_family == AF_INET6) {
      const auto* in = reinterpret_cast<const sockaddr_in6*>(&peer);
      ::inet_ntop(AF_INET6, &in->sin6_addr, text, sizeof text);
      conn.port = ntohs(in->sin6_port);
    }
  }
  conn.address = text;
  ::fcntl(fd, F_SETFL, ::fcntl(fd, F_GETFL) | O_NONBLOCK);
  const int on = 1;  // an answer is sent in one piece: nothing is gained by holding its end back
  ::setsockopt(fd, IPPROTO_TCP, TCP_NODELAY, &on, sizeof on);
  const std::lock_guard lock(mutex_);
  if (!running_ || stopping_) {
    ::close(fd);
    return;
  }
  ++open_;
  const std::size_t from_client = ++per_client_[conn.address];
  if (open_ > limits_.max_connections)
    return refuse(conn, 503, "the server has its most connections open (" + std::to_string(limits_.max_connections) + ")");
  if (from_client > limits_.max_per_client)
    return refuse(conn, 503, "the most connections one address may open are open from " + conn.address + " (" +
                                 std::to_string(limits_.max_per_client) + ")");
  enter(std::move(conn));
}

void ConnectionGate::enter(Connection conn) {
  const int fd = conn.fd;
  waiting_bytes_ += conn.pending.size();
  Waiting& waiting = waiting_[fd];
  waiting.conn = std::move(conn);
  waiting.started = Clock::now();
  waiting.deadline = waiting.started + limits_.request_deadline;
  epoll_event event{};
  event.events = EPOLLIN | EPOLLRDHUP;
  event.data.fd = fd;
  if (::epoll_ctl(epoll_, EPOLL_CTL_ADD, fd, &event) != 0) drop_waiting(fd);
}

void ConnectionGate::wait(Connection conn) {
  const std::lock_guard lock(mutex_);
  if (stopping_) return close_locked(conn);
  enter(std::move(conn));
}

void ConnectionGate::watch() {
  epoll_event events[64];
  auto scanned = Clock::now();
  for (;;) {
    const int n = ::epoll_wait(epoll_, events, 64, 100);
    const std::lock_guard lock(mutex_);
    if (stopping_) return;
    for (int i = 0; i < n; ++i) {
      if (events[i].data.fd == wake_) continue;
      on_readable(events[i].data.fd);
    }
    const auto now = Clock::now();
    if (now - scanned < std::chrono::milliseconds(100)) continue;
    scanned = now;
    std::vector<int> late;
    for (const auto& [fd, waiting] : waiting_)
      if (waiting.deadline < now) late.push_back(fd);
    for (const int fd : late) {
      Waiting& waiting = waiting_.at(fd);
      if (waiting.conn.pending.empty() && waiting.conn.served > 0) {
        drop_waiting(fd);  // kept alive but asked nothing more: closed without a word
        continue;
      }
      Connection conn = take_waiting(fd);
      refuse(conn, 408, "the request did not arrive whole in time (" + std::to_string(limits_.request_deadline.count()) +
                            " ms for its head, and " + std::to_string(limits_.body_bytes_per_second >> 10) + " KiB/s for its body)");
    }
  }
}

void ConnectionGate::on_readable(int fd) {
  const auto found = waiting_.find(fd);
  if (found == waiting_.end()) return;
  Waiting& waiting = found->second;
  std::string& pending = waiting.conn.pending;
  char buffer[1 << 16];
  bool closed = false;
  while (pending.size() < limits_.max_head_bytes + limits_.max_body_bytes) {
    const ssize_t n = ::recv(fd, buffer, sizeof buffer, MSG_DONTWAIT);
    if (n > 0 && waiting.draining > 0) {
      waiting.draining -= std::min(waiting.draining, std::size_t(n));
      if (waiting.draining > 0) continue;
      Connection conn = take_waiting(fd);
      return refuse(conn, 413, "request body over " + std::to_string(limits_.max_body_bytes) + " bytes");
    }
    if (n > 0) {
      if (waiting_bytes_ + std::size_t(n) > limits_.max_waiting_bytes) {
        Connection conn = take_waiting(fd);
        return refuse(conn, 503, "the server is busy reading other requests; try again shortly");
      }
      pending.append(buffer, std::size_t(n));
      waiting_bytes_ += std::size_t(n);
      continue;
    }
    if (n < 0 && errno == EINTR) continue;
    closed = n == 0 || (errno != EAGAIN && errno != EWOULDBLOCK);
    break;
  }
  const RequestScan scan = scan_request(pending, limits_);
  if (scan.outcome == RequestScan::Whole) return hand_over(fd);  // even half-closed: the answer can still go
  // A body a little too large is read and dropped, so that a client that writes it all before
  // reading is told why; a larger one is refused at once.
  if (scan.outcome == RequestScan::BodyTooLarge && scan.body_bytes <= 2 * limits_.max_body_bytes && !closed) {
    waiting.draining = scan.head_bytes + scan.body_bytes - std::min(pending.size(), scan.head_bytes + scan.body_bytes);
    waiting_bytes_ -= pending.size();
    pending.clear();
    waiting.deadline = waiting.started + limits_.request_deadline +
                       std::chrono::milliseconds(scan.body_bytes * 1000 / std::max<std::size_t>(limits_.body_bytes_per_second, 1));
    if (waiting.draining > 0) return;
  }
  if (scan.outcome != RequestScan::Incomplete) {
    Connection conn = take_waiting(fd);
    if (scan.outcome == RequestScan::BadLength) return refuse(conn, 400, "a Content-Length must be a number of bytes");
    return scan.outcome == RequestScan::HeadTooLarge
               ? refuse(conn, 431, "request head over " + std::to_string(limits_.max_head_bytes) + " bytes")
               : refuse(conn, 413, "request body over " + std::to_string(limits_.max_body_bytes) + " bytes");
  }
  if (closed) return drop_waiting(fd);
  if (scan.head_bytes > 0) {
    waiting.deadline = waiting.started + limits_.request_deadline +
                       std::chrono::milliseconds(scan.body_bytes * 1000 / std::max<std::size_t>(limits_.body_bytes_per_second, 1));
    if (scan.expects_continue && !waiting.continued) {
      // Said here, as the body is read here; cpp-httplib would say it again, so the header goes.
      waiting.continued = true;
      send_all(fd, "HTTP/1.1 100 Continue\r\n\r\n");
      for (std::size_t at = pending.find("\r\n") + 2; at < scan.head_bytes - 2;) {
        const std::size_t eol = pending.find("\r\n", at);
        const std::string_view line = std::string_view(pending).substr(at, eol - at);
        if (const std::size_t colon = line.find(':'); colon != std::string_view::npos && lower(trimmed(line.substr(0, colon))) == "expect") {
          pending.erase(at, eol + 2 - at);
          waiting_bytes_ -= eol + 2 - at;
          break;
        }
        at = eol + 2;
      }
    }
  }
}

void ConnectionGate::hand_over(int fd) {
  ready_.push_back(take_waiting(fd));
  work_ready_.notify_one();
}

Connection ConnectionGate::take_waiting(int fd) {
  const auto found = waiting_.find(fd);
  Connection conn = std::move(found->second.conn);
  waiting_.erase(found);
  waiting_bytes_ -= conn.pending.size();
  ::epoll_ctl(epoll_, EPOLL_CTL_DEL, fd, nullptr);
  return conn;
}

void ConnectionGate::drop_waiting(int fd) {
  Connection conn = take_waiting(fd);
  close_locked(conn);
}

void ConnectionGate::close_locked(Connection& conn) {
  ::shutdown(conn.fd, SHUT_RDWR);
  ::close(conn.fd);
  conn.fd = -1;
  --open_;
  if (const auto client = per_client_.find(conn.address); client != per_client_.end() && --client->second == 0)
    per_client_.erase(client);
}

void ConnectionGate::refuse(Connection& conn, int status, const std::string& why) {
  const std::string body = nlohmann::json{{"error", why}}.dump();
  send_all(conn.fd, "HTTP/1.1 " + std::to_string(status) + " " + reason(status) +
                        "\r\nContent-Type: application/json\r\nX-Content-Type-Options: nosniff\r\nConnection: close\r\n"
                        "Content-Length: " + std::to_string(body.size()) + "\r\n\r\n" + body);
  ::shutdown(conn.fd, SHUT_WR);  // the answer goes before the close
  close_locked(conn);
}

void ConnectionGate::work() {
  for (;;) {
    Connection conn;
    {
      std::unique_lock lock(mutex_);
      work_ready_.wait(lock, [this] { return stopping_ || !ready_.empty(); });
      if (ready_.empty()) return;
      conn = std::move(ready_.front());
      ready_.pop_front();
    }
    for (;;) {
      bool again = false;
      try {
        again = serve_(conn);
      } catch (...) {  // the answer's own handlers catch what a request may throw
      }
      conn.pending.erase(0, conn.taken);
      conn.taken = 0;
      if (again && scan_request(conn.pending, limits_).outcome == RequestScan::Whole) continue;  // sent at once (pipelined)
      if (again) {
        wait(std::move(conn));
      } else {
        const std::lock_guard lock(mutex_);
        close_locked(conn);
      }
      break;
    }
  }
}

}  // namespace palace::server
