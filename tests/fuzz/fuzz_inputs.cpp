#include "fuzz_inputs.h"

#include <arpa/inet.h>
#include <netinet/in.h>
#include <sys/socket.h>
#include <unistd.h>

#include <algorithm>
#include <cctype>
#include <filesystem>
#include <fstream>
#include <memory>
#include <optional>
#include <sstream>
#include <stdexcept>
#include <string>
#include <thread>
#include <vector>

#include <httplib.h>
#include <nlohmann/json.hpp>

#include "compiler/variant.h"
#include "core/error.h"
#include "game/game.h"
#include "game/rule_script.h"
#include "hooks/load_variant.h"
#include "hooks/lua_host.h"
#include "loader/config_tree.h"
#include "movegen/movegen.h"
#include "notation/gib.h"
#include "notation/replay.h"
#include "protocol/uci.h"
#include "server/connection_gate.h"
#include "server/server.h"

namespace palace::fuzz {
namespace fs = std::filesystem;

namespace {

// A folder of this process under the system's temporary one, laid out like the repository: its
// rules/, scripts/ and variants/ are links to the real ones, so inputs written beside them can
// import the shipped files by the same relative paths the shipped files use.
class Scratch {
 public:
  Scratch() {
    std::string pattern = (fs::temp_directory_path() / "palace-fuzz-XXXXXX").string();
    if (!mkdtemp(pattern.data())) throw std::runtime_error("cannot create a scratch folder");
    root_ = pattern;
    for (const char* shared : {"rules", "scripts", "variants"})
      fs::create_directory_symlink(fs::path(PALACE_SOURCE_DIR) / shared, root_ / shared);
  }
  ~Scratch() { fs::remove_all(root_); }  // removes the links, not what they point to

  // Empties a folder of the scratch, so no file of an earlier input is left to import.
  void clear(const std::string& folder) { fs::remove_all(root_ / folder); }

  fs::path path(const std::string& relative) const { return root_ / relative; }

  std::string write(const std::string& relative, std::string_view text) {
    const fs::path path = root_ / relative;
    fs::create_directories(path.parent_path());
    std::ofstream(path, std::ios::binary).write(text.data(), std::streamsize(text.size()));
    return path.string();
  }

 private:
  fs::path root_;
};

Scratch& scratch() {
  static Scratch folder;
  return folder;
}

std::vector<std::shared_ptr<const Variant>> shipped_variants() {
  std::vector<fs::path> files;
  for (const auto& entry : fs::directory_iterator(fs::path(PALACE_SOURCE_DIR) / "variants"))
    if (entry.path().extension() == ".yaml") files.push_back(entry.path());
  std::sort(files.begin(), files.end());  // the first input byte must pick the same one each run
  std::vector<std::shared_ptr<const Variant>> variants;
  for (const auto& file : files) variants.push_back(load_variant(file.string()));
  return variants;
}

const std::vector<std::shared_ptr<const Variant>>& variants() {
  static const auto loaded = shipped_variants();
  return loaded;
}

std::vector<std::string_view> split(std::string_view text, std::string_view separator, std::size_t most) {
  std::vector<std::string_view> parts;
  while (parts.size() + 1 < most) {
    const auto at = text.find(separator);
    if (at == std::string_view::npos) break;
    parts.push_back(text.substr(0, at));
    text.remove_prefix(at + separator.size());
  }
  parts.push_back(text);
  return parts;
}

// What every reader must do once it has accepted an input: move generation and the end-of-game
// verdict work on whatever position it produced.
void exercise(Game& game) {
  for (const Move& move : game.legal_moves()) game.position().move_text(move);
  game.game_state();
}

// A UCI line with its costly requests lowered (fuzz_inputs.h): a count after `perft` above 3
// becomes 3, a Hash value above 64 becomes 64. Everything else is left as the input has it.
std::string bounded_uci_line(std::string_view line) {
  std::istringstream words{std::string(line)};
  std::vector<std::string> kept;
  for (std::string word; words >> word;) kept.push_back(word);
  const bool hash = std::find(kept.begin(), kept.end(), "Hash") != kept.end();
  std::string out;
  for (std::size_t i = 0; i < kept.size(); ++i) {
    std::string word = kept[i];
    const std::string before = i > 0 ? kept[i - 1] : "";
    const int most = before == "perft" ? 3 : before == "value" && hash ? 64 : 0;
    if (most && !word.empty() && std::all_of(word.begin(), word.end(), [](unsigned char c) { return std::isdigit(c); }) &&
        (word.size() > 6 || std::stoi(word) > most))
      word = std::to_string(most);
    out += (out.empty() ? "" : " ") + word;
  }
  return out;
}

// A `palace serve` API on a free local port for the run, as starting one loads every variant.
class LiveServer {
 public:
  LiveServer() : server_(options()), port_(server_.bind("127.0.0.1", 0)), thread_([this] { server_.listen(); }) {}
  ~LiveServer() {
    server_.stop();
    thread_.join();
  }
  int port() const { return port_; }

 private:
  static server::ServerOptions options() {
    return {fs::path(PALACE_SOURCE_DIR) / "variants", "janggi", scratch().path("serve.db"), {}};
  }

  server::Server server_;
  int port_;
  std::thread thread_;
};

// Sends one request of the `http` target; nothing for a method the API has no route for.
std::optional<httplib::Result> send(httplib::Client& client, const std::string& method, const std::string& path,
                                    const std::string& body) {
  if (method == "GET") return client.Get(path);
  if (method == "POST") return client.Post(path, body, "application/json");
  if (method == "PUT") return client.Put(path, body, "application/json");
  if (method == "DELETE") return client.Delete(path);
  return std::nullopt;
}

// The string `text` as a JSON string literal.
std::string json_text(std::string_view text) { return nlohmann::json(std::string(text)).dump(-1, ' ', false, nlohmann::json::error_handler_t::replace); }

// One request of the `api` target as bytes (fuzz_inputs.h).
std::string api_request(std::string_view request, const std::string& id) {
  if (request.rfind("RAW", 0) == 0) {
    request.remove_prefix(3);
    return std::string(request);
  }
  const std::string_view head = request.substr(0, request.find('\n'));
  std::string body(head.size() < request.size() ? request.substr(head.size() + 1) : std::string_view());
  std::string method, path;
  if (head.rfind("UPLOAD", 0) == 0) {
    const auto parts = split(body, "\n#--\n", 2);
    method = "POST";
    path = "/api/variants";
    body = "{\"yaml\": " + json_text(parts[0]) + ", \"scripts\": {\"s.lua\": " +
           json_text(parts.size() > 1 ? parts[1] : "") + "}}";
  } else {
    const std::size_t space = head.find(' ');
    method = std::string(head.substr(0, space));
    path = space == std::string_view::npos ? "/" : std::string(head.substr(space + 1));
  }
  for (std::size_t at = 0; (at = path.find("{id}", at)) != std::string::npos; at += id.size()) path.replace(at, 4, id);
  if (path.empty() || path[0] != '/') path.insert(0, "/");
  for (char& c : path)
    if (c == ' ' || c == '\r' || c == '\n') c = '+';  // one request line
  return method + " " + path + " HTTP/1.1\r\nHost: 127.0.0.1:0\r\nContent-Type: application/json\r\nContent-Length: " +
         std::to_string(body.size()) + "\r\n\r\n" + body;
}

// The status and body of an answer; throws std::logic_error when it is not a whole HTTP answer.
std::pair<int, std::string> read_answer(const std::string& answer, const std::string& asked) {
  if (answer.rfind("HTTP/1.1 ", 0) != 0 || answer.size() < 12)
    throw std::logic_error("no HTTP answer to " + asked + ": " + answer.substr(0, 200));
  const int status = std::atoi(answer.c_str() + 9);
  const std::size_t end = answer.find("\r\n\r\n");
  if (end == std::string::npos) throw std::logic_error("an answer without its end of headers to " + asked);
  return {status, answer.substr(end + 4)};
}

}  // namespace

void rule_files(std::string_view input) {
  scratch().clear("work");
  const auto files = split(input, "\n#@@\n", 8);
  std::string variant_file;
  for (std::size_t i = 0; i < files.size(); ++i) {
    const std::string path = scratch().write("work/fuzz" + std::to_string(i) + ".yaml", files[i]);
    if (i == 0) variant_file = path;
  }
  // Each file as text, as the server and the Python module read a draft before writing it out.
  for (const std::string_view file : files) {
    try {
      ConfigNode::parse_string(std::string(file), "variant.yaml");
    } catch (const Error&) {
    }
  }
  try {
    Game game(load_variant(variant_file));
    exercise(game);
  } catch (const Error&) {
  }
}

void hook_script(std::string_view input) {
  // The global functions the script defines, by the plain `function NAME(` form.
  std::vector<std::string> functions;
  for (std::size_t at = input.find("function "); at != std::string_view::npos;
       at = input.find("function ", at + 1)) {
    std::size_t end = at + 9;
    while (end < input.size() && (std::isalnum(static_cast<unsigned char>(input[end])) || input[end] == '_')) ++end;
    if (end > at + 9) functions.emplace_back(input.substr(at + 9, end - at - 9));
  }
  const auto defines = [&](const std::string& name) {
    return std::find(functions.begin(), functions.end(), name) != functions.end();
  };

  const std::string script = scratch().write("work/fuzz.lua", input);
  std::string pieces;
  for (const char* hook : {"may_jump", "may_capture"})
    if (defines(hook)) pieces += std::string("      ") + hook + ": fuzz." + hook + "\n";
  if (!pieces.empty()) pieces = "  cannon:\n    hooks:\n" + pieces;
  if (defines("allow_move"))
    for (const char* piece : {"soldier", "chariot", "horse"})
      pieces += std::string("  ") + piece + ":\n    hooks:\n      allow_move: fuzz.allow_move\n";
  const std::string yaml = "import: [../variants/janggi.yaml]\nscripts:\n  fuzz: fuzz.lua\n" +
                           (pieces.empty() ? "" : "pieces:\n" + pieces);
  try {
    Game game(load_variant(scratch().write("work/hooked.yaml", yaml)));
    exercise(game);
    if (const auto moves = game.legal_moves(); !moves.empty()) {
      game.play(game.position().move_text(moves.front()));
      exercise(game);
    }
  } catch (const Error&) {
  }

  hooks::LuaHost host;
  try {
    host.load_script(script, "fuzz.lua");
    const hooks::Value piece = hooks::Value::table({{hooks::Value::string("name"), hooks::Value::string("cannon")},
                                                    {hooks::Value::string("royal"), hooks::Value::boolean(false)}});
    for (const auto& name : functions) {
      try {
        if (host.has_function("fuzz.lua", name)) host.call("fuzz.lua", name, {piece, hooks::Value::integer(1)});
      } catch (const Error&) {
      }
    }
  } catch (const Error&) {
  }
}

void fen(std::string_view input) {
  const std::string text(input);
  for (const auto& variant : variants()) {
    Game game(variant);
    try {
      game.set_fen(text);
    } catch (const Error&) {
      continue;
    }
    // What the position writes, it must read back as itself: an Error here escapes, a finding.
    const std::string written = game.fen();
    game.set_fen(written);
    if (game.fen() != written) throw std::logic_error("FEN does not read back as itself: " + written);
    exercise(game);
  }
}

void move_text(std::string_view input) {
  if (input.empty()) return;
  Game game(variants()[static_cast<unsigned char>(input[0]) % variants().size()]);
  input.remove_prefix(1);
  int played = 0;
  try {
  while (!input.empty() && played < 64) {
    const auto end = input.find_first_of(" \n");
    const std::string_view text = input.substr(0, end);
    input.remove_prefix(end == std::string_view::npos ? input.size() : end + 1);
    if (text.empty()) continue;
    ++played;
    if (text == "undo")
      game.undo();
    else
      game.play(std::string(text));
    game.is_in_check(game.side_to_move());
    exercise(game);
  }
  } catch (const Error&) {
  }
}

void rule_script(std::string_view input) {
  try {
    run_rule_script(scratch().write("tests/rules/fuzz.yaml", input));
  } catch (const Error&) {
  }
}

void record(std::string_view input) {
  if (input.empty()) return;
  // The first byte picks the format the rest is read as.
  constexpr const char* Formats[] = {"pgn", "kif", "csa", "gib"};  // "p" PGN, "a" KIF, "b" CSA, "g" .gib
  const RecordFormat& format = *record_format_named(Formats[static_cast<unsigned char>(input[0]) % 4]);
  input.remove_prefix(1);
  static VariantCatalog catalog((fs::path(PALACE_SOURCE_DIR) / "variants").string());
  std::vector<GameRecord> games;
  try {
    games = read_records(input, format);
  } catch (const Error&) {
    return;
  }
  for (GameRecord& game : games) {
    try {
      const auto variant = catalog.find(game, format.variant);
      apply_formation_tags(game, variant);
      Replay replay = replay_record(game, variant);
      exercise(replay.game);
      if (replay.game.history().size() != game.moves.size() || !game.problem.empty()) continue;
      // A whole game, written as PGN in its variant's notation, must read back as that one game:
      // an Error here escapes, a finding.
      const GameRecord rewritten = rewrite_record(game, replay.game, variant->rules().notation.native);
      const std::vector<GameRecord> again = read_pgn(write_pgn(rewritten));
      if (again.size() != 1 || again[0].moves != rewritten.moves || !again[0].problem.empty())
        throw std::logic_error("a rewritten record does not read back as itself");
    } catch (const Error&) {
    }
  }
}

void uci(std::string_view input) {
  // One engine for the run, as starting one reads every variant file (a second under the
  // sanitizers). Each input finds it as new: a new game, 1 MB of hash, and the default variant
  // again after an input that set options.
  static const std::string default_variant = PALACE_SOURCE_DIR "/variants/janggi.yaml";
  static std::vector<std::string> said;
  static protocol::UciEngine engine({PALACE_SOURCE_DIR "/variants", default_variant},
                                    [](const std::string& line) { said.push_back(line); });
  static bool options_set = true;
  if (options_set) engine.handle("setoption name VariantFile value " + default_variant);
  engine.handle("setoption name Hash value 1");
  engine.handle("ucinewgame");
  said.clear();
  options_set = false;
  const auto lines = split(input, "\n", 64);
  for (std::size_t i = 0; i < lines.size(); ++i) {
    const std::string line = bounded_uci_line(lines[i]);
    options_set = options_set || line.rfind("setoption", 0) == 0;
    if (!engine.handle(line)) return;
    if (line.rfind("go", 0) == 0) engine.handle("stop");
    engine.handle("isready");
    if (said.empty() || said.back() != "readyok")
      throw std::logic_error("no readyok after line " + std::to_string(i + 1) + ": " + line);
  }
}

void http(std::string_view input) {
  static LiveServer live;
  httplib::Client client("127.0.0.1", live.port());
  std::string id = "none";
  for (const std::string_view request : split(input, "\n#@@\n", 16)) {
    const std::string_view head = request.substr(0, request.find('\n'));
    const std::string body(head.size() < request.size() ? request.substr(head.size() + 1) : std::string_view());
    const std::size_t space = head.find(' ');
    const std::string method(head.substr(0, space));
    std::string path(space == std::string_view::npos ? "/" : head.substr(space + 1));
    for (std::size_t at = 0; (at = path.find("{id}", at)) != std::string::npos; at += id.size()) path.replace(at, 4, id);
    if (path.empty() || path[0] != '/') path.insert(0, "/");
    std::optional<httplib::Result> answer = send(client, method, path, body);
    if (!answer) continue;
    const std::string asked = method + " " + path;
    const httplib::Result& result = *answer;
    if (!result) throw std::logic_error("no answer to " + asked + ": " + httplib::to_string(result.error()));
    if (result->status >= 500) throw std::logic_error(asked + " answered " + std::to_string(result->status) + ": " + result->body);
    const nlohmann::json json = nlohmann::json::parse(result->body, nullptr, false);
    if (json.is_discarded()) throw std::logic_error(asked + " answered with a body that is not JSON: " + result->body);
    if (const auto created = json.find("id"); created != json.end() && created->is_string()) id = *created;
  }
}

}  // namespace palace::fuzz

namespace palace::fuzz {

void api(std::string_view input) {
  // Scratch folder and store of its own, the server kept for the run as it loads every variant.
  static server::Server server({fs::path(PALACE_SOURCE_DIR) / "variants", "janggi", scratch().path("api.db"), {}, 4, 50, 20});
  std::string id = "none";
  for (const std::string_view request : split(input, "\n#@@\n", 16)) {
    const std::string bytes = api_request(request, id);
    if (bytes.empty()) continue;  // a raw request of no bytes is no request: nothing is owed an answer
    const std::string asked = bytes.substr(0, std::min<std::size_t>(bytes.find('\n'), 120));
    const auto [status, body] = read_answer(server.answer(bytes), asked);
    if (status >= 500 && status != 507) throw std::logic_error(asked + " answered " + std::to_string(status) + ": " + body);
    if (body.empty()) continue;
    const nlohmann::json json = nlohmann::json::parse(body, nullptr, false);
    if (json.is_discarded()) throw std::logic_error(asked + " answered with a body that is not JSON: " + body.substr(0, 200));
    if (status != 201) continue;
    if (const auto game = json.find("id"); game != json.end() && game->is_string())
      id = *game;
    else if (const auto upload = json.find("variant"); upload != json.end() && upload->is_string())
      id = *upload;
  }
}

namespace {

// The Lua source of the `hook_answers` value: each byte is one step of a stack machine whose
// steps push nil, a boolean, an integer, a float, a string, a new table, or a table already made
// (sharing and cycles), or store the top value into the table below it under a key.
std::string hook_value_source(std::string_view program) {
  std::string lua = "local s, t = {}, {}\n";
  int depth = 0, tables = 0;
  const auto push = [&](const std::string& expression) {
    lua += "s[" + std::to_string(++depth) + "] = " + expression + "\n";
  };
  for (std::size_t i = 0; i < program.size() && i < 512; ++i) {
    const auto byte = static_cast<unsigned char>(program[i]);
    const int arg = byte >> 3;
    switch (byte & 7) {
      case 0: push(arg % 2 ? "true" : "nil"); break;
      case 1: push(std::to_string(arg - 8)); break;
      case 2: push(arg % 3 == 0 ? "0.5" : arg % 3 == 1 ? "1/0" : "-(0/0)"); break;
      case 3: push(json_text(std::string(1, char('a' + arg % 8)) + std::to_string(1 + arg / 8))); break;
      case 4: push("{}"); lua += "t[" + std::to_string(++tables) + "] = s[" + std::to_string(depth) + "]\n"; break;
      case 5: if (tables > 0) push("t[" + std::to_string(1 + arg % tables) + "]"); break;
      case 6:  // s[depth-1][key] = s[depth], the key an index or a field name
        if (depth >= 2) {
          const std::string key = arg < 16 ? std::to_string(arg % 8 + 1) : json_text(std::string(arg % 2 ? "to" : "only"));
          lua += "if type(s[" + std::to_string(depth - 1) + "]) == 'table' then s[" + std::to_string(depth - 1) + "][" + key +
                 "] = s[" + std::to_string(depth) + "] end\n";
          lua += "s[" + std::to_string(depth--) + "] = nil\n";
        }
        break;
      default: push(json_text(std::string("abcdefgh").substr(arg % 8, 1) + std::to_string(1 + arg % 8))); break;  // a point
    }
  }
  return lua + "return s[1]\n";
}

}  // namespace

void hook_answers(std::string_view input) {
  if (input.empty()) return;
  static const char* const hooks[] = {"add_moves", "allow_move", "after_move"};
  const char* hook = hooks[static_cast<unsigned char>(input[0]) % 3];
  const std::string value = hook_value_source(input.substr(1));
  scratch().clear("work");
  scratch().write("work/s.lua", "local function answer()\n" + value + "end\nfunction h() return answer() end\n");
  const std::string yaml = "import: [../variants/chess.yaml]\nname: hooked\nscripts:\n  s: s.lua\npieces:\n  knight: {hooks: {" +
                           std::string(hook) + ": s.h}}\n";
  try {
    Game game(load_variant(scratch().write("work/hooked.yaml", yaml)));
    exercise(game);
    if (const auto moves = game.legal_moves(); !moves.empty()) {
      game.play(game.position().move_text(moves.front()));
      exercise(game);
    }
    Position pos = game.position();
    perft(pos, 2);
  } catch (const Error&) {
  }
}

namespace {

// The `http_wire` target's server: its requests must arrive whole in 300 ms, so an input's pauses
// reach that deadline.
class WireServer {
 public:
  WireServer() : server_(options()), port_(server_.bind("127.0.0.1", 0)), thread_([this] { server_.listen(); }) {}
  ~WireServer() {
    server_.stop();
    thread_.join();
  }
  int port() const { return port_; }

 private:
  static server::ServerOptions options() {
    server::ServerOptions o{fs::path(PALACE_SOURCE_DIR) / "variants", "janggi", scratch().path("wire.db"), {}};
    o.request_deadline = std::chrono::milliseconds(300);
    return o;
  }

  server::Server server_;
  int port_;
  std::thread thread_;
};

int connect_to(int port) {
  const int fd = ::socket(AF_INET, SOCK_STREAM, 0);
  sockaddr_in address{};
  address.sin_family = AF_INET;
  address.sin_port = htons(std::uint16_t(port));
  address.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  if (fd < 0 || ::connect(fd, reinterpret_cast<const sockaddr*>(&address), sizeof address) != 0)
    throw std::runtime_error("cannot connect to the server");
  const timeval wait{10, 0};  // past it, a connection the server neither answers nor closes is a finding
  ::setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &wait, sizeof wait);
  return fd;
}

// Everything the server sends on `fd` until it closes; throws when it neither closes nor sends.
std::string read_to_end(int fd) {
  std::string got;
  char buffer[4096];
  for (;;) {
    const ssize_t n = ::recv(fd, buffer, sizeof buffer, 0);
    if (n > 0) {
      got.append(buffer, std::size_t(n));
      continue;
    }
    if (n == 0 || errno == ECONNRESET) return got;
    if (errno == EINTR) continue;
    throw std::logic_error("a connection neither answered nor closed in 10 s: " + got.substr(0, 200));
  }
}

// Checks a connection's answers one by one: whole HTTP answers below 500 (503, a cap, excepted).
void check_answers(const std::string& answers) {
  for (std::size_t at = 0; at < answers.size();) {
    const std::size_t end = answers.find("\r\n\r\n", at);
    if (answers.compare(at, 9, "HTTP/1.1 ") != 0 || end == std::string::npos)
      throw std::logic_error("not a whole HTTP answer: " + answers.substr(at, 200));
    const int status = std::atoi(answers.c_str() + at + 9);
    if (status >= 500 && status != 503) throw std::logic_error("answered " + answers.substr(at, 200));
    std::size_t length = 0;
    const std::string head = answers.substr(at, end - at);
    if (const std::size_t field = head.find("Content-Length: "); field != std::string::npos) length = std::stoul(head.substr(field + 16));
    at = end + 4 + length;
    if (at > answers.size()) throw std::logic_error("an answer cut short: " + head);
  }
}

}  // namespace

void http_wire(std::string_view input) {
  static WireServer live;
  const server::GateLimits limits;
  server::scan_request(input, limits);
  const std::string host = "127.0.0.1:" + std::to_string(live.port());
  std::array<int, 3> fds{-1, -1, -1};
  const auto closer = [&] {
    for (int& fd : fds)
      if (fd >= 0) ::close(fd), fd = -1;
  };
  try {
    for (const std::string_view piece : split(input, "\n#@@\n", 16)) {
      if (piece.empty()) continue;
      const unsigned char first = static_cast<unsigned char>(piece[0]);
      int& fd = fds[first % 3];
      std::string bytes(piece.substr(1));
      server::scan_request(bytes, limits);
      std::this_thread::sleep_for(std::chrono::milliseconds(first / 3 % 4 * 40));
      if (bytes == "close") {
        if (fd >= 0) ::close(fd), fd = -1;
        continue;
      }
      for (std::size_t at = 0; (at = bytes.find("{host}", at)) != std::string::npos; at += host.size()) bytes.replace(at, 6, host);
      if (fd < 0) fd = connect_to(live.port());
      ::send(fd, bytes.data(), bytes.size(), MSG_NOSIGNAL);
    }
    for (int fd : fds)
      if (fd >= 0) ::shutdown(fd, SHUT_WR);
    for (int fd : fds)
      if (fd >= 0) check_answers(read_to_end(fd));
  } catch (...) {
    closer();
    throw;
  }
  closer();
  httplib::Client client("127.0.0.1", live.port());
  client.set_read_timeout(10);
  const auto answer = client.Get("/api/variants");
  if (!answer || answer->status != 200)
    throw std::logic_error("the server stopped answering: " + (answer ? std::to_string(answer->status) : httplib::to_string(answer.error())));
}

}  // namespace palace::fuzz
