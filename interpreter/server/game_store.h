// Where `palace serve` keeps its games and uploaded variants: one SQLite file, created on first use,
// written on every change, so that a server stopped and started again loses nothing.
#pragma once

#include <chrono>
#include <cstdint>
#include <functional>
#include <map>
#include <mutex>
#include <optional>
#include <string>
#include <vector>

#include "core/error.h"
#include "server/periodic.h"

struct sqlite3;

namespace palace::server {

class StoreError : public Error {
 public:
  using Error::Error;
};

// A game as it is kept: its variant as the server names it, where it started, the moves since.
// Replaying the moves from the start rebuilds the whole game, repetition counts included.
struct StoredGame {
  std::string id;
  std::string variant;  // a JSON object naming the variant and its chosen formations
  std::string start_fen;
  std::vector<std::string> moves;
  std::string table{};  // its seats, clock, draw offer and end (server/table.h); "" before seats
};

// A key that opens a game other than its id: a seat's or the spectators' (server/table.h, Role).
struct GameKey {
  std::string game;
  int role = 0;
};

// An uploaded variant: its YAML and the Lua scripts it names, by file name.
struct StoredUpload {
  std::string id;
  std::string yaml;
  std::map<std::string, std::string> scripts;
  std::string test;  // the workshop's rule-test script (test.yaml) saved with it, or ""
};

// Safe to share between threads: each call takes the store's lock.
class GameStore {
 public:
  // Milliseconds since the epoch: when an upload was last used. Tests bring their own.
  using Clock = std::function<std::int64_t()>;
  static std::int64_t system_clock_ms();

  explicit GameStore(const std::string& path, Clock clock = system_clock_ms);  // throws StoreError naming the file
  ~GameStore();
  GameStore(const GameStore&) = delete;
  GameStore& operator=(const GameStore&) = delete;

  void save(const StoredGame& game);  // inserts or replaces
  std::optional<StoredGame> load(const std::string& id);
  std::vector<std::string> game_ids();
  // Keeps the keys of a game (key to role); they go with the game when it is removed.
  void save_keys(const std::string& game, const std::map<std::string, int>& keys);
  std::optional<GameKey> find_key(const std::string& key);
  std::size_t game_count();
  std::size_t upload_count();

  void save(const StoredUpload& upload);  // used now
  std::optional<StoredUpload> load_upload(const std::string& id);
  // Marks an upload used now (a game made or changed on it); false when it is not stored (expired).
  bool touch_upload(const std::string& id);
  // Removes the uploads unused for `idle` or longer, and the games on them, in one transaction;
  // returns their ids.
  std::vector<std::string> expire_uploads(std::chrono::milliseconds idle);
  // Copies the write-ahead log back into the file now, as the store's own thread does every
  // second, and truncates the log once it holds more than a few megabytes; returns the frames left
  // in it (0: all copied), or -1 when it could not run (the file busy).
  int checkpoint();

 private:
  void execute(const char* sql);
  void add_upload_clock();  // the `used` column, to a file from before it
  // The column `name` added to `table` of a file from before it; false where it is there already.
  bool add_column(const char* table, const char* name, const char* definition);

  std::string path_;
  Clock clock_;
  sqlite3* db_ = nullptr;
  std::mutex mutex_;

  // Copies the write-ahead log back into the file, on a connection and thread of its own, once a
  // second: a checkpoint waits on the disk (it syncs the file), and made by a commit, as SQLite
  // does by default, it held the store's lock, and every user's move, for a second or more while
  // other work kept the disk busy. A passive checkpoint blocks no writer.
  class Checkpoints {
   public:
    explicit Checkpoints(const std::string& path);
    ~Checkpoints();
    Checkpoints(const Checkpoints&) = delete;
    Checkpoints& operator=(const Checkpoints&) = delete;
    int run();  // one checkpoint; the frames it left in the log, or -1 when it could not run

   private:
    sqlite3* db_ = nullptr;
    std::mutex mutex_;                // run() from the thread and from checkpoint()
    std::optional<Periodic> thread_;  // ended before the connection closes
  };
  std::optional<Checkpoints> checkpoints_;
};

}  // namespace palace::server
