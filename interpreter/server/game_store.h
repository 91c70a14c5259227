// Where `palace serve` keeps its games and uploaded variants: one SQLite file, created on first use,
// written on every change, so that a server stopped and started again loses nothing.
#pragma once

#include <condition_variable>
#include <map>
#include <mutex>
#include <optional>
#include <string>
#include <thread>
#include <vector>

#include "core/error.h"

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
};

// An uploaded variant: its YAML and the Lua scripts it names, by file name.
struct StoredUpload {
  std::string id;
  std::string yaml;
  std::map<std::string, std::string> scripts;
};

// Safe to share between threads: each call takes the store's lock.
class GameStore {
 public:
  explicit GameStore(const std::string& path);  // throws StoreError naming the file
  ~GameStore();
  GameStore(const GameStore&) = delete;
  GameStore& operator=(const GameStore&) = delete;

  void save(const StoredGame& game);  // inserts or replaces
  std::optional<StoredGame> load(const std::string& id);
  std::vector<std::string> game_ids();
  std::size_t game_count();
  std::size_t upload_count();

  void save(const StoredUpload& upload);
  std::optional<StoredUpload> load_upload(const std::string& id);

 private:
  void execute(const char* sql);

  std::string path_;
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

   private:
    sqlite3* db_ = nullptr;
    std::condition_variable wake_;
    std::mutex mutex_;
    bool stopping_ = false;  // under mutex_
    std::thread thread_;     // joined before the connection closes
  };
  std::optional<Checkpoints> checkpoints_;
};

}  // namespace palace::server
