// What `palace serve` keeps of a game beside its moves: who may move which side (its seats), the
// clock the server keeps, a standing draw offer, and an end the rules do not decide (a flag, a
// resignation, a draw agreed). Kept with the game in the store, as JSON.
#pragma once

#include <array>
#include <cstdint>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>

#include "core/types.h"

namespace palace::server {

// Whose a game's key is. The game's id is its creator's and holds both seats, but a seat whose own
// key was used is that key's alone; each seat's key moves its side; a spectator's key only reads.
enum class Role { Creator, FirstSeat, SecondSeat, Spectator };

// A time control, set when the game is made: initial time, a Fischer increment after each move,
// then byo-yomi: `periods` periods of `byoyomi_ms`, one lost each time a move takes a whole period.
struct TimeControl {
  std::int64_t initial_ms = 0;
  std::int64_t increment_ms = 0;
  std::int64_t byoyomi_ms = 0;
  int periods = 0;
  // From the request's {"initial", "increment", "byoyomi", "periods"} (seconds); throws
  // RequestError 400 saying which field is wrong.
  static TimeControl from_request(const nlohmann::json& body);
};

// The clock: each side's main time and periods left, and since when the side to move's clock runs
// (milliseconds since the epoch: the server's clock, so a restart neither stops nor resets it).
// It runs from the first move on, for the side to move.
struct GameClock {
  TimeControl control;
  std::array<std::int64_t, SideCount> left_ms{};
  std::array<int, SideCount> periods_left{};
  std::optional<Side> running;
  std::int64_t since_ms = 0;

 private:
  void spend(std::int64_t now);

 public:
  explicit GameClock(const TimeControl& c = {});
  // The time `side` has for its move at `now`: main time and whole periods.
  std::int64_t remaining(Side side, std::int64_t now) const;
  bool flagged(std::int64_t now) const { return running && remaining(*running, now) <= 0; }
  // A move made at `now` by the side whose clock runs: its time spent, a period lost for each whole
  // one it took, the increment added.
  void charge(std::int64_t now);
  void stop(std::int64_t now);  // the running side's time spent up to `now`, and no clock runs
  void run(std::optional<Side> side, std::int64_t now);  // the side to move from now, or none
};

// An end the game's rules did not decide: a flag, a resignation, a draw agreed.
struct Ending {
  std::optional<Side> winner;
  std::string reason;  // "white's time ran out"
};

struct Table {
  std::array<std::string, SideCount> seats;  // each side's key
  std::string spectator;                     // the spectators' key
  std::array<bool, SideCount> taken{};       // a seat's key was used: the creator's no longer moves it
  std::optional<GameClock> clock;
  std::optional<Side> draw_offer;  // the side whose offer stands
  std::optional<Ending> ending;

  bool seated() const { return !spectator.empty(); }  // games made before seats have none
  // The sides a request with this key may move.
  std::array<bool, SideCount> held(Role role) const;
  std::string dump() const;
  static Table parse(const std::string& text);  // "" (a game from before seats): no seats, no clock
};

}  // namespace palace::server
