// Where `palace serve` keeps its connections until a request has arrived whole. cpp-httplib (0.11,
// Debian's) gives each connection a thread of its pool from accept to close, and its read timeout
// is per read: a client sending one header byte every 4 s kept its thread for as long as it liked,
// and 260 of them held all 256 threads, so no one else was answered (issue 53). Here one thread
// watches every connection waiting for a request (epoll), reads what comes, and hands a
// connection to a worker only when its request head and body are all there; a connection idle
// between requests goes back to waiting. A request must arrive whole within its deadline, and
// connections are capped in all and per client address. Workers then never wait on a client's
// bytes, only on writing the answer.
#pragma once

#include <chrono>
#include <condition_variable>
#include <cstddef>
#include <deque>
#include <functional>
#include <map>
#include <mutex>
#include <string>
#include <string_view>
#include <thread>
#include <unordered_map>
#include <vector>

namespace palace::server {

struct GateLimits {
  std::size_t workers = 256;              // requests served at once
  std::size_t max_connections = 2048;     // open at once, waiting or served
  std::size_t max_per_client = 512;       // of those, from one address
  std::chrono::milliseconds request_deadline = std::chrono::seconds(10);  // for a request head to arrive
  std::size_t body_bytes_per_second = 64 << 10;  // a body's share: its deadline grows by its length at this rate
  std::size_t max_head_bytes = 64 << 10;
  std::size_t max_body_bytes = 2 << 20;
  std::size_t max_waiting_bytes = 64 << 20;  // read and not yet handed to a worker, all connections
};

// A connection and the bytes read from it that no request has taken yet.
struct Connection {
  int fd = -1;
  std::string address;  // the client's, as text
  int port = 0;
  std::string pending;
  std::size_t taken = 0;  // of `pending`, read by the request being served
  int served = 0;         // requests answered on it
};

// What the bytes received so far on a connection hold, as the gate sees them.
struct RequestScan {
  enum Outcome { Incomplete, Whole, HeadTooLarge, BodyTooLarge, BadLength } outcome = Incomplete;
  std::size_t head_bytes = 0;  // with its blank line, once it is whole
  std::size_t body_bytes = 0;  // as Content-Length says
  bool expects_continue = false;  // Expect: 100-continue, body not there yet
};
RequestScan scan_request(std::string_view bytes, const GateLimits& limits);

class ConnectionGate {
 public:
  // `serve` answers the request at the front of conn.pending (reading it through conn.taken) and
  // says whether the connection may carry another.
  using Serve = std::function<bool(Connection&)>;
  ConnectionGate(GateLimits limits, Serve serve);
  ~ConnectionGate();  // stop()
  ConnectionGate(const ConnectionGate&) = delete;
  ConnectionGate& operator=(const ConnectionGate&) = delete;

  void start();          // the watcher and the workers
  void admit(int fd);    // a new connection, from the accepting thread: the gate owns it now
  void stop();           // closes the waiting connections, waits for the requests being served
  const GateLimits& limits() const { return limits_; }

 private:
  struct Waiting {
    Connection conn;
    std::chrono::steady_clock::time_point started, deadline;
    bool continued = false;  // 100 Continue sent
    std::size_t draining = 0;  // bytes of a body too large still to read and drop before refusing it
  };
  // All but start, stop, admit and the threads' loops are called with mutex_ held.
  void watch();
  void work();
  void enter(Connection conn);             // into the waiting room
  void wait(Connection conn);              // back into it, from a worker
  void on_readable(int fd);
  void hand_over(int fd);                  // to a worker
  Connection take_waiting(int fd);         // out of the waiting room
  void drop_waiting(int fd);               // and close it
  void close_locked(Connection& conn);
  void refuse(Connection& conn, int status, const std::string& why);  // a one-line answer, then close

  GateLimits limits_;
  Serve serve_;
  int epoll_ = -1, wake_ = -1;
  std::mutex mutex_;
  bool running_ = false, stopping_ = false;
  std::unordered_map<int, Waiting> waiting_;
  std::size_t waiting_bytes_ = 0;
  std::map<std::string, std::size_t> per_client_;  // open connections by address
  std::size_t open_ = 0;
  std::deque<Connection> ready_;
  std::condition_variable work_ready_;
  std::thread watcher_;
  std::vector<std::thread> workers_;
};

}  // namespace palace::server
