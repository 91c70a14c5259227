#include "server/server.h"

#include <arpa/inet.h>
#include <httplib.h>
#include <netinet/in.h>
#include <poll.h>
#include <sys/resource.h>
#include <sys/socket.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cctype>
#include <cstring>
#include <fstream>
#include <iterator>
#include <mutex>
#include <optional>
#include <thread>
#include <type_traits>
#include <nlohmann/json.hpp>
#include <regex>
#include <semaphore>
#include <unordered_map>
#include <utility>
#include <vector>

#include "core/text.h"
#include "game/game.h"
#include "movegen/movegen.h"
#include "movetext/notation.h"
#include "notation/gib.h"
#include "notation/players_notation.h"
#include "notation/replay.h"
#include "search/search.h"
#include "server/connection_gate.h"
#include "server/game_store.h"
#include "server/json_body.h"
#include "server/periodic.h"
#include "server/random_id.h"
#include "server/table.h"
#include "server/variant_library.h"
#include "server/variant_schema.h"

namespace palace::server {

using nlohmann::json;

namespace {

// The engine's strength: level n searches n plies deep, for at most n quarter-seconds.
constexpr int MaxEngineLevel = 10;
constexpr int EngineMillisPerLevel = 250;
// Where a record file is posted to become a game (import_game).
constexpr const char* ImportPath = "/api/games/import";

// When the request this thread serves in the upload lane must be done with its variant's hooks
// (UploadLane): a hook is anyone's code, and one that takes a tenth of a second a call, inside its
// instruction budget, made every request on its games slower than the last (issue 53).
thread_local std::optional<std::chrono::steady_clock::time_point> hook_deadline;

bool past_hook_deadline() { return hook_deadline && std::chrono::steady_clock::now() > *hook_deadline; }

// Lifts the deadline for its scope: taking back a change the deadline cut short must run to its end.
class Overtime {
 public:
  Overtime() : saved_(hook_deadline) { hook_deadline.reset(); }
  ~Overtime() { hook_deadline = saved_; }
  Overtime(const Overtime&) = delete;
  Overtime& operator=(const Overtime&) = delete;

 private:
  std::optional<std::chrono::steady_clock::time_point> saved_;
};

// Asks the deadline in every hook call of the position; copies of it ask the same (MoveHooks::interrupt).
void keep_hook_deadline(const Position& pos) {
  if (MoveHooks* hooks = pos.move_hooks()) hooks->set_interrupt(past_hook_deadline);
}

// One game in play. The lock guards the Game: requests on one game take turns, other games go on.
struct Entry {
  Entry(VariantChoice c, std::shared_ptr<const Variant> v) : choice(std::move(c)), game(std::move(v)) {
    keep_hook_deadline(game.position());
  }
  std::mutex mutex;
  VariantChoice choice;
  Game game;
  Table table;
};

// A request's key (the game's id, a seat's or the spectators'), the game it opens and whose it is.
struct Access {
  std::string key;
  std::string game;
  Role role = Role::Creator;
};

// What a change asks of the key it comes with.
enum class Need {
  Turn,       // the side to move's seat: a move, a pass, a claim, the engine's move
  AnySide,    // a seat: a resignation, a draw offered, accepted or declined
  BothSides,  // both seats: undo, a position set up
};

// The one side a key acts for where a change needs a side: the side to move's when it holds it.
std::optional<Side> acting_side(const Table& table, Role role, Side turn) {
  const auto held = table.held(role);
  if (held[turn]) return turn;
  if (held[opponent(turn)]) return opponent(turn);
  return std::nullopt;
}

// Refuses a change the key may not make (403), or one made after an end the rules did not decide
// (409), in one line.
void check_may(const Entry& entry, Role role, Need need) {
  const Variant& variant = entry.game.variant();
  const Table& table = entry.table;
  if (table.ending) {
    const std::string text = table.ending->winner ? variant.side_name(*table.ending->winner) + " wins: " + table.ending->reason
                                                  : "draw: " + table.ending->reason;
    throw RequestError(409, "the game is over: " + text);
  }
  const auto held = table.held(role);
  if (role == Role::Spectator) throw RequestError(403, "this is a spectator's link: it follows the game but cannot change it");
  const auto seats_taken = [&] {
    return role == Role::Creator ? " (its seat was taken by its own link)" : " (this link is " + variant.side_name(held[First] ? First : Second) + "'s seat)";
  };
  const Side turn = entry.game.side_to_move();
  if (need == Need::Turn && !held[turn])
    throw RequestError(403, "it is " + variant.side_name(turn) + "'s turn, and this link does not move " + variant.side_name(turn) + seats_taken());
  if (need == Need::BothSides && !(held[First] && held[Second]))
    throw RequestError(403, "only a link holding both seats may do this" + seats_taken());
  if (need == Need::AnySide && !held[First] && !held[Second]) throw RequestError(403, "this link holds no seat" + seats_taken());
}

// A refusal; one that names a place in a variant file or script ("variant.yaml:12:5: ..." or, from
// Lua, "rules.lua:3: ...") also gives it apart, for the workshop to mark: the last place named, as a
// message that passes through a script names the script's line last.
json error_body(const std::string& message) {
  json body{{"error", message}};
  static const std::regex place(R"(([A-Za-z0-9_.-]+\.(?:yaml|lua)):(\d{1,9})(?::(\d{1,9}))?: )");
  std::smatch found;
  for (auto from = message.cbegin(); std::regex_search(from, message.cend(), found, place); from = found[0].second) {
    body["file"] = found.str(1);
    body["line"] = std::stoi(found.str(2));
    if (found[3].matched) body["column"] = std::stoi(found.str(3));
    else body.erase("column");
  }
  return body;
}

// Sets an answer's JSON. Text a request brought in may be no UTF-8 (an address's bytes quoted in
// a refusal): such bytes are written as U+FFFD rather than failing the answer.
void set_json(httplib::Response& response, const json& out) {
  response.set_content(out.dump(-1, ' ', false, json::error_handler_t::replace), "application/json");
}

json body_of(const httplib::Request& request) { return parse_json_body(request.body); }

std::string text_field(const json& body, const char* key) {
  const auto found = body.find(key);
  if (found == body.end() || !found->is_string()) throw RequestError(400, std::string("expected \"") + key + "\": a string");
  return found->get<std::string>();
}

// What each side holds off the board, by side name then kind name: {"white": {"pawn": 2}}.
json hands_json(const Variant& variant, const Position& pos) {
  json hands = json::object();
  for (Side side = First; side < SideCount; ++side) {
    json& hand = hands[variant.side_name(side)] = json::object();
    for (const Kind kind : variant.hand_kinds())
      if (pos.in_hand(side, kind) > 0) hand[variant.rules().pieces[std::size_t(kind)].name] = pos.in_hand(side, kind);
  }
  return hands;
}

// The pieces on the board, each with its point, FEN letter, side and kind.
json pieces_json(const Variant& variant, const Position& pos) {
  const BoardDef& board = variant.board();
  json pieces = json::array();
  for (Point s = Point(0); s < board.size(); ++s) {
    const Piece p = pos.at(s);
    if (p == NoPiece) continue;
    const PieceDef& def = variant.rules().pieces[kind_of(p)];
    const bool upper = variant.rules().sides[side_of(p)].upper_case;
    pieces.push_back({{"square", board.point_name(s)},
                      {"letter", std::string(1, upper ? def.letter : char(std::tolower((unsigned char)def.letter)))},
                      {"side", side_of(p)},
                      {"kind", def.name}});
  }
  return pieces;
}

// A move's from and to points, for the board to mark; null for a pass.
json move_points(const BoardDef& board, Move m) {
  if (m.is_pass()) return nullptr;
  return {m.type() == MoveType::Drop ? json(nullptr) : json(board.point_name(m.from())), board.point_name(m.to())};
}

// The game's moves, each written by `write` in the position it was played in, replayed from where
// the game started; the position `ply` moves in is left in `at` when asked for.
template <class Write>
json moves_written(const Game& game, Write write, std::size_t ply = 0, std::optional<Position>* at = nullptr) {
  Position pos(game.variant_ptr());
  keep_hook_deadline(pos);
  set_played_fen(pos, game.start_fen());
  json texts = json::array();
  for (std::size_t i = 0; i < game.history().size(); ++i) {
    if (at && i == ply) at->emplace(pos);
    if constexpr (!std::is_same_v<Write, std::nullptr_t>) texts.push_back(write(pos, game.history()[i]));
    pos.do_move(game.history()[i]);
  }
  if (at && ply == game.history().size()) at->emplace(pos);
  return texts;
}

// The moves in the notation of the game's records (SAN, WXF, the Janggi numeric notation...).
json moves_in_notation(const Game& game) {
  const MoveNotation notation(game.variant());
  return moves_written(game, [&](Position& pos, Move m) { return notation.write(pos, m, notation.native()); });
}

// How the game's players write its moves (Japanese, Chinese, Korean...), and number the board's
// edges; `records` are the moves in the records' notation, the same where the players use that.
json players_notation_json(const Game& game, const json& records) {
  const PlayersNotation players(game.variant());
  const bool as_records = players.name() == notation_style_name(game.variant().rules().notation.native);
  return {{"name", players.name()},
          {"moves", as_records ? records : moves_written(game, [&](Position& pos, Move m) { return players.write(pos, m); })},
          {"files", players.file_labels()},
          {"ranks", players.rank_labels()},
          {"side_files", players.side_file_labels()}};
}

// What the board draws on each kind: its face per side, where the variant names one.
json kinds_json(const Variant& variant) {
  json kinds = json::array();
  for (const PieceDef& def : variant.rules().pieces) {
    json kind = {{"name", def.name}, {"letter", std::string(1, def.letter)}, {"royal", def.royal}, {"value", def.value}};
    if (!def.written.empty()) kind["written"] = def.written;
    if (!def.face[0].empty()) kind["face"] = def.face;
    kinds.push_back(kind);
  }
  return kinds;
}

// The position and everything the page draws from it.
json state_json(const std::string& id, const Entry& entry) {
  const Game& game = entry.game;
  const Variant& variant = game.variant();
  const BoardDef& board = variant.board();
  const Position& pos = game.position();

  json sides = json::array();
  for (const SideDef& side : variant.rules().sides)
    sides.push_back({{"name", side.name}, {"colour", side.colour}, {"forward", side.forward > 0 ? "up" : "down"}});
  json diagonals = json::array();
  for (const auto& [a, b] : board.diagonal_lines) diagonals.push_back({board.point_name(a), board.point_name(b)});
  json holes = json::array();
  for (Point s = Point(0); s < board.size(); ++s)
    if (board.is_hole(s)) holes.push_back(board.point_name(s));


  json legal = json::object();
  json legal_moves = json::array();
  bool can_pass = false;
  for (const Move m : game.legal_moves()) {
    legal_moves.push_back(pos.move_text(m));
    can_pass = can_pass || m.is_pass();
    if (m.is_pass() || m.type() == MoveType::Drop) continue;  // `legal` maps a board point to its targets
    json& targets = legal[board.point_name(m.from())];
    const std::string to = board.point_name(m.to());
    if (!targets.is_array()) targets = json::array();
    if (std::find(targets.begin(), targets.end(), to) == targets.end()) targets.push_back(to);
  }
  for (auto& [from, targets] : legal.items()) std::sort(targets.begin(), targets.end());

  const json last_move = game.history().empty() ? json(nullptr) : move_points(board, game.history().back());

  const Side turn = game.side_to_move();
  const bool check = game.is_in_check(turn);
  const json records = moves_in_notation(game);
  const Verdict& end = game.game_state();
  json result = {{"finished", end.finished()},
                 {"kind", end.winner ? "win" : end.finished() ? "draw" : "unfinished"},
                 {"text", end.str(variant)}};
  if (end.finished()) result["reason"] = end.reason_text(variant);
  if (end.claimable != Termination::None) result["claimable"] = end.claim_text();
  if (const std::string why = game.explanation(); !why.empty()) result["explanation"] = why;
  if (end.winner) result["winner"] = variant.side_name(*end.winner);
  if (end.counted) result["points"] = end.points;

  json state = {{"id", id},
                {"variant", entry.choice.name},
                {"name", variant.rules().name},
                {"formations", entry.choice.formations},
                {"board", {{"files", board.files}, {"ranks", board.ranks}, {"diagonals", diagonals}, {"all_diagonals", board.all_diagonals}, {"holes", holes},
                           {"ranks_from", board.ranks_from_top ? "top" : "bottom"}}},
                {"sides", sides},
                {"kinds", kinds_json(variant)},
                {"fen", game.fen()},
                {"start_fen", game.start_fen()},
                {"turn", turn},
                {"turn_name", variant.side_name(turn)},
                {"check", check},
                {"check_square", check && pos.royal(turn) != NoPoint ? json(board.point_name(pos.royal(turn))) : json(nullptr)},
                {"pieces", pieces_json(variant, pos)},
                {"legal", legal},
                {"legal_moves", legal_moves},
                {"can_pass", can_pass},
                {"moves", game.history_texts()},
                {"moves_notation", records},
                {"players_notation", players_notation_json(game, records)},
                {"last_move", last_move},
                {"result", result},
                {"move_example", game.move_example()},
                {"record_formats", record_formats_of(variant)},
                {"engine", true}};
  if (variant.has_hands()) state["hands"] = hands_json(variant, pos);
  // Where passing is a move of the game: why it is refused now, or what a pass now would end in.
  state["passing"] = variant.move_rules().pass != PassRule::Never;
  if (state["passing"] && !end.finished()) {
    if (!can_pass) {
      state["pass_refusal"] = game.explain(NoPoint, NoPoint);
    } else {
      // A pass that ends the game, or lets the other side end it by passing back (two passes in a
      // row), is one a player should be told of before making it.
      auto ended = [&](const Game& g) { return g.game_state().str(variant); };
      Game trial = game;
      trial.pass();
      if (trial.game_state().finished()) {
        state["pass_warning"] = "a pass now ends the game (" + ended(trial) + ")";
      } else if (trial.pass() && trial.game_state().finished()) {
        state["pass_warning"] = "after a pass, " + capitalised(variant.side_name(opponent(turn))) +
                                " may pass too and end the game (" + ended(trial) + ")";
      }
    }
  }
  return state;
}

// The end the rules did not decide, as the result reads it.
json ending_result(const Variant& variant, const Ending& ending) {
  json result = {{"finished", true}, {"kind", ending.winner ? "win" : "draw"}, {"reason", ending.reason},
                 {"text", ending.winner ? variant.side_name(*ending.winner) + " wins: " + ending.reason : "draw: " + ending.reason}};
  if (ending.winner) result["winner"] = variant.side_name(*ending.winner);
  return result;
}

// What the key's holder is told of the table: the sides it moves, the links it may share, the clock
// as of `now`, a standing draw offer. An end the rules did not decide is the result, and no move is
// legal after it.
void add_table(json& state, const Entry& entry, Role role, std::int64_t now) {
  const Variant& variant = entry.game.variant();
  const Table& table = entry.table;
  const auto held = table.held(role);
  json plays = json::array();
  for (Side side = First; side < SideCount; ++side)
    if (held[side]) plays.push_back(variant.side_name(side));
  state["plays"] = plays;
  json links = json::object();
  if (table.seated()) {
    const auto link = [](const std::string& key) { return "/game/" + key; };
    for (Side side = First; side < SideCount; ++side)
      if (role == Role::Creator || held[side]) links[variant.side_name(side)] = link(table.seats[side]);
    links["spectator"] = link(table.spectator);
  }
  state["links"] = links;
  if (table.clock) {
    const GameClock& clock = *table.clock;
    json left = json::array();
    for (Side side = First; side < SideCount; ++side) left.push_back(std::max<std::int64_t>(0, clock.remaining(side, now)));
    state["clock"] = {{"initial_ms", clock.control.initial_ms}, {"increment_ms", clock.control.increment_ms},
                      {"byoyomi_ms", clock.control.byoyomi_ms}, {"periods", clock.control.periods},
                      {"left_ms", left}, {"periods_left", clock.periods_left}, {"running", clock.running ? json(variant.side_name(*clock.running)) : json(nullptr)}};
  }
  if (table.draw_offer) state["draw_offer"] = variant.side_name(*table.draw_offer);
  if (table.ending) {
    state["result"] = ending_result(variant, *table.ending);
    state["legal"] = json::object();
    state["legal_moves"] = json::array();
    state["can_pass"] = false;
    state.erase("pass_warning");
  }
}

// What every answer carries: the page loads only its own scripts and styles, talks only to this
// server, and may not be framed by another site.
constexpr const char* ContentSecurityPolicy =
    "default-src 'self'; img-src 'self' data:; style-src 'self' 'unsafe-inline'; object-src 'none'; "
    "base-uri 'none'; form-action 'none'; frame-ancestors 'none'";

bool changes_state(const httplib::Request& request) { return request.method != "GET" && request.method != "HEAD"; }

// The media type of a Content-Type header, lower-cased, without parameters.
std::string media_type(const std::string& header) {
  std::string type = header.substr(0, header.find(';'));
  type.erase(std::remove_if(type.begin(), type.end(), [](unsigned char c) { return std::isspace(c) != 0; }), type.end());
  std::transform(type.begin(), type.end(), type.begin(), [](unsigned char c) { return char(std::tolower(c)); });
  return type;
}

// A request given as bytes and its answer collected as bytes: no socket.
class BytesStream final : public httplib::Stream {
 public:
  explicit BytesStream(std::string_view in) : in_(in) {}
  bool is_readable() const override { return true; }
  bool is_writable() const override { return true; }
  ssize_t read(char* ptr, size_t size) override {
    const std::size_t n = std::min(size, in_.size() - at_);
    std::memcpy(ptr, in_.data() + at_, n);
    at_ += n;
    return ssize_t(n);
  }
  ssize_t write(const char* ptr, size_t size) override {
    out_.append(ptr, size);
    return ssize_t(size);
  }
  void get_remote_ip_and_port(std::string& ip, int& port) const override {
    ip = "127.0.0.1";
    port = 0;
  }
  void get_local_ip_and_port(std::string& ip, int& port) const override { get_remote_ip_and_port(ip, port); }
  socket_t socket() const override { return INVALID_SOCKET; }
  std::string& answer() { return out_; }

 private:
  std::string_view in_;
  std::size_t at_ = 0;
  std::string out_;
};

// A connection's request, as the gate hands it over whole: its bytes and no more. cpp-httplib
// reads a POST without a Content-Length until the connection ends, which a client could hold off
// for as long as the read timeout allowed it, a worker with it; here the request ends where the
// gate's reading of it ends. The answer is gathered and sent at once (flush): cpp-httplib writes
// its head and body apart, and the body then waited on the client's delayed acknowledgement of
// the head, 40 ms an answer. The client has WriteTimeout in all to take it, so that one reading a
// large answer a byte at a time does not keep the worker.
class GateStream final : public httplib::Stream {
 public:
  static constexpr auto WriteTimeout = std::chrono::seconds(10);
  GateStream(Connection& conn, std::size_t end) : conn_(conn), end_(std::min(end, conn.pending.size())) {}
  bool is_readable() const override { return conn_.taken < end_; }
  bool is_writable() const override { return true; }  // written by flush()
  ssize_t read(char* ptr, size_t size) override {
    const std::size_t n = std::min(size, end_ - std::min(conn_.taken, end_));
    std::memcpy(ptr, conn_.pending.data() + conn_.taken, n);
    conn_.taken += n;
    return ssize_t(n);
  }
  ssize_t write(const char* ptr, size_t size) override {
    out_.append(ptr, size);
    return ssize_t(size);
  }
  bool flush() {
    const auto deadline = std::chrono::steady_clock::now() + WriteTimeout;
    for (std::string_view rest = out_; !rest.empty();) {
      pollfd watched{conn_.fd, POLLOUT, 0};
      int ready;
      do {
        const auto left = std::chrono::duration_cast<std::chrono::milliseconds>(deadline - std::chrono::steady_clock::now());
        ready = left.count() > 0 ? ::poll(&watched, 1, int(left.count())) : 0;
      } while (ready < 0 && errno == EINTR);
      if (ready <= 0) return false;
      const ssize_t n = ::send(conn_.fd, rest.data(), rest.size(), MSG_DONTWAIT | MSG_NOSIGNAL);
      if (n < 0 && (errno == EAGAIN || errno == EINTR)) continue;
      if (n <= 0) return false;
      rest.remove_prefix(std::size_t(n));
    }
    out_.clear();
    return true;
  }
  void get_remote_ip_and_port(std::string& ip, int& port) const override {
    ip = conn_.address;
    port = conn_.port;
  }
  void get_local_ip_and_port(std::string& ip, int& port) const override {
    sockaddr_in local{};
    socklen_t size = sizeof local;
    char text[INET_ADDRSTRLEN] = "";
    if (::getsockname(conn_.fd, reinterpret_cast<sockaddr*>(&local), &size) == 0 && local.sin_family == AF_INET)
      ::inet_ntop(AF_INET, &local.sin_addr, text, sizeof text);
    ip = text;
    port = ntohs(local.sin_port);
  }
  // Not the descriptor: cpp-httplib built without poll(2) answers 500 to a socket past select's
  // FD_SETSIZE, which the gate's thousands of connections reach, and this stream reads no socket.
  socket_t socket() const override { return INVALID_SOCKET; }

 private:
  Connection& conn_;
  std::size_t end_;  // of the request in conn_.pending
  std::string out_;
};

// Tasks cpp-httplib's accepting thread hands over: each gives the gate a connection, at once.
class HandToGate final : public httplib::TaskQueue {
 public:
  void enqueue(std::function<void()> task) override { task(); }
  void shutdown() override {}
};

// Set by a refusal made before a request's body is read (the same-origin policy): the body's bytes
// may still come, so the connection carries no other request.
thread_local bool close_after_answer = false;

// cpp-httplib's server, its connections kept by a ConnectionGate, which can also answer a request
// handed to it as bytes (Server::answer).
class HttpServer : public httplib::Server {
 public:
  // Requests one connection may carry: with no thread held between them, as many as a page makes.
  static constexpr int KeepAliveRequests = 100;

  explicit HttpServer(const GateLimits& limits) : gate_(limits, [this](Connection& conn) { return serve(conn); }) {
    new_task_queue = [] { return new HandToGate; };
  }

  std::string answer(std::string_view request) {
    BytesStream stream(request);
    bool closed = false;
    process_request(stream, true, closed, [](httplib::Request&) {});
    return std::move(stream.answer());
  }

  void start_gate() { gate_.start(); }
  void stop_gate() { gate_.stop(); }

  // cpp-httplib listens with a backlog of 5 (built into Debian's library): with a few dozen
  // clients reconnecting, the queue was full, new connections' SYNs were dropped and their clients
  // tried again a second later (tests/server/hostile_tenant.mjs). Listening again on the bound
  // socket only sets the backlog.
  void widen_backlog() { ::listen(svr_sock_, 1024); }

 private:
  bool process_and_close_socket(socket_t sock) override {
    gate_.admit(sock);
    return true;
  }

  bool serve(Connection& conn) {
    const RequestScan scan = scan_request(conn.pending, gate_.limits());
    const std::size_t end = scan.head_bytes + scan.body_bytes;
    GateStream stream(conn, end);
    const bool last = ++conn.served >= KeepAliveRequests;
    bool closed = false;
    close_after_answer = false;
    const bool answered = process_request(stream, last, closed, [](httplib::Request&) {});
    conn.taken = std::max(conn.taken, std::min(end, conn.pending.size()));  // a body left unread goes too
    return stream.flush() && answered && !closed && !last && !close_after_answer;
  }

  ConnectionGate gate_;
};

// Runs `work` on a thread of its own at the lowest CPU priority and returns what it returns (or
// throws what it throws). A failure to lower the priority only leaves it.
template <class Work>
auto at_low_priority(Work work) -> decltype(work()) {
  std::optional<decltype(work())> result;
  std::exception_ptr failure;
  std::thread worker([&] {
    ::setpriority(PRIO_PROCESS, static_cast<id_t>(::gettid()), 19);
    try {
      result.emplace(work());
    } catch (...) {
      failure = std::current_exception();
    }
  });
  worker.join();
  if (failure) std::rethrow_exception(failure);
  return std::move(*result);
}

// The lane every piece of work on an uploaded variant or a draft takes (checking an upload,
// compiling it, replaying, showing or changing a game on it, searching it): its hooks are anyone's
// code. At most `width` such requests are served at once, so however many of them hostile hooks
// slow down, they hold at most that many threads and cores: the requests on shipped variants, which
// other users wait on, are served beside them. A request that cannot get into the lane within
// WaitLimit is refused (429) rather than queued without end. The lane keeps the request's thread
// and priority: it takes locks other requests take too (the store's, the list of games'), and a
// thread at the lowest priority holding one would stall them all (only a search, which holds none,
// runs at the lowest priority). Once in the lane, a request has `deadline` for its games' hooks
// (hook_deadline; a search keeps its own time): past it, the hook running is interrupted and the
// request answered 503.
class UploadLane {
 public:
  static constexpr auto WaitLimit = std::chrono::seconds(5);
  UploadLane(std::size_t width, std::chrono::milliseconds deadline)
      : slots_(std::ptrdiff_t(std::max<std::size_t>(width, 1))), deadline_(deadline) {}

  template <class Work>
  auto run(Work work) -> decltype(work()) {
    if (inside_) return work();  // already in the lane (the move a search chose, played through update)
    if (!slots_.try_acquire_for(WaitLimit))
      throw RequestError(429, "the server is busy with uploaded variants; try again shortly");
    inside_ = true;
    hook_deadline = std::chrono::steady_clock::now() + deadline_;
    const struct Leave {
      std::counting_semaphore<>& slots;
      ~Leave() {
        inside_ = false;
        hook_deadline.reset();
        slots.release();
      }
    } leave{slots_};
    try {
      return work();
    } catch (const HookInterrupted&) {
      throw RequestError(503, "the variant's hooks ran past the request's deadline (" + std::to_string(deadline_.count()) +
                                  " ms; palace serve --hook-deadline-ms)");
    }
  }

 private:
  std::counting_semaphore<> slots_;
  std::chrono::milliseconds deadline_;
  static thread_local bool inside_;
};

thread_local bool UploadLane::inside_ = false;

}  // namespace

// The gate's limits from the server's options, the sizes from the API's own. Each connection is a
// file descriptor: the process's limit is raised as far as allowed for them, with room kept for the
// store, the scratch files and the listening socket, and the cap lowered to what is left.
static GateLimits gate_limits(const ServerOptions& options) {
  constexpr rlim_t Reserved = 256;
  rlimit files{};
  if (::getrlimit(RLIMIT_NOFILE, &files) == 0 && files.rlim_cur < options.max_connections + Reserved) {
    files.rlim_cur = std::min<rlim_t>(files.rlim_max, options.max_connections + Reserved);
    ::setrlimit(RLIMIT_NOFILE, &files);
    ::getrlimit(RLIMIT_NOFILE, &files);
  }
  GateLimits limits;
  limits.max_connections = std::min<std::size_t>(options.max_connections, files.rlim_cur > 2 * Reserved ? files.rlim_cur - Reserved : files.rlim_cur / 2);
  limits.max_per_client = options.max_connections_per_client;
  limits.request_deadline = options.request_deadline;
  limits.max_body_bytes = MaxBodyBytes;
  return limits;
}

struct Server::Impl {
  explicit Impl(const ServerOptions& o) : options(o), store(o.db_file.string()), library(o.variants_dir, store, o.max_scratch_mb << 20) {}

  ServerOptions options;
  UploadLane lane{options.upload_workers, options.hook_deadline};
  GameStore store;
  VariantLibrary library;
  HttpServer http{gate_limits(options)};
  std::mutex games_mutex;
  std::unordered_map<std::string, std::shared_ptr<Entry>> games;
  std::unordered_map<std::string, GameKey> keys;  // the seats' and spectators' keys read so far (games_mutex)

  std::int64_t now() const { return options.now ? options.now() : GameStore::system_clock_ms(); }

  // The game a key opens and whose the key is: a seat's or the spectators' key, or else the game's
  // own id (find() says when there is no such game).
  Access resolve(const std::string& key) {
    {
      const std::lock_guard lock(games_mutex);
      if (games.count(key)) return {key, key, Role::Creator};
      if (const auto found = keys.find(key); found != keys.end()) return {key, found->second.game, Role(found->second.role)};
    }
    const std::optional<GameKey> stored = store.find_key(key);
    if (!stored) return {key, key, Role::Creator};
    const std::lock_guard lock(games_mutex);
    keys.emplace(key, *stored);
    return {key, stored->game, Role(stored->role)};
  }
  // Looks for idle uploads a few times per expiry period, at least every ten minutes. Declared
  // after what it uses, so that it ends before them.
  Periodic expiry{std::min<std::chrono::milliseconds>(options.upload_expiry / 4, std::chrono::minutes(10)),
                  [this] { expire_idle_uploads(); }};

  // Removes the uploads idle for options.upload_expiry, and their games, from the store, memory
  // and the scratch folder. A store that fails (busy) is asked again next time.
  void expire_idle_uploads() {
    std::vector<std::string> expired;
    try {
      expired = store.expire_uploads(options.upload_expiry);
    } catch (const StoreError&) {
      return;
    }
    {
      std::vector<std::shared_ptr<Entry>> dropped;  // freed once games_mutex is released
      const std::lock_guard lock(games_mutex);
      for (auto it = games.begin(); it != games.end();) {
        if (std::find(expired.begin(), expired.end(), it->second->choice.name) == expired.end()) {
          ++it;
          continue;
        }
        dropped.push_back(std::move(it->second));
        it = games.erase(it);
      }
    }
    // The games are gone (but for requests under way): their variants no longer hold the folders.
    for (const std::string& id : expired) library.forget(id);
  }

  // Work on a game of `choice`: on the upload lane when the variant is an upload.
  template <class Work>
  auto on_lane_for(const VariantChoice& choice, Work work) -> decltype(work()) {
    return choice.is_upload() ? lane.run(std::move(work)) : work();
  }

  // A game in memory, or read back from the store after a restart; 404 when there is none. The
  // replay runs its variant's hooks, so it holds no lock that other games' requests take.
  std::shared_ptr<Entry> find(const std::string& id) {
    {
      const std::lock_guard lock(games_mutex);
      if (const auto found = games.find(id); found != games.end()) return found->second;
    }
    const auto stored = store.load(id);
    if (!stored) throw RequestError(404, "no game with id " + quote(id));
    const VariantChoice choice = VariantChoice::from_key(stored->variant);
    auto entry = on_lane_for(choice, [&] {
      auto read = std::make_shared<Entry>(choice, library.get(choice));
      read->table = Table::parse(stored->table);
      read->game.set_fen(stored->start_fen);
      for (const std::string& move : stored->moves)
        if (move == ClaimWord ? !read->game.claim_draw() : !read->game.play(move).accepted)
          throw RequestError(500, "game " + id + ": stored move " + quote(move) + " is refused: " + read->game.last_refusal());
      return read;
    });
    std::vector<std::shared_ptr<Entry>> dropped;
    const std::lock_guard lock(games_mutex);
    if (const auto found = games.find(id); found != games.end()) return found->second;  // read meanwhile
    return keep(id, entry, dropped);
  }

  // Keeps a game in memory (games_mutex held). A game on a variant with runtime hooks holds a Lua
  // interpreter of its own, up to its heap cap: past options.hooked_games_in_memory of them, idle
  // ones are dropped, to be read back from the store when next asked for. They are moved to
  // `dropped`, for the caller to free once games_mutex is released: closing an interpreter takes
  // time every other request would wait on.
  std::shared_ptr<Entry> keep(const std::string& id, std::shared_ptr<Entry> entry, std::vector<std::shared_ptr<Entry>>& dropped) {
    const auto kept = games.emplace(id, std::move(entry)).first->second;
    const auto hooked = [](const auto& item) { return item.second->game.position().move_hooks() != nullptr; };
    std::size_t count = std::size_t(std::count_if(games.begin(), games.end(), hooked));
    for (auto it = games.begin(); it != games.end() && count > options.hooked_games_in_memory;) {
      if (hooked(*it) && it->second.use_count() == 1 && it->second != kept) {
        dropped.push_back(std::move(it->second));
        it = games.erase(it);
        --count;
      } else {
        ++it;
      }
    }
    return kept;
  }

  // Refuses a new game or upload once the store holds `most` of them.
  static void check_room(std::size_t held, std::size_t most, const char* what) {
    if (held >= most)
      throw RequestError(507, std::string("the server holds its most ") + what + " (" + std::to_string(most) + "; palace serve --max-" + what + ")");
  }

  // A draw claimed is kept as one more word after the moves, which find() replays as the claim.
  static constexpr const char* ClaimWord = "claim";

  // A game on an upload keeps the upload from expiring; one whose upload expired meanwhile is not kept.
  void save(const std::string& id, const Entry& entry) {
    if (entry.choice.is_upload() && !store.touch_upload(entry.choice.name))
      throw RequestError(404, "no variant named " + quote(entry.choice.name) + ": it expired unused (palace serve --upload-expiry-days)");
    std::vector<std::string> moves = entry.game.history_texts();
    if (entry.game.claimed()) moves.push_back(ClaimWord);
    store.save(StoredGame{id, entry.choice.key(), entry.game.start_fen(), std::move(moves), entry.table.dump()});
  }

  json create_game(const json& body) {
    check_room(store.game_count(), options.max_games, "games");
    VariantChoice choice{options.default_variant, {}};
    if (body.contains("variant")) choice.name = text_field(body, "variant");
    if (const auto f = body.find("formations"); f != body.end()) {
      if (!f->is_object()) throw RequestError(400, "expected \"formations\": an object of side name to formation name");
      for (const auto& [side, formation] : f->items()) {
        if (!formation.is_string()) throw RequestError(400, "formations." + side + ": expected a formation name");
        choice.formations[side] = formation.get<std::string>();
      }
    }
    std::optional<TimeControl> control;
    if (const auto c = body.find("clock"); c != body.end()) control = TimeControl::from_request(*c);
    return open_game(choice, control, [&](Entry& entry) {
      if (body.contains("fen")) set_fen(entry, text_field(body, "fen"));
    });
  }

  // A game made from the first game of a record file, sent as its bytes (any encoding the readers
  // know; `file`'s extension names the format, else the bytes do), on the variant asked for: the
  // record's start position and moves, every move legal on the board (a ruling of the game's
  // history the players went past is kept, as `palace replay` keeps it).
  json import_game(const httplib::Request& request) {
    check_room(store.game_count(), options.max_games, "games");
    const VariantChoice choice{request.has_param("variant") ? request.get_param_value("variant") : options.default_variant, {}};
    const std::string file = request.get_param_value("file");
    std::vector<GameRecord> records;
    try {
      records = read_records(request.body, record_format(file, request.body));
    } catch (const Error& e) {
      throw RequestError(400, std::string("record: ") + e.what());
    }
    if (records.front().moves.empty()) throw RequestError(400, "record: its first game has no moves");
    return open_game(choice, std::nullopt, [&](Entry& entry) {
      GameRecord& record = records.front();
      apply_formation_tags(record, entry.game.variant_ptr());
      Replay replay = replay_record(record, entry.game.variant_ptr());
      if (replay.game.history().size() < record.moves.size()) throw RequestError(400, "record: " + replay.verdict);
      entry.game = std::move(replay.game);
      keep_hook_deadline(entry.game.position());
    });
  }

  // The game written as a record file in `format` (RecordWriter), its tags the page's.
  json export_game(const Access& access, const std::string& format) {
    const RecordWriter* writer = record_writer_named(format);
    if (!writer) throw RequestError(404, "no record format " + quote(format) + " (" + listed(record_writer_names(), "or") + ")");
    return read(access, find(access.game), [&](const Entry& e) {
      const Variant& variant = e.game.variant();
      const std::vector<std::string> kept = record_formats_of(variant);
      if (std::find(kept.begin(), kept.end(), format) == kept.end())
        throw RequestError(400, variant.rules().name + " records are kept in " + listed(kept, "or") + ", not " + format);
      GameRecord record;
      record.set_tag("Event", "Palace game");
      record.set_tag("Site", "palace serve");
      for (Side side = First; side < SideCount; ++side) record.set_tag(side == First ? "White" : "Black", variant.side_name(side));
      record.result = result_token(e.game.game_state());
      const std::string text = writer->write(record, e.game, variant.rules().notation.native);
      return json{{"format", format}, {"file", "palace-" + access.game.substr(0, 8) + writer->extension}, {"text", text}};
    });
  }

  // Makes, keeps and answers a new game on `choice`, set up by `set_up` before anything is kept
  // (its error answers the request and keeps nothing).
  template <class SetUp>
  json open_game(const VariantChoice& choice, const std::optional<TimeControl>& control, SetUp&& set_up) {
    return on_lane_for(choice, [&] {
      auto entry = std::make_shared<Entry>(choice, library.get(choice));
      set_up(*entry);
      const std::string id = random_hex();
      Table& table = entry->table;
      table.seats = {random_hex(), random_hex()};
      table.spectator = random_hex();
      if (control) table.clock.emplace(*control);
      const Access creator{id, id, Role::Creator};
      json state = seated_state(creator, *entry);  // first: a game whose state cannot be shown is not made
      state["seats"] = {{entry->game.variant().side_name(First), table.seats[First]}, {entry->game.variant().side_name(Second), table.seats[Second]}};
      store.save_keys(id, {{table.seats[First], int(Role::FirstSeat)}, {table.seats[Second], int(Role::SecondSeat)}, {table.spectator, int(Role::Spectator)}});
      save(id, *entry);
      {
        std::vector<std::shared_ptr<Entry>> dropped;
        const std::lock_guard lock(games_mutex);
        keep(id, entry, dropped);
      }
      return state;
    });
  }

  static void set_fen(Entry& entry, const std::string& fen, FenRights rights = FenRights::Exact) {
    try {
      entry.game.set_fen(fen, rights);
    } catch (const Error& e) {
      throw RequestError(400, std::string("fen: ") + e.what());
    }
  }

  // Runs `change` on the game under its lock, keeps the result and answers the new state. A change
  // that fails half-way (a rule hook erring once the move is made, or cut short by the hooks'
  // deadline, even while the new state is shown) is taken back, so that memory keeps what the store
  // holds.
  // The key's seat taken, and the game ended by the side to move's flag, as of now (the entry's
  // lock held); kept in the store when that changed anything.
  void settle(const Access& access, Entry& entry) {
    Table& table = entry.table;
    bool changed = false;
    if (access.role == Role::FirstSeat || access.role == Role::SecondSeat) {
      const Side side = access.role == Role::FirstSeat ? First : Second;
      changed = !table.taken[side];
      table.taken[side] = true;
    }
    if (table.clock && !table.ending && table.clock->flagged(now())) {
      const Side side = *table.clock->running;
      table.clock->stop(now());
      table.ending = Ending{opponent(side), entry.game.variant().side_name(side) + "'s time ran out"};
      table.draw_offer.reset();
      changed = true;
    }
    if (changed) save(access.game, entry);
  }

  json seated_state(const Access& access, const Entry& entry) {
    json state = state_json(access.key, entry);
    add_table(state, entry, access.role, now());
    return state;
  }

  // After a change: a move made charges its side's clock and withdraws the opponent's draw offer;
  // the clock then runs for the side to move, from the first move on, until the game is over.
  void after_change(Entry& entry, std::size_t plies, const std::string& fen, Side mover) {
    Table& table = entry.table;
    const Game& game = entry.game;
    const bool moved = game.history().size() > plies;
    if (moved && table.draw_offer && *table.draw_offer != mover) table.draw_offer.reset();
    if (!table.clock) return;
    const bool over = game.game_state().finished() || table.ending;
    if (over) return table.clock->stop(now());
    if (moved) table.clock->charge(now());
    if (moved || game.history().size() != plies || game.fen() != fen)
      table.clock->run(game.history().empty() ? std::nullopt : std::optional<Side>(game.side_to_move()), now());
  }

  // Runs `change` on the game under its lock, once the key may make it (check_may), keeps the
  // result and answers the new state. A change that fails half-way (a rule hook erring once the
  // move is made, or cut short by the hooks' deadline, even while the new state is shown) is taken
  // back, so that memory keeps what the store holds.
  template <class Change>
  json update(const Access& access, Need need, Change change) {
    const auto entry = find(access.game);
    return on_lane_for(entry->choice, [&] {
      const std::lock_guard lock(entry->mutex);
      settle(access, *entry);
      check_may(*entry, access.role, need);
      const std::size_t plies = entry->game.history().size();
      const std::string fen = entry->game.fen();
      const Table table = entry->table;
      try {
        const Side mover = entry->game.side_to_move();
        const json extra = change(*entry);
        after_change(*entry, plies, fen, mover);
        json state = seated_state(access, *entry);
        if (extra.is_object()) state.update(extra);
        save(access.game, *entry);
        return state;
      } catch (...) {
        const Overtime overtime;
        entry->table = table;
        take_back(access.game, *entry, plies, fen);
        throw;
      }
    });
  }

  // Reads a game under its lock. A read the hooks' deadline cut short may have left the game half
  // way through working something out: it is dropped from memory, to be read again from the store.
  template <class Read>
  json read(const Access& access, const std::shared_ptr<Entry>& entry, Read read_game) {
    return on_lane_for(entry->choice, [&] {
      const std::lock_guard lock(entry->mutex);
      try {
        settle(access, *entry);
        return read_game(std::as_const(*entry));
      } catch (const HookInterrupted&) {
        forget_game(access.game, *entry);
        throw;
      }
    });
  }

  void forget_game(const std::string& id, const Entry& entry) {
    const std::lock_guard lock(games_mutex);
    if (const auto found = games.find(id); found != games.end() && found->second.get() == &entry) games.erase(found);
  }

  // Undoes the moves made since the game had `plies` moves and showed `fen`; when that does not
  // bring it back, the game is dropped from memory, to be read again from the store when next asked.
  void take_back(const std::string& id, Entry& entry, std::size_t plies, const std::string& fen) {
    try {
      while (entry.game.history().size() > plies && entry.game.undo()) {
      }
      if (entry.game.history().size() == plies && entry.game.fen() == fen) return;
    } catch (const Error&) {
    }
    forget_game(id, entry);
  }

  // A move typed in any notation the game reads, its players' included.
  static json play(Entry& entry, const std::string& move) {
    std::string why;
    const Move japanese = PlayersNotation(entry.game.variant()).read(entry.game, move, why);
    if (!japanese && !why.empty()) throw RequestError(422, why);
    const std::string text = japanese ? entry.game.position().move_text(japanese) : move;
    if (const MoveVerdict verdict = entry.game.play(text); !verdict.accepted) throw RequestError(422, verdict.reason);
    return nullptr;
  }

  // The engine thinks on a copy of the position, without the game's lock, so that the game stays
  // readable meanwhile; its move is played only if the game is still where it was.
  json engine_move(const Access& access, const json& body) {
    int level = 3;
    if (const auto l = body.find("level"); l != body.end()) {
      if (!l->is_number_integer() || *l < 1 || *l > MaxEngineLevel)
        throw RequestError(400, "expected \"level\": a whole number from 1 to " + std::to_string(MaxEngineLevel));
      level = l->get<int>();
    }
    const auto entry = find(access.game);
    // On an upload, the whole of it takes the lane once: the search and the move it plays.
    return on_lane_for(entry->choice, [&] {
      std::optional<Position> root;
      std::size_t plies = 0;
      search::Limits limits;
      limits.depth = level;
      limits.movetime_ms = level * EngineMillisPerLevel;
      read(access, entry, [&](const Entry& e) {
        const Game& game = e.game;
        check_may(e, access.role, Need::Turn);
        refuse_if_over(game);
        root.emplace(game.position());
        plies = game.history().size();
        limits.root_moves = game.legal_moves();
        return json();
      });
      const auto think = [&] {
        search::Searcher searcher(root->variant_ptr(), 1);
        return searcher.search(*root, limits);
      };
      // A search on an upload holds no lock, so it alone may run at the lowest priority: it keeps
      // its time by the clock whatever its share of the CPU.
      const Move best = entry->choice.is_upload() ? at_low_priority(think) : think();
      if (!best) throw RequestError(409, "the engine has no move to play");
      const std::string text = root->move_text(best);
      const std::string fen = root->fen();
      return update(access, Need::Turn, [&](Entry& e) {
        if (e.game.history().size() != plies || e.game.fen() != fen)
          throw RequestError(409, "the game changed while the engine was thinking");
        play(e, text);
        return json{{"engine_move", text}};
      });
    });
  }

  // A resignation: the key's side loses (the side to move, when the key holds both).
  json resign(const Access& access) {
    return update(access, Need::AnySide, [&](Entry& e) {
      refuse_if_over(e.game);
      const Side side = *acting_side(e.table, access.role, e.game.side_to_move());
      e.table.ending = Ending{opponent(side), e.game.variant().side_name(side) + " resigned"};
      e.table.draw_offer.reset();
      return json(nullptr);
    });
  }

  // A draw offered by the key's side (the side to move, when it holds both) stands until the other
  // side accepts or declines it, or moves.
  json answer_draw(const Access& access, const std::string& answer) {
    return update(access, Need::AnySide, [&](Entry& e) {
      refuse_if_over(e.game);
      const Variant& variant = e.game.variant();
      Table& table = e.table;
      if (answer == "offer") {
        if (table.draw_offer) throw RequestError(409, variant.side_name(*table.draw_offer) + "'s draw offer stands already");
        table.draw_offer = *acting_side(table, access.role, e.game.side_to_move());
        return json(nullptr);
      }
      if (!table.draw_offer) throw RequestError(409, "no draw offer stands to " + answer);
      const Side offerer = *table.draw_offer;
      if (!table.held(access.role)[opponent(offerer)])
        throw RequestError(403, "the draw offer is " + variant.side_name(offerer) + "'s own: only " + variant.side_name(opponent(offerer)) + " may " + answer + " it");
      if (answer == "accept") table.ending = Ending{std::nullopt, "agreed by both sides"};
      table.draw_offer.reset();
      return json(nullptr);
    });
  }

  static void refuse_if_over(const Game& game) {
    if (game.game_state().finished()) throw RequestError(409, "the game is over: " + game.game_state().str(game.variant()));
  }

  // The position `ply` moves into a game (0: where it started), for reviewing it.
  json position_after(const Access& access, const std::string& ply_text) {
    const auto entry = find(access.game);
    return read(access, entry, [&](const Entry& e) {
      const Game& game = e.game;
      const std::size_t plies = game.history().size();
      const auto bad = [&] { return RequestError(400, "expected a move number from 0 to " + std::to_string(plies) + ", got " + quote(ply_text)); };
      if (ply_text.empty() || ply_text.size() > 9 || !std::all_of(ply_text.begin(), ply_text.end(), [](unsigned char c) { return std::isdigit(c) != 0; }))
        throw bad();
      const std::size_t ply = std::stoul(ply_text);
      if (ply > plies) throw bad();
      std::optional<Position> at;
      moves_written(game, nullptr, ply, &at);
      const Variant& variant = game.variant();
      json out = {{"ply", ply},
                  {"fen", at->fen()},
                  {"turn", at->side_to_move()},
                  {"pieces", pieces_json(variant, *at)},
                  {"last_move", ply == 0 ? json(nullptr) : move_points(variant.board(), game.history()[ply - 1])}};
      if (variant.has_hands()) out["hands"] = hands_json(variant, *at);
      return out;
    });
  }

  json variants() {
    json list = json::array();
    for (const std::string& name : library.shipped()) {
      json formations = json::object();
      std::string description;
      try {
        formations = library.formations(name);
        description = library.get(VariantChoice{name, {}})->rules().description;
      } catch (const RequestError&) {
        continue;  // a file that does not load is not offered
      }
      list.push_back({{"name", name}, {"formations", formations}, {"description", description}});
    }
    return {{"variants", list}, {"default", options.default_variant}};
  }

  static std::map<std::string, std::string> scripts_field(const json& body) {
    std::map<std::string, std::string> scripts;
    if (const auto s = body.find("scripts"); s != body.end()) {
      if (!s->is_object()) throw RequestError(400, "expected \"scripts\": an object of file name to Lua text");
      for (const auto& [file, text] : s->items()) {
        if (!text.is_string()) throw RequestError(400, "scripts." + file + ": expected the script's text");
        scripts[file] = text.get<std::string>();
      }
    }
    return scripts;
  }

  json upload(const json& body) {
    const std::map<std::string, std::string> scripts = scripts_field(body);
    check_room(store.upload_count(), options.max_uploads, "uploads");
    const std::string yaml = text_field(body, "yaml");
    const std::string test = body.contains("test") ? text_field(body, "test") : "";
    const std::string name = lane.run([&] { return library.upload(yaml, scripts, test); });
    return {{"variant", name}, {"formations", library.formations(name)}};
  }

  // The workshop's draft, loaded as an upload would be: its start position, drawn as a game's state.
  json check_draft(const json& body) {
    const std::map<std::string, std::string> scripts = scripts_field(body);
    const std::string yaml = text_field(body, "yaml");
    return lane.run([&] {
      const Entry draft(VariantChoice{"draft", {}}, library.check(yaml, scripts));
      json state = state_json("", draft);
      state["ok"] = true;
      return state;
    });
  }

  // A rule-test script run on the draft: every case, passed or not, with where each failure is written.
  json test_draft(const json& body) {
    const std::string yaml = text_field(body, "yaml"), test = text_field(body, "test");
    const std::map<std::string, std::string> scripts = scripts_field(body);
    const ScriptResult result = lane.run([&] { return library.test(yaml, scripts, test); });
    json cases = json::array();
    for (const CaseResult& c : result.cases) {
      json failures = json::array();
      for (const CaseFailure& f : c.failures) failures.push_back({{"line", f.mark.line}, {"column", f.mark.column}, {"message", f.message}});
      cases.push_back({{"name", c.name}, {"line", c.mark.line}, {"passed", c.passed()}, {"failures", failures}});
    }
    return {{"passed", result.passed()}, {"failed", result.failed()}, {"cases", cases}};
  }

  // Every answer is JSON; a refusal is {"error": "one line"} with a 4xx status.
  template <class Answer>
  httplib::Server::Handler route(int success, Answer answer) {
    return [success, answer](const httplib::Request& request, httplib::Response& response) {
      json out;
      try {
        out = answer(request);
        response.status = success;
      } catch (const RequestError& e) {
        out = error_body(e.what());
        response.status = e.status();
      } catch (const Error& e) {  // a rule, script or FEN the game layer turned down
        out = error_body(e.what());
        response.status = 422;
      } catch (const json::exception&) {
        out = error_body("unexpected JSON value");
        response.status = 400;
      }
      set_json(response, out);
    };
  }

  void add_routes() {
    using Request = httplib::Request;
    const std::string game = R"(/api/games/([^/]+))";
    http.Get("/api/variants", route(200, [this](const Request&) { return variants(); }));
    http.Post("/api/variants", route(201, [this](const Request& r) { return upload(body_of(r)); }));
    http.Post("/api/variants/check", route(200, [this](const Request& r) { return check_draft(body_of(r)); }));
    http.Post("/api/variants/test", route(200, [this](const Request& r) { return test_draft(body_of(r)); }));
    http.Get(R"(/api/variants/([^/]+)/source)", route(200, [this](const Request& r) {
      const StoredUpload upload = library.source(r.matches[1]);
      return json{{"variant", upload.id}, {"yaml", upload.yaml}, {"scripts", upload.scripts}, {"test", upload.test}};
    }));
    // Learnt once: the shipped variants do not change while the server runs.
    http.Get("/api/schema", route(200, [schema = variant_schema()](const Request&) { return schema; }));
    http.Post("/api/games", route(201, [this](const Request& r) { return create_game(body_of(r)); }));
    http.Post(ImportPath, route(201, [this](const Request& r) { return import_game(r); }));
    http.Get(game, route(200, [this](const Request& r) {
      const Access access = resolve(r.matches[1]);
      return read(access, find(access.game), [&](const Entry& e) { return seated_state(access, e); });
    }));
    http.Get(game + "/record", route(200, [this](const Request& r) {
      const Access access = resolve(r.matches[1]);
      return read(access, find(access.game), [](const Entry& e) {
        return json{{"start_fen", e.game.start_fen()}, {"moves", e.game.history_texts()}};
      });
    }));
    http.Get(game + "/record/([^/]*)", route(200, [this](const Request& r) { return export_game(resolve(r.matches[1]), r.matches[2]); }));
    http.Get(game + "/position/([^/]*)", route(200, [this](const Request& r) { return position_after(resolve(r.matches[1]), r.matches[2]); }));
    // A game's own address (/game/KEY) is the page: it reads the key from the address.
    http.Get(R"(/game/([^/]+))", [this](const Request&, httplib::Response& response) {
      std::ifstream file(options.web_dir / "index.html", std::ios::binary);
      if (!file) {
        response.status = 404;
        return set_json(response, error_body("no page to serve (build the web target)"));
      }
      response.set_content(std::string(std::istreambuf_iterator<char>(file), {}), "text/html; charset=utf-8");
    });
    http.Get(game + "/fen", route(200, [this](const Request& r) {
      const Access access = resolve(r.matches[1]);
      return read(access, find(access.game), [](const Entry& e) { return json{{"fen", e.game.fen()}}; });
    }));
    http.Put(game + "/fen", route(200, [this](const Request& r) {
      const json body = body_of(r);
      const std::string fen = text_field(body, "fen");
      // A position set up in the page's editor keeps no right or ghost its board no longer allows.
      const auto drop = body.find("drop_unmet_rights");
      if (drop != body.end() && !drop->is_boolean()) throw RequestError(400, "expected \"drop_unmet_rights\": true or false");
      const FenRights rights = drop != body.end() && drop->get<bool>() ? FenRights::DropUnmet : FenRights::Exact;
      return update(resolve(r.matches[1]), Need::BothSides, [&](Entry& e) { return set_fen(e, fen, rights), json(nullptr); });
    }));
    http.Post(game + "/moves", route(200, [this](const Request& r) {
      const std::string move = text_field(body_of(r), "move");
      return update(resolve(r.matches[1]), Need::Turn, [&](Entry& e) { return play(e, move); });
    }));
    http.Post(game + "/pass", route(200, [this](const Request& r) {
      return update(resolve(r.matches[1]), Need::Turn, [&](Entry& e) { return play(e, "pass"); });
    }));
    http.Post(game + "/claim", route(200, [this](const Request& r) {
      return update(resolve(r.matches[1]), Need::Turn, [&](Entry& e) {
        if (!e.game.claim_draw()) throw RequestError(409, "there is no draw to claim now");
        return json(nullptr);
      });
    }));
    http.Post(game + "/undo", route(200, [this](const Request& r) {
      return update(resolve(r.matches[1]), Need::BothSides, [&](Entry& e) {
        if (!e.game.undo()) throw RequestError(409, "nothing to undo");
        return json(nullptr);
      });
    }));
    http.Post(game + "/engine", route(200, [this](const Request& r) {
      return engine_move(resolve(r.matches[1]), body_of(r));
    }));
    http.Post(game + "/resign", route(200, [this](const Request& r) { return resign(resolve(r.matches[1])); }));
    http.Post(game + "/draw/(offer|accept|decline)", route(200, [this](const Request& r) {
      return answer_draw(resolve(r.matches[1]), r.matches[2]);
    }));
  }

  // The same-origin policy (web/README.md), checked before a body is read: the Host must name this
  // server (a page that rebinds its own name to 127.0.0.1 sends its own), and a request that changes
  // anything must be JSON (which another site's page cannot send without this server's consent)
  // from no origin or this one. Bodies come whole and plain: a chunked or compressed body could
  // grow past the limit while it is read.
  // "127.0.0.1:PORT", "localhost:PORT", set by bind; port 0 until then (Server::answer).
  std::vector<std::string> hosts{"127.0.0.1:0", "localhost:0"};
  std::pair<int, std::string> refusal(const httplib::Request& request) const {
    const std::string host = request.get_header_value("Host");
    if (std::find(hosts.begin(), hosts.end(), host) == hosts.end())
      return {403, "Host " + quote(host) + " is not this server (" + hosts.front() + " or " + hosts.back() + ")"};
    // A NUL cuts the path where the file system reads it, not where the file type is read from it:
    // /app.js%00.html would be app.js served as HTML.
    if (request.path.find('\0') != std::string::npos) return {404, "no such address"};
    if (request.has_header("Transfer-Encoding"))
      return {411, "a request body must come whole, with a Content-Length (no Transfer-Encoding)"};
    if (const std::string coding = request.get_header_value("Content-Encoding"); !coding.empty() && coding != "identity")
      return {415, "a request body must not be compressed (Content-Encoding " + quote(coding) + ")"};
    if (!changes_state(request)) return {};
    if (request.has_header("Origin") && request.get_header_value("Origin") != "http://" + hosts.front() &&
        request.get_header_value("Origin") != "http://" + hosts.back())
      return {403, "requests from the page at " + quote(request.get_header_value("Origin")) + " are refused: only this server's own page may change games"};
    // Neither type is one a form on another site may post without asking first (CORS's simple
    // types): a record comes as its own bytes, whatever their encoding; everything else as JSON.
    const std::string wanted = request.path == ImportPath ? "application/octet-stream" : "application/json";
    if (media_type(request.get_header_value("Content-Type")) != wanted)
      return {415, "expected Content-Type: " + wanted + ", not " + quote(request.get_header_value("Content-Type"))};
    return {};
  }

  void add_same_origin_policy() {
    http.set_default_headers({{"Content-Security-Policy", ContentSecurityPolicy}, {"X-Content-Type-Options", "nosniff"}});
    http.set_pre_routing_handler([this](const httplib::Request& request, httplib::Response& response) {
      const auto [status, why] = refusal(request);
      if (status == 0) return httplib::Server::HandlerResponse::Unhandled;
      response.status = status;
      response.set_header("Connection", "close");  // the body, if any, is left unread
      close_after_answer = true;
      set_json(response, error_body(why));
      return httplib::Server::HandlerResponse::Handled;
    });
  }

  // Refusals made by the HTTP library itself (a body over the limit, a path that climbs out of the
  // page's folder, an unknown address) are JSON like the API's own.
  void add_error_answers() {
    http.set_payload_max_length(MaxBodyBytes);
    http.set_error_handler([](const httplib::Request&, httplib::Response& response) {
      if (!response.body.empty()) return;
      std::string message = "no such address";
      if (response.status == 413) message = "request body over " + std::to_string(MaxBodyBytes) + " bytes";
      else if (response.status == 400) message = "bad request";
      else if (response.status != 404) message = "request refused (HTTP " + std::to_string(response.status) + ")";
      set_json(response, error_body(message));
    });
    http.set_exception_handler([](const httplib::Request&, httplib::Response& response, std::exception_ptr) {
      response.status = 500;
      set_json(response, error_body("internal error"));
    });
  }
};

Server::Server(const ServerOptions& options) : impl_(std::make_unique<Impl>(options)) {
  impl_->add_routes();
  impl_->add_error_answers();
  impl_->add_same_origin_policy();
  if (!options.web_dir.empty() && !impl_->http.set_mount_point("/", options.web_dir.string()))
    throw Error(options.web_dir.string() + ": no page to serve (build the web target)");
}

Server::~Server() = default;

int Server::bind(const std::string& host, int port) {
  const int bound = port == 0 ? impl_->http.bind_to_any_port(host) : impl_->http.bind_to_port(host, port) ? port : -1;
  if (bound <= 0) throw Error("cannot listen on " + host + ":" + std::to_string(port) + ": " + std::strerror(errno));
  impl_->hosts = {host + ":" + std::to_string(bound), "localhost:" + std::to_string(bound)};
  impl_->http.widen_backlog();
  bound_ = true;
  return bound;
}

void Server::listen() {
  impl_->http.start_gate();
  impl_->http.listen_after_bind();
  impl_->http.stop_gate();  // the requests being served are answered first
  bound_ = false;
}

void Server::stop() {
  while (bound_ && !impl_->http.is_running()) std::this_thread::yield();
  impl_->http.stop();
}

std::string Server::answer(std::string_view request) { return impl_->http.answer(request); }

}  // namespace palace::server
