// `palace serve`: a JSON API over the game layer and the board page, on one HTTP server
// (cpp-httplib). Requests run on the library's thread pool: compiled variants are shared
// read-only, each game has its own Game behind its own lock, and every change is written to the
// store before it is answered. The API is listed in web/README.md.
#pragma once

#include <atomic>
#include <chrono>
#include <cstddef>
#include <cstdint>
#include <filesystem>
#include <functional>
#include <memory>
#include <string>
#include <string_view>

namespace palace::server {

// The biggest request body: room for an uploaded variant (MaxUploadBytes) in its JSON envelope.
constexpr std::size_t MaxBodyBytes = std::size_t(2) << 20;

struct ServerOptions {
  std::filesystem::path variants_dir;  // the shipped variants, one YAML file each
  std::string default_variant;         // its file stem: the game the page starts with
  std::filesystem::path db_file;       // created on first use
  std::filesystem::path web_dir;       // the built page; empty serves the API alone
  // Games on variants with runtime hooks each hold a Lua interpreter (up to 16 MiB): at most this
  // many stay in memory, idle ones read back from the store when asked for again.
  std::size_t hooked_games_in_memory = 32;
  std::size_t max_games = 100'000;   // the store's games, past which new ones are refused (507)
  std::size_t max_uploads = 1'000;   // and its uploaded variants
  // The scratch folder uploads are written to for the loader: past this, the folders of uploads
  // no game in memory plays are removed (written again when asked for), then uploads are refused.
  std::size_t max_scratch_mb = 256;
  // Requests on uploaded variants and drafts (their hooks are anyone's code) served at once, each
  // at the lowest CPU priority; the rest wait up to 5 s, then are refused (429).
  std::size_t upload_workers = 2;
  // How long a request in that lane may spend in its variant's hooks (an engine search keeps its
  // own time): past it, the hook is interrupted, the game left as it was, and the answer is 503.
  std::chrono::milliseconds hook_deadline = std::chrono::seconds(10);
  // Connections open at once, and from one client address (a connection waiting for its request
  // costs a file descriptor and what it sent, not a thread); past them, new ones are answered 503.
  std::size_t max_connections = 2048;
  std::size_t max_connections_per_client = 512;
  // How long a request's head may take to arrive (its body has 1 s more per 64 KiB): past it, 408.
  std::chrono::milliseconds request_deadline = std::chrono::seconds(10);
  // An upload no game was made or changed on for this long is removed, with its games.
  std::chrono::milliseconds upload_expiry = std::chrono::days(30);
  // Milliseconds since the epoch, for the games' clocks (server/table.h): tests bring their own.
  std::function<std::int64_t()> now = nullptr;  // none: the system's clock
};

class Server {
 public:
  explicit Server(const ServerOptions& options);  // opens the store; throws Error
  ~Server();

  // Binds to host:port, port 0 picking a free one; returns the port. Throws Error when it cannot.
  int bind(const std::string& host, int port);
  void listen();  // serves until stop()
  void stop();    // from any thread

  // Answers one HTTP/1.1 request given as its bytes with the answer's bytes, as listen() would on
  // a connection, on the calling thread: for tests and fuzzing without a socket. Before bind() the
  // server is 127.0.0.1:0 (the Host a request must name).
  std::string answer(std::string_view request);

 private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
  // From bind() until listen() returns: a stop() in that time waits for the listening to start, as
  // one that came before it would otherwise be lost and listen() never return.
  std::atomic<bool> bound_ = false;
};

}  // namespace palace::server
