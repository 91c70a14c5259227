#include "server/table.h"

#include <cmath>

#include "server/variant_library.h"

namespace palace::server {

using nlohmann::json;

namespace {

// A field of seconds, at most `most`, as milliseconds; absent is 0.
std::int64_t seconds_field(const json& body, const char* key, double most) {
  const auto found = body.find(key);
  if (found == body.end()) return 0;
  if (!found->is_number() || !std::isfinite(found->get<double>()) || *found < 0 || *found > most)
    throw RequestError(400, std::string("clock.") + key + ": expected seconds from 0 to " + std::to_string(int(most)));
  return std::int64_t(std::llround(found->get<double>() * 1000));
}

}  // namespace

TimeControl TimeControl::from_request(const json& body) {
  if (!body.is_object()) throw RequestError(400, "expected \"clock\": an object of \"initial\", \"increment\", \"byoyomi\" (seconds) and \"periods\"");
  for (const auto& [key, value] : body.items())
    if (key != "initial" && key != "increment" && key != "byoyomi" && key != "periods")
      throw RequestError(400, "clock: unknown field \"" + key + "\" (expected initial, increment, byoyomi, periods)");
  TimeControl c;
  c.initial_ms = seconds_field(body, "initial", 86400);
  c.increment_ms = seconds_field(body, "increment", 3600);
  c.byoyomi_ms = seconds_field(body, "byoyomi", 3600);
  if (const auto p = body.find("periods"); p != body.end()) {
    if (!p->is_number_integer() || *p < 1 || *p > 100) throw RequestError(400, "clock.periods: expected a whole number from 1 to 100");
    if (!c.byoyomi_ms) throw RequestError(400, "clock.periods: byo-yomi periods need \"byoyomi\", the seconds of each");
    c.periods = p->get<int>();
  } else if (c.byoyomi_ms) {
    c.periods = 1;
  }
  if (c.initial_ms <= 0 && c.byoyomi_ms <= 0) throw RequestError(400, "clock: expected some time, \"initial\" or \"byoyomi\" above 0");
  return c;
}

GameClock::GameClock(const TimeControl& c) : control(c) {
  left_ms.fill(c.initial_ms);
  periods_left.fill(c.periods);
}

std::int64_t GameClock::remaining(Side side, std::int64_t now) const {
  const std::int64_t spent = running == side ? std::max<std::int64_t>(0, now - since_ms) : 0;
  return left_ms[side] + periods_left[side] * control.byoyomi_ms - spent;
}

void GameClock::charge(std::int64_t now) {
  if (!running) return;
  spend(now);
  left_ms[*running] += control.increment_ms;
}

void GameClock::stop(std::int64_t now) {
  spend(now);
  running.reset();
}

void GameClock::spend(std::int64_t now) {
  if (!running) return;
  const Side side = *running;
  const std::int64_t spent = std::max<std::int64_t>(0, now - since_ms);
  if (spent <= left_ms[side]) {
    left_ms[side] -= spent;
  } else {
    const std::int64_t over = spent - left_ms[side];
    left_ms[side] = 0;
    if (control.byoyomi_ms) periods_left[side] = std::max<int>(0, periods_left[side] - int(over / control.byoyomi_ms));
  }
  since_ms = now;
}

void GameClock::run(std::optional<Side> side, std::int64_t now) {
  running = side;
  since_ms = now;
}

std::array<bool, SideCount> Table::held(Role role) const {
  if (!seated()) return {true, true};
  switch (role) {
    case Role::Creator: return {!taken[First], !taken[Second]};
    case Role::FirstSeat: return {true, false};
    case Role::SecondSeat: return {false, true};
    case Role::Spectator: break;
  }
  return {false, false};
}

std::string Table::dump() const {
  json out = {{"seats", seats}, {"spectator", spectator}, {"taken", taken}};
  if (clock)
    out["clock"] = {{"initial_ms", clock->control.initial_ms}, {"increment_ms", clock->control.increment_ms},
                    {"byoyomi_ms", clock->control.byoyomi_ms}, {"periods", clock->control.periods},
                    {"left_ms", clock->left_ms}, {"periods_left", clock->periods_left},
                    {"running", clock->running ? json(int(*clock->running)) : json(nullptr)}, {"since_ms", clock->since_ms}};
  if (draw_offer) out["draw_offer"] = int(*draw_offer);
  if (ending) out["ending"] = {{"winner", ending->winner ? json(int(*ending->winner)) : json(nullptr)}, {"reason", ending->reason}};
  return out.dump();
}

Table Table::parse(const std::string& text) {
  Table table;
  if (text.empty()) return table;
  const json in = json::parse(text);
  const auto side = [](const json& v) { return Side(v.get<int>() != 0); };
  table.seats = in.at("seats").get<std::array<std::string, SideCount>>();
  table.spectator = in.at("spectator").get<std::string>();
  table.taken = in.at("taken").get<std::array<bool, SideCount>>();
  if (const auto c = in.find("clock"); c != in.end()) {
    TimeControl control{c->at("initial_ms"), c->at("increment_ms"), c->at("byoyomi_ms"), c->at("periods")};
    GameClock& clock = table.clock.emplace(control);
    clock.left_ms = c->at("left_ms").get<std::array<std::int64_t, SideCount>>();
    clock.periods_left = c->at("periods_left").get<std::array<int, SideCount>>();
    if (!c->at("running").is_null()) clock.running = side(c->at("running"));
    clock.since_ms = c->at("since_ms");
  }
  if (const auto d = in.find("draw_offer"); d != in.end()) table.draw_offer = side(*d);
  if (const auto e = in.find("ending"); e != in.end())
    table.ending = Ending{e->at("winner").is_null() ? std::nullopt : std::optional<Side>(side(e->at("winner"))), e->at("reason")};
  return table;
}

}  // namespace palace::server
