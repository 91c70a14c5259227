// `palace serve [--port P] [--db FILE] [--variants DIR]`: the web board and its JSON API on
// 127.0.0.1, games kept in one SQLite file. Stops cleanly on Ctrl-C or SIGTERM.
#include <chrono>
#include <cmath>
#include <csignal>
#include <iostream>
#include <memory>
#include <thread>

#include "cli/commands.h"
#include "server/server.h"

namespace palace::cli {

namespace {

struct ServeOptions {
  int port = 8960;
  std::string db = "palace.db";
  std::string variants;
  server::ServerOptions limits;  // the caps on games and uploads
  double upload_expiry_days = 30;
  int hook_deadline_ms = 10'000;
};

int run_serve(const ServeOptions& o) {
  const std::filesystem::path default_file = default_variant_file("");
  server::ServerOptions options = o.limits;
  options.variants_dir = o.variants.empty() ? default_file.parent_path() : std::filesystem::path(o.variants);
  options.default_variant = default_file.stem().string();
  options.db_file = o.db;
  options.web_dir = PALACE_WEB_DIR;
  options.upload_expiry = std::chrono::milliseconds(std::llround(o.upload_expiry_days * 86'400'000));
  options.hook_deadline = std::chrono::milliseconds(o.hook_deadline_ms);

  // The signals are taken by a thread of their own, which asks the server to stop: stopping is no
  // work for a signal handler.
  sigset_t signals;
  sigemptyset(&signals);
  sigaddset(&signals, SIGINT);
  sigaddset(&signals, SIGTERM);
  pthread_sigmask(SIG_BLOCK, &signals, nullptr);

  server::Server server(options);
  const int port = server.bind("127.0.0.1", o.port);
  std::cout << "Palace serves on http://127.0.0.1:" << port << "/ (games kept in " << o.db << ")" << std::endl;
  std::thread waiter([&] {
    int signal = 0;
    sigwait(&signals, &signal);
    server.stop();
  });
  server.listen();
  pthread_kill(waiter.native_handle(), SIGTERM);  // wakes the waiter when the server stopped by itself
  waiter.join();
  std::cout << "stopped" << std::endl;
  return 0;
}

}  // namespace

void add_serve_command(CLI::App& app, Action& action) {
  auto o = std::make_shared<ServeOptions>();
  CLI::App* cmd = app.add_subcommand("serve", "Serve the web board and its JSON API on 127.0.0.1");
  cmd->add_option("--port", o->port, "the port to listen on (default 8960; 0 picks a free one)")->check(CLI::Range(0, 65535));
  cmd->add_option("--db", o->db, "the SQLite file games are kept in, created on first use (default palace.db)");
  cmd->add_option("--variants", o->variants, "the folder of variant YAML files offered (default: the shipped variants/)");
  cmd->add_option("--max-games", o->limits.max_games, "games kept, past which new ones are refused (default 100000)")
      ->check(CLI::PositiveNumber);
  cmd->add_option("--max-uploads", o->limits.max_uploads, "uploaded variants kept, past which new ones are refused (default 1000)")
      ->check(CLI::PositiveNumber);
  cmd->add_option("--max-scratch-mb", o->limits.max_scratch_mb,
                  "megabytes of uploads written out for the loader; idle ones past this are removed, then uploads "
                  "refused (default 256)")
      ->check(CLI::Range(1, 1 << 20));
  cmd->add_option("--hooked-games-in-memory", o->limits.hooked_games_in_memory,
                  "games on variants with Lua hooks kept in memory; idle ones past this are read back from the store "
                  "when asked for (default 32)")
      ->check(CLI::PositiveNumber);
  cmd->add_option("--upload-workers", o->limits.upload_workers,
                  "requests on uploaded variants or drafts served at once, at the lowest CPU priority; more wait up "
                  "to 5 s, then are refused (default 2)")
      ->check(CLI::Range(1, 64));
  cmd->add_option("--hook-deadline-ms", o->hook_deadline_ms,
                  "milliseconds a request on an uploaded variant may spend in its hooks (an engine search keeps "
                  "its own time); past them it is answered 503 and the game left as it was (default 10000)")
      ->check(CLI::Range(1, 3'600'000));
  cmd->add_option("--upload-expiry-days", o->upload_expiry_days,
                  "an uploaded variant no game was made or changed on for this many days is removed, with its "
                  "games (default 30; fractions allowed)")
      ->check(CLI::Range(0.0001, 36500.0));
  cmd->callback([&action, o] { action = [o] { return run_serve(*o); }; });
}

}  // namespace palace::cli
