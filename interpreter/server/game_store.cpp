#include "server/game_store.h"

#include <sqlite3.h>

#include <chrono>
#include <nlohmann/json.hpp>
#include <sstream>
#include <utility>

namespace palace::server {

namespace {

// One prepared statement, finalized however the call ends.
class Statement {
 public:
  Statement(sqlite3* db, const char* sql, const std::string& path) : db_(db), path_(path) {
    if (sqlite3_prepare_v2(db, sql, -1, &stmt_, nullptr) != SQLITE_OK) fail();
  }
  ~Statement() { sqlite3_finalize(stmt_); }
  Statement(const Statement&) = delete;
  Statement& operator=(const Statement&) = delete;

  Statement& bind(int index, const std::string& text) {
    if (sqlite3_bind_text(stmt_, index, text.data(), int(text.size()), SQLITE_TRANSIENT) != SQLITE_OK) fail();
    return *this;
  }
  bool step() {  // true while a row is there to read
    const int rc = sqlite3_step(stmt_);
    if (rc != SQLITE_ROW && rc != SQLITE_DONE) fail();
    return rc == SQLITE_ROW;
  }
  std::int64_t integer(int column) const { return sqlite3_column_int64(stmt_, column); }
  Statement& bind(int index, std::int64_t number) {
    if (sqlite3_bind_int64(stmt_, index, number) != SQLITE_OK) fail();
    return *this;
  }
  std::string text(int column) const {
    const auto* bytes = reinterpret_cast<const char*>(sqlite3_column_text(stmt_, column));
    return bytes ? std::string(bytes, std::size_t(sqlite3_column_bytes(stmt_, column))) : std::string();
  }

 private:
  [[noreturn]] void fail() const { throw StoreError(path_ + ": " + sqlite3_errmsg(db_)); }

  sqlite3* db_;
  const std::string& path_;
  sqlite3_stmt* stmt_ = nullptr;
};

std::string join(const std::vector<std::string>& words) {
  std::string text;
  for (const std::string& word : words) text += (text.empty() ? "" : " ") + word;
  return text;
}

std::vector<std::string> split(const std::string& text) {
  std::vector<std::string> words;
  std::istringstream in(text);
  for (std::string word; in >> word;) words.push_back(word);
  return words;
}

}  // namespace

std::int64_t GameStore::system_clock_ms() {
  return std::chrono::duration_cast<std::chrono::milliseconds>(std::chrono::system_clock::now().time_since_epoch()).count();
}

GameStore::GameStore(const std::string& path, Clock clock) : path_(path), clock_(std::move(clock)) {
  if (sqlite3_open_v2(path.c_str(), &db_, SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE | SQLITE_OPEN_FULLMUTEX, nullptr) != SQLITE_OK) {
    const std::string reason = db_ ? sqlite3_errmsg(db_) : "cannot open";
    sqlite3_close(db_);
    throw StoreError(path + ": " + reason);
  }
  try {
    // Write-ahead logging with NORMAL sync: a move is one short transaction that survives the
    // server's own crash or stop; only a power loss may take back the last few.
    execute("PRAGMA journal_mode=WAL");
    execute("PRAGMA synchronous=NORMAL");
    execute("PRAGMA busy_timeout=5000");
    execute("PRAGMA wal_autocheckpoint=0");  // Checkpoints makes them, off the store's lock
    execute("CREATE TABLE IF NOT EXISTS games (id TEXT PRIMARY KEY, variant TEXT NOT NULL, "
            "start_fen TEXT NOT NULL, moves TEXT NOT NULL)");
    execute("CREATE TABLE IF NOT EXISTS uploads (id TEXT PRIMARY KEY, yaml TEXT NOT NULL, scripts TEXT NOT NULL, "
            "used INTEGER NOT NULL DEFAULT 0)");
    add_upload_clock();
    // A file from before seats: its games have no tables (they play as before); from before uploads
    // kept their rule tests: their tests are empty.
    add_column("games", "tables", "TEXT NOT NULL DEFAULT ''");
    add_column("uploads", "test", "TEXT NOT NULL DEFAULT ''");
    execute("CREATE TABLE IF NOT EXISTS game_keys (key TEXT PRIMARY KEY, game TEXT NOT NULL, role INTEGER NOT NULL)");
    checkpoints_.emplace(path);
  } catch (...) {
    sqlite3_close(db_);
    throw;
  }
}

GameStore::~GameStore() {
  checkpoints_.reset();
  sqlite3_close(db_);
}

GameStore::Checkpoints::Checkpoints(const std::string& path) {
  if (sqlite3_open_v2(path.c_str(), &db_, SQLITE_OPEN_READWRITE, nullptr) != SQLITE_OK) {
    const std::string reason = db_ ? sqlite3_errmsg(db_) : "cannot open";
    sqlite3_close(db_);
    throw StoreError(path + ": " + reason);
  }
  sqlite3_busy_timeout(db_, 5000);
  // A failure (the file busy or gone) is tried again a second later; the log only grows meanwhile.
  thread_.emplace(std::chrono::seconds(1), [this] { run(); });
}

// The log's pages are 4 KiB: past this many, a checkpoint that copied them all also empties the file.
constexpr int TruncateFrames = 1024;

int GameStore::Checkpoints::run() {
  const std::lock_guard lock(mutex_);
  // A connection that has never read the database has not opened its log's index, and SQLite 3.40
  // then checkpoints nothing (log -1): the log grew by every move until the server stopped.
  if (sqlite3_exec(db_, "SELECT 1 FROM sqlite_master LIMIT 1", nullptr, nullptr, nullptr) != SQLITE_OK) return -1;
  int frames = -1, copied = -1;
  if (sqlite3_wal_checkpoint_v2(db_, nullptr, SQLITE_CHECKPOINT_PASSIVE, &frames, &copied) != SQLITE_OK || frames < 0) return -1;
  // Copied back, the log is written again from its start, but its file keeps the size it grew to:
  // a truncating checkpoint, which waits for the writer, gives that back once it is large. Then
  // nothing is left to copy, so the writer waits only for the file to be cut.
  if (frames > TruncateFrames && copied == frames &&
      sqlite3_wal_checkpoint_v2(db_, nullptr, SQLITE_CHECKPOINT_TRUNCATE, &frames, &copied) != SQLITE_OK)
    return -1;
  return frames - copied;
}

GameStore::Checkpoints::~Checkpoints() {
  thread_.reset();
  sqlite3_close(db_);
}

bool GameStore::add_column(const char* table, const char* name, const char* definition) {
  const std::string count = std::string("SELECT COUNT(*) FROM pragma_table_info('") + table + "') WHERE name = '" + name + "'";
  Statement column(db_, count.c_str(), path_);
  column.step();
  if (column.integer(0) > 0) return false;
  execute((std::string("ALTER TABLE ") + table + " ADD COLUMN " + name + " " + definition).c_str());
  return true;
}

// A file written before uploads expired has no `used` column: its uploads count as used when it is
// first opened since.
void GameStore::add_upload_clock() {
  if (add_column("uploads", "used", "INTEGER NOT NULL DEFAULT 0")) Statement(db_, "UPDATE uploads SET used = ?", path_).bind(1, clock_()).step();
}

void GameStore::execute(const char* sql) {
  char* message = nullptr;
  if (sqlite3_exec(db_, sql, nullptr, nullptr, &message) != SQLITE_OK) {
    const std::string reason = message ? message : sqlite3_errmsg(db_);
    sqlite3_free(message);
    throw StoreError(path_ + ": " + reason);
  }
}

void GameStore::save(const StoredGame& game) {
  const std::lock_guard lock(mutex_);
  Statement(db_, "INSERT OR REPLACE INTO games (id, variant, start_fen, moves, tables) VALUES (?, ?, ?, ?, ?)", path_)
      .bind(1, game.id)
      .bind(2, game.variant)
      .bind(3, game.start_fen)
      .bind(4, join(game.moves))
      .bind(5, game.table)
      .step();
}

std::optional<StoredGame> GameStore::load(const std::string& id) {
  const std::lock_guard lock(mutex_);
  Statement row(db_, "SELECT variant, start_fen, moves, tables FROM games WHERE id = ?", path_);
  if (!row.bind(1, id).step()) return std::nullopt;
  return StoredGame{id, row.text(0), row.text(1), split(row.text(2)), row.text(3)};
}

void GameStore::save_keys(const std::string& game, const std::map<std::string, int>& keys) {
  const std::lock_guard lock(mutex_);
  for (const auto& [key, role] : keys)
    Statement(db_, "INSERT OR REPLACE INTO game_keys (key, game, role) VALUES (?, ?, ?)", path_).bind(1, key).bind(2, game).bind(3, std::int64_t(role)).step();
}

std::optional<GameKey> GameStore::find_key(const std::string& key) {
  const std::lock_guard lock(mutex_);
  Statement row(db_, "SELECT game, role FROM game_keys WHERE key = ?", path_);
  if (!row.bind(1, key).step()) return std::nullopt;
  return GameKey{row.text(0), int(row.integer(1))};
}

std::vector<std::string> GameStore::game_ids() {
  const std::lock_guard lock(mutex_);
  Statement rows(db_, "SELECT id FROM games ORDER BY id", path_);
  std::vector<std::string> ids;
  while (rows.step()) ids.push_back(rows.text(0));
  return ids;
}

std::size_t GameStore::game_count() {
  const std::lock_guard lock(mutex_);
  Statement row(db_, "SELECT COUNT(*) FROM games", path_);
  row.step();
  return std::stoul(row.text(0));
}

std::size_t GameStore::upload_count() {
  const std::lock_guard lock(mutex_);
  Statement row(db_, "SELECT COUNT(*) FROM uploads", path_);
  row.step();
  return std::stoul(row.text(0));
}

void GameStore::save(const StoredUpload& upload) {
  const std::lock_guard lock(mutex_);
  Statement(db_, "INSERT OR REPLACE INTO uploads (id, yaml, scripts, used, test) VALUES (?, ?, ?, ?, ?)", path_)
      .bind(1, upload.id)
      .bind(2, upload.yaml)
      .bind(3, nlohmann::json(upload.scripts).dump())
      .bind(4, clock_())
      .bind(5, upload.test)
      .step();
}

bool GameStore::touch_upload(const std::string& id) {
  const std::lock_guard lock(mutex_);
  Statement(db_, "UPDATE uploads SET used = ? WHERE id = ?", path_).bind(1, clock_()).bind(2, id).step();
  return sqlite3_changes(db_) > 0;
}

std::vector<std::string> GameStore::expire_uploads(std::chrono::milliseconds idle) {
  const std::lock_guard lock(mutex_);
  const std::int64_t before = clock_() - idle.count();
  std::vector<std::string> ids;
  execute("BEGIN IMMEDIATE");
  try {
    {
      Statement rows(db_, "SELECT id FROM uploads WHERE used <= ? ORDER BY id", path_);
      rows.bind(1, before);
      while (rows.step()) ids.push_back(rows.text(0));
    }
    // A game names its variant in a JSON object (StoredGame::variant).
    Statement(db_, "DELETE FROM games WHERE json_extract(variant, '$.name') IN (SELECT id FROM uploads WHERE used <= ?)", path_)
        .bind(1, before)
        .step();
    Statement(db_, "DELETE FROM uploads WHERE used <= ?", path_).bind(1, before).step();
    execute("DELETE FROM game_keys WHERE game NOT IN (SELECT id FROM games)");
    execute("COMMIT");
  } catch (...) {
    execute("ROLLBACK");
    throw;
  }
  return ids;
}

int GameStore::checkpoint() { return checkpoints_->run(); }

std::optional<StoredUpload> GameStore::load_upload(const std::string& id) {
  const std::lock_guard lock(mutex_);
  Statement row(db_, "SELECT yaml, scripts, test FROM uploads WHERE id = ?", path_);
  if (!row.bind(1, id).step()) return std::nullopt;
  return StoredUpload{id, row.text(0), nlohmann::json::parse(row.text(1)).get<std::map<std::string, std::string>>(), row.text(2)};
}

}  // namespace palace::server
