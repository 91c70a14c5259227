// The JSON API of `palace serve`, over HTTP, against a server started on a free local port.
#include <gtest/gtest.h>
#include <httplib.h>
#include <sqlite3.h>

#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <sqlite3.h>
#include <arpa/inet.h>
#include <netinet/in.h>
#include <sys/socket.h>
#include <unistd.h>

#include <chrono>
#include <set>
#include <thread>

#include "core/text_file.h"
#include "server/game_store.h"
#include "server/server.h"
#include "server/variant_library.h"

namespace palace::server {
namespace {

namespace fs = std::filesystem;
using nlohmann::json;

// A server on 127.0.0.1, its database and page in a fresh folder; restart() keeps the database.
class ServerApi : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = fs::temp_directory_path() / ("palace-server-test-" + std::to_string(::getpid()) + "-" +
                                         ::testing::UnitTest::GetInstance()->current_test_info()->name());
    fs::remove_all(dir_);
    fs::create_directories(dir_ / "web");
    std::ofstream(dir_ / "web" / "index.html") << "<p>board</p>";
    start();
  }
  void TearDown() override {
    stop();
    fs::remove_all(dir_);
  }

  void start() {
    ServerOptions options = limits_;
    options.variants_dir = fs::path(PALACE_SOURCE_DIR) / "variants";
    options.default_variant = "janggi";
    options.db_file = dir_ / "games.db";
    options.web_dir = dir_ / "web";
    server_ = std::make_unique<Server>(options);
    port_ = server_->bind("127.0.0.1", 0);
    thread_ = std::thread([this] { server_->listen(); });
    client_ = std::make_unique<httplib::Client>("127.0.0.1", port_);
    client_->set_read_timeout(30);
  }
  void stop() {
    server_->stop();
    thread_.join();
    server_.reset();
  }
  void restart() {
    stop();
    start();
  }

  // The answer's status and JSON body.
  std::pair<int, json> call(const std::string& method, const std::string& path, const std::string& body = "") {
    httplib::Result r = method == "GET"   ? client_->Get(path)
                        : method == "PUT" ? client_->Put(path, body, "application/json")
                                          : client_->Post(path, body, "application/json");
    if (!r) return {0, json()};
    return {r->status, json::parse(r->body)};
  }
  std::pair<int, json> post(const std::string& path, const json& body) { return call("POST", path, body.dump()); }
  json new_game(const json& body = json::object()) {
    auto [status, state] = post("/api/games", body);
    EXPECT_EQ(status, 201) << state.dump();
    return state;
  }
  static std::string piece_at(const json& state, const std::string& square) {
    for (const json& p : state["pieces"])
      if (p["square"] == square) return p["kind"];
    return "";
  }

  ServerOptions limits_;  // the caps a test sets before restart()
  fs::path dir_;
  std::unique_ptr<Server> server_;
  std::thread thread_;
  int port_ = 0;
  std::unique_ptr<httplib::Client> client_;
};

TEST_F(ServerApi, ListsTheShippedVariantsWithTheirFormations) {
  auto [status, list] = call("GET", "/api/variants");
  ASSERT_EQ(status, 200);
  EXPECT_EQ(list["default"], "janggi");
  json janggi, chess;
  for (const json& v : list["variants"]) {
    if (v["name"] == "janggi") janggi = v;
    if (v["name"] == "chess") chess = v;
  }
  EXPECT_EQ(janggi["formations"]["cho"],
            json({"inner-elephant", "outer-elephant", "left-elephant", "right-elephant"}));
  EXPECT_EQ(janggi["formations"]["han"].size(), 4u);
  EXPECT_TRUE(chess["formations"].empty());
}

TEST_F(ServerApi, PlaysAHorseMoveAndRefusesABlockedElephantWithItsReason) {
  const json state = new_game();
  EXPECT_EQ(state["name"], "janggi");
  EXPECT_EQ(state["turn_name"], "cho");
  EXPECT_EQ(state["legal"]["b10"], json({"a8", "c8"}));
  auto [status, after] = post("/api/games/" + state["id"].get<std::string>() + "/moves", {{"move", "b10c8"}});
  ASSERT_EQ(status, 200) << after.dump();
  EXPECT_EQ(after["moves"], json({"b10c8"}));
  EXPECT_EQ(after["turn_name"], "han");
  EXPECT_EQ(after["last_move"], json({"b10", "c8"}));
  auto [refused, error] = post("/api/games/" + state["id"].get<std::string>() + "/moves", {{"move", "c1a4"}});
  EXPECT_EQ(refused, 422);
  EXPECT_EQ(error["error"], "elephant on c1 is blocked at b3");
  auto [_, unchanged] = call("GET", "/api/games/" + state["id"].get<std::string>());
  EXPECT_EQ(unchanged["moves"], json({"b10c8"}));
}

TEST_F(ServerApi, AFormationIsChosenByNamePerSide) {
  const json state = new_game({{"variant", "janggi"}, {"formations", {{"cho", "outer-elephant"}, {"han", "left-elephant"}}}});
  EXPECT_EQ(piece_at(state, "b10"), "elephant");
  EXPECT_EQ(piece_at(state, "c10"), "horse");
  EXPECT_EQ(piece_at(state, "b1"), "elephant");
  EXPECT_EQ(piece_at(state, "c1"), "horse");
  EXPECT_EQ(piece_at(state, "g1"), "elephant");
  EXPECT_EQ(state["formations"], json({{"cho", "outer-elephant"}, {"han", "left-elephant"}}));
  auto [status, error] = post("/api/games", {{"variant", "janggi"}, {"formations", {{"cho", "no-such"}}}});
  EXPECT_EQ(status, 400);
  EXPECT_EQ(error["error"], "no formation named \"no-such\" for cho (known: inner-elephant, outer-elephant, left-elephant, "
                            "right-elephant)");
  std::tie(status, error) = post("/api/games", {{"variant", "janggi"}, {"formations", {{"blue", "inner-elephant"}}}});
  EXPECT_EQ(status, 400);
  EXPECT_EQ(error["error"], "no side named \"blue\"");
  std::tie(status, error) = post("/api/games", {{"variant", "chess"}, {"formations", {{"white", "inner-elephant"}}}});
  EXPECT_EQ(status, 400);
  EXPECT_EQ(error["error"], "no formation named \"inner-elephant\" for white (its set-up has no formation)");
}

TEST_F(ServerApi, PassUndoFenAndRecord) {
  json state = new_game({{"variant", "janggi-modern"}});
  const std::string id = state["id"];
  EXPECT_TRUE(state["can_pass"]);
  auto [passed, after_pass] = post("/api/games/" + id + "/pass", json::object());
  ASSERT_EQ(passed, 200) << after_pass.dump();
  EXPECT_EQ(after_pass["moves"], json({"pass"}));
  auto [undone, after_undo] = post("/api/games/" + id + "/undo", json::object());
  EXPECT_EQ(undone, 200);
  EXPECT_TRUE(after_undo["moves"].empty());
  auto [nothing, error] = post("/api/games/" + id + "/undo", json::object());
  EXPECT_EQ(nothing, 409);
  EXPECT_EQ(error["error"], "nothing to undo");

  const json chess = new_game({{"variant", "chess"}});
  const std::string cid = chess["id"];
  const std::string fen = "4k3/8/8/8/8/8/4P3/4K3 w - - 0 1";
  auto [set, from_fen] = call("PUT", "/api/games/" + cid + "/fen", json{{"fen", fen}}.dump());
  ASSERT_EQ(set, 200) << from_fen.dump();
  EXPECT_EQ(from_fen["fen"], fen);
  EXPECT_EQ(from_fen["start_fen"], fen);
  auto [bad, bad_fen] = call("PUT", "/api/games/" + cid + "/fen", json{{"fen", "nonsense"}}.dump());
  EXPECT_EQ(bad, 400);
  EXPECT_EQ(bad_fen["error"].get<std::string>().rfind("fen: ", 0), 0u) << bad_fen.dump();
  post("/api/games/" + cid + "/moves", {{"move", "e2e4"}});
  auto [got, record] = call("GET", "/api/games/" + cid + "/record");
  EXPECT_EQ(got, 200);
  EXPECT_EQ(record, json({{"start_fen", fen}, {"moves", {"e2e4"}}}));
  auto [exported, fen_answer] = call("GET", "/api/games/" + cid + "/fen");
  EXPECT_EQ(fen_answer["fen"], "4k3/8/8/8/4P3/8/8/4K3 b - e3 0 1");
}

// A record file posted as its bytes becomes a game on the variant asked for (issue 57's import),
// and a game is written back in each format its players keep records in.
TEST_F(ServerApi, ARecordFileBecomesAGameAndAGameIsWrittenInItsPlayersFormats) {
  const auto import = [&](const std::string& variant, const std::string& file, const std::string& bytes) {
    httplib::Result r = client_->Post("/api/games/import?variant=" + variant + "&file=" + file, bytes, "application/octet-stream");
    return r ? std::pair<int, json>{r->status, json::parse(r->body)} : std::pair<int, json>{0, json()};
  };
  const std::string kif = read_text_file(fs::path(PALACE_SOURCE_DIR) / "tests/records/shogi-jt-2014.kif", 1 << 20);
  auto [made, shogi] = import("shogi", "jt.kif", kif);
  ASSERT_EQ(made, 201) << shogi.dump();
  EXPECT_EQ(shogi["moves"].size(), 107u);
  EXPECT_EQ(shogi["record_formats"], json({"pgn", "kif", "ki2", "csa"}));
  auto [written, csa] = call("GET", "/api/games/" + shogi["id"].get<std::string>() + "/record/csa");
  ASSERT_EQ(written, 200) << csa.dump();
  EXPECT_EQ(csa["file"].get<std::string>().substr(csa["file"].get<std::string>().size() - 4), ".csa");
  EXPECT_NE(csa["text"].get<std::string>().find("+7776FU"), std::string::npos) << csa["text"];
  // Written and read again, the game is the same.
  auto [again, reread] = import("shogi", "again.csa", csa["text"]);
  ASSERT_EQ(again, 201) << reread.dump();
  EXPECT_EQ(reread["moves"], shogi["moves"]);

  auto [chess_made, chess] = import("chess", "g.pgn", "1. e4 e5 2. Nf3 Nc6 *");
  ASSERT_EQ(chess_made, 201) << chess.dump();
  EXPECT_EQ(chess["moves"], json({"e2e4", "e7e5", "g1f3", "b8c6"}));
  EXPECT_EQ(chess["record_formats"], json({"pgn"}));
  auto [pgn_status, pgn] = call("GET", "/api/games/" + chess["id"].get<std::string>() + "/record/pgn");
  EXPECT_EQ(pgn_status, 200);
  EXPECT_NE(pgn["text"].get<std::string>().find("1. e4 e5 2. Nf3 Nc6 *"), std::string::npos) << pgn["text"];
  auto [kif_status, kif_refusal] = call("GET", "/api/games/" + chess["id"].get<std::string>() + "/record/kif");
  EXPECT_EQ(kif_status, 400);
  EXPECT_EQ(kif_refusal["error"], "chess records are kept in pgn, not kif");
  auto [zip_status, zip] = call("GET", "/api/games/" + chess["id"].get<std::string>() + "/record/zip");
  EXPECT_EQ(zip_status, 404);
  EXPECT_EQ(zip["error"], "no record format \"zip\" (pgn, gib, kif, ki2 or csa)");

  // Refused, and nothing kept: an illegal move, a file with no game, a game with no moves, JSON.
  const auto kept = [&] { return GameStore((dir_ / "games.db").string()).game_count(); };
  const std::size_t games = kept();
  auto [illegal, illegal_error] = import("chess", "g.pgn", "1. e4 e5 2. Ke3 *");
  EXPECT_EQ(illegal, 400);
  EXPECT_EQ(illegal_error["error"], "record: move 2 (white) \"Ke3\": a king cannot move from e1 to e3");
  auto [empty, empty_error] = import("chess", "g.pgn", "");
  EXPECT_EQ(empty, 400);
  EXPECT_EQ(empty_error["error"], "record: no game in it");
  auto [no_moves, no_moves_error] = import("chess", "g.pgn", "[Event \"x\"]\n\n*\n");
  EXPECT_EQ(no_moves, 400);
  EXPECT_EQ(no_moves_error["error"], "record: its first game has no moves");
  auto [as_json, json_error] = post("/api/games/import?variant=chess", {{"record", "1. e4 *"}});
  EXPECT_EQ(as_json, 415);
  EXPECT_EQ(json_error["error"], "expected Content-Type: application/octet-stream, not \"application/json\"");
  EXPECT_EQ(kept(), games);
}

// The page's position editor (issue 57): a set-up keeps only the rights and the en-passant ghost
// its board allows; a typed FEN is read exactly, and refused for the same fields.
TEST_F(ServerApi, AnEditedPositionDropsTheRightsItsBoardNoLongerAllows) {
  const std::string id = new_game({{"variant", "chess"}})["id"];
  const std::string edited = "6k1/8/5P1Q/8/8/8/8/6K1 w KQkq e6 0 1";
  auto [exact, refusal] = call("PUT", "/api/games/" + id + "/fen", json{{"fen", edited}}.dump());
  EXPECT_EQ(exact, 400);
  EXPECT_EQ(refusal["error"], "fen: FEN rights: 'K' needs the king on e1 and the rook on h1");
  auto [set, state] = call("PUT", "/api/games/" + id + "/fen", json{{"fen", edited}, {"drop_unmet_rights", true}}.dump());
  ASSERT_EQ(set, 200) << state.dump();
  EXPECT_EQ(state["fen"], "6k1/8/5P1Q/8/8/8/8/6K1 w - - 0 1");
  auto [kept, with_rook] = call("PUT", "/api/games/" + id + "/fen",
                                json{{"fen", "r3k3/8/8/8/8/8/8/4K2R w KQkq - 0 1"}, {"drop_unmet_rights", true}}.dump());
  ASSERT_EQ(kept, 200) << with_rook.dump();
  EXPECT_EQ(with_rook["fen"], "r3k3/8/8/8/8/8/8/4K2R w Kq - 0 1");
  auto [typo, typo_error] = call("PUT", "/api/games/" + id + "/fen", json{{"fen", "4k3/8/8/8/8/8/8/4K3 w X - 0 1"}, {"drop_unmet_rights", true}}.dump());
  EXPECT_EQ(typo, 400);
  EXPECT_EQ(typo_error["error"], "fen: FEN rights: unknown right \"X\"");
  auto [odd, odd_error] = call("PUT", "/api/games/" + id + "/fen", json{{"fen", edited}, {"drop_unmet_rights", "yes"}}.dump());
  EXPECT_EQ(odd, 400);
  EXPECT_EQ(odd_error["error"], "expected \"drop_unmet_rights\": true or false");
  EXPECT_EQ(call("GET", "/api/games/" + id + "/fen").second["fen"], "r3k3/8/8/8/8/8/8/4K2R w Kq - 0 1");
}

TEST_F(ServerApi, CheckmateIsReportedInWords) {
  const json state = new_game({{"variant", "chess"}});
  const std::string id = state["id"];
  json last;
  for (const char* move : {"f2f3", "e7e5", "g2g4", "d8h4"}) {
    auto [status, answer] = post("/api/games/" + id + "/moves", {{"move", move}});
    ASSERT_EQ(status, 200) << move << answer.dump();
    last = answer;
  }
  EXPECT_TRUE(last["check"]);
  EXPECT_EQ(last["check_square"], "e1");
  EXPECT_EQ(last["result"]["text"], "black wins: checkmate");
  EXPECT_EQ(last["result"]["winner"], "black");
  EXPECT_TRUE(last["legal_moves"].empty());
  auto [status, error] = post("/api/games/" + id + "/moves", {{"move", "e1e2"}});
  EXPECT_EQ(status, 422);
  EXPECT_EQ(error["error"], "the game is over: black wins: checkmate");
}

TEST_F(ServerApi, ARepetitionDrawIsClaimedAndKeptOverARestart) {
  const std::string id = new_game({{"variant", "chess"}})["id"];
  auto [early, refusal] = post("/api/games/" + id + "/claim", json::object());
  EXPECT_EQ(early, 409);
  EXPECT_EQ(refusal["error"], "there is no draw to claim now");
  json last;
  for (const char* move : {"g1f3", "g8f6", "f3g1", "f6g8", "g1f3", "g8f6", "f3g1", "f6g8"}) {
    auto [status, answer] = post("/api/games/" + id + "/moves", {{"move", move}});
    ASSERT_EQ(status, 200) << move << answer.dump();
    last = answer;
  }
  EXPECT_EQ(last["result"]["claimable"], "repetition");
  EXPECT_EQ(last["result"]["explanation"], "the position has occurred 3 times; White may claim a draw");
  auto [status, claimed] = post("/api/games/" + id + "/claim", json::object());
  EXPECT_EQ(status, 200);
  EXPECT_EQ(claimed["result"]["text"], "draw: repetition");
  restart();
  auto [again, reloaded] = call("GET", "/api/games/" + id);
  EXPECT_EQ(again, 200);
  EXPECT_EQ(reloaded["result"]["text"], "draw: repetition");
}

TEST_F(ServerApi, HandsFillByCapturesAndEmptyByDrops) {
  EXPECT_FALSE(new_game({{"variant", "chess"}}).contains("hands"));
  const json state = new_game({{"variant", "crazyhouse"}});
  const std::string id = state["id"];
  EXPECT_EQ(state["hands"], json({{"white", json::object()}, {"black", json::object()}}));
  json last;
  for (const char* move : {"e2e4", "d7d5", "e4d5", "d8d5"}) {
    auto [status, answer] = post("/api/games/" + id + "/moves", {{"move", move}});
    ASSERT_EQ(status, 200) << move << answer.dump();
    last = answer;
  }
  EXPECT_EQ(last["hands"], json({{"white", {{"pawn", 1}}}, {"black", {{"pawn", 1}}}}));
  // A drop is a legal move by its text; `legal` keeps to pieces on the board.
  const auto& legal_moves = last["legal_moves"];
  EXPECT_NE(std::find(legal_moves.begin(), legal_moves.end(), "P@e4"), legal_moves.end());
  EXPECT_FALSE(last["legal"].contains("e4"));
  auto [dropped, after] = post("/api/games/" + id + "/moves", {{"move", "P@e4"}});
  ASSERT_EQ(dropped, 200) << after.dump();
  EXPECT_EQ(piece_at(after, "e4"), "pawn");
  EXPECT_EQ(after["hands"], json({{"white", json::object()}, {"black", {{"pawn", 1}}}}));
  EXPECT_EQ(after["moves"].back(), "P@e4");
  auto [refused, error] = post("/api/games/" + id + "/moves", {{"move", "N@e5"}});
  EXPECT_EQ(refused, 422);
  EXPECT_EQ(error["error"], "you have no knight in hand");
}

TEST_F(ServerApi, TheEngineMovesAtTheChosenLevel) {
  const json state = new_game({{"variant", "chess"}});
  auto [status, answer] = post("/api/games/" + state["id"].get<std::string>() + "/engine", {{"level", 1}});
  ASSERT_EQ(status, 200) << answer.dump();
  ASSERT_EQ(answer["moves"].size(), 1u);
  EXPECT_EQ(answer["moves"][0], answer["engine_move"]);
  auto [bad, error] = post("/api/games/" + state["id"].get<std::string>() + "/engine", {{"level", 99}});
  EXPECT_EQ(bad, 400);
  EXPECT_EQ(error["error"], "expected \"level\": a whole number from 1 to 10");
}

TEST_F(ServerApi, GamesSurviveARestart) {
  const std::string id = new_game({{"variant", "janggi"}, {"formations", {{"han", "outer-elephant"}}}})["id"];
  ASSERT_EQ(post("/api/games/" + id + "/moves", {{"move", "b10c8"}}).first, 200);
  ASSERT_EQ(post("/api/games/" + id + "/moves", {{"move", "c1d3"}}).first, 200);
  restart();
  auto [status, state] = call("GET", "/api/games/" + id);
  ASSERT_EQ(status, 200) << state.dump();
  EXPECT_EQ(state["moves"], json({"b10c8", "c1d3"}));
  EXPECT_EQ(state["formations"], json({{"han", "outer-elephant"}}));
  auto [undone, after] = post("/api/games/" + id + "/undo", json::object());
  EXPECT_EQ(after["moves"], json({"b10c8"}));
}

TEST_F(ServerApi, BadRequestsGetOneLineJsonErrorsAndTheServerGoesOn) {
  auto [unknown, no_game] = call("GET", "/api/games/nope");
  EXPECT_EQ(unknown, 404);
  EXPECT_EQ(no_game["error"], "no game with id \"nope\"");
  // An address whose bytes are no UTF-8 is quoted back with U+FFFD in their place (once a 500).
  auto [not_utf8, replaced] = call("GET", "/api/games/%97d");
  EXPECT_EQ(not_utf8, 404);
  EXPECT_EQ(replaced["error"], "no game with id \"\xEF\xBF\xBD" "d\"");
  auto [malformed, bad_json] = call("POST", "/api/games", "{\"variant\": ");
  EXPECT_EQ(malformed, 400);
  EXPECT_EQ(bad_json["error"], "malformed JSON at byte 13");
  auto [not_object, array] = call("POST", "/api/games", "[1]");
  EXPECT_EQ(not_object, 400);
  EXPECT_EQ(array["error"], "expected a JSON object");
  auto [wrong_type, field] = post("/api/games/x/moves", {{"move", 3}});
  EXPECT_EQ(wrong_type, 400);
  EXPECT_EQ(field["error"], "expected \"move\": a string");
  auto [too_big, big] = call("POST", "/api/games", std::string(MaxBodyBytes + 1, ' '));
  EXPECT_EQ(too_big, 413);
  EXPECT_EQ(big["error"], "request body over " + std::to_string(MaxBodyBytes) + " bytes");
  auto [no_variant, variant_error] = post("/api/games", {{"variant", "../variants/chess"}});
  EXPECT_EQ(no_variant, 404);
  EXPECT_EQ(variant_error["error"], "no variant named \"../variants/chess\"");
  for (const char* path : {"/../games.db", "/%2e%2e/games.db", "/web/../../games.db"}) {
    auto r = client_->Get(path);
    ASSERT_TRUE(r) << path;
    EXPECT_GE(r->status, 400) << path;
    EXPECT_LT(r->status, 500) << path;
    EXPECT_TRUE(json::parse(r->body).contains("error")) << path << r->body;
  }
  auto page = client_->Get("/");
  ASSERT_TRUE(page);
  EXPECT_EQ(page->status, 200);
  EXPECT_EQ(page->body, "<p>board</p>");
  EXPECT_EQ(call("GET", "/api/variants").first, 200);
}

TEST_F(ServerApi, MovesComeInTheGamesOwnNotationAndPastPositionsAreShown) {
  const json chess = new_game({{"variant", "chess"}});
  const std::string id = chess["id"];
  json last;
  for (const char* move : {"e2e4", "e7e5", "g1f3", "Nc6", "f1b5"}) {  // text in any notation is read
    auto [status, answer] = post("/api/games/" + id + "/moves", {{"move", move}});
    ASSERT_EQ(status, 200) << move << answer.dump();
    last = answer;
  }
  EXPECT_EQ(last["moves"], json({"e2e4", "e7e5", "g1f3", "b8c6", "f1b5"}));
  EXPECT_EQ(last["moves_notation"], json({"e4", "e5", "Nf3", "Nc6", "Bb5"}));
  auto [status, past] = call("GET", "/api/games/" + id + "/position/2");
  ASSERT_EQ(status, 200) << past.dump();
  EXPECT_EQ(past["ply"], 2);
  EXPECT_EQ(past["fen"], "rnbqkbnr/pppp1ppp/8/4p3/4P3/8/PPPP1PPP/RNBQKBNR w KQkq e6 0 2");
  EXPECT_EQ(past["turn"], 0);
  EXPECT_EQ(past["last_move"], json({"e7", "e5"}));
  EXPECT_EQ(past["pieces"].size(), 32u);
  EXPECT_EQ(call("GET", "/api/games/" + id + "/position/0").second["fen"], chess["fen"]);
  EXPECT_EQ(call("GET", "/api/games/" + id + "/position/5").second["fen"], last["fen"]);

  const json janggi = new_game({{"variant", "janggi"}});
  auto [moved, after] = post("/api/games/" + janggi["id"].get<std::string>() + "/moves", {{"move", "b10c8"}});
  ASSERT_EQ(moved, 200) << after.dump();
  EXPECT_EQ(after["moves_notation"], json({"H02-83"}));
  const json xiangqi = new_game({{"variant", "xiangqi"}});
  auto [played, wxf] = post("/api/games/" + xiangqi["id"].get<std::string>() + "/moves", {{"move", "C2=5"}});
  ASSERT_EQ(played, 200) << wxf.dump();
  EXPECT_EQ(wxf["moves_notation"], json({"C2=5"}));
}

// Issue 57: the moves as each game's players write them, typed and listed: Japanese for shogi,
// Chinese for Xiangqi, the Korean numeric notation (by the pieces' faces) for Janggi.
TEST_F(ServerApi, MovesAreTypedAndListedAsTheGamesPlayersWriteThem) {
  const std::string shogi = new_game({{"variant", "shogi"}})["id"];
  json last;
  for (const char* move : {"７六歩", "P-3d", "Bx2b+", "同銀"}) {
    auto [status, answer] = post("/api/games/" + shogi + "/moves", {{"move", move}});
    ASSERT_EQ(status, 200) << move << answer.dump();
    last = answer;
  }
  EXPECT_EQ(last["moves"], json({"c3c4", "g7g6", "b2h8+", "g9h8"}));
  EXPECT_EQ(last["players_notation"]["name"], "kif");
  EXPECT_EQ(last["players_notation"]["moves"], json({"☗７六歩(77)", "☖３四歩(33)", "☗２二角成(88)", "☖同　銀(31)"}));
  EXPECT_EQ(last["players_notation"]["ranks"][0], "九");
  EXPECT_EQ(last["players_notation"]["files"][0], "9");
  auto [refused, why] = post("/api/games/" + shogi + "/moves", {{"move", "５五角成"}});
  EXPECT_EQ(refused, 422);
  EXPECT_EQ(why, json({{"error", "\"５五角成\": no bishop of Sente's can move to ５五 (e5) as written"}}));
  EXPECT_EQ(call("GET", "/api/games/" + shogi).second["moves"].size(), 4u);

  const std::string xiangqi = new_game({{"variant", "xiangqi"}})["id"];
  ASSERT_EQ(post("/api/games/" + xiangqi + "/moves", {{"move", "炮二平五"}}).first, 200);
  const json red = post("/api/games/" + xiangqi + "/moves", {{"move", "马8进7"}}).second;
  EXPECT_EQ(red["moves"], json({"h3e3", "h10g8"}));
  EXPECT_EQ(red["players_notation"], json({{"name", "chinese-traditional"}, {"moves", {"炮二平五", "馬８進７"}}, {"files", json::array()}, {"ranks", json::array()},
                                            {"side_files", {{"九", "八", "七", "六", "五", "四", "三", "二", "一"}, {"１", "２", "３", "４", "５", "６", "７", "８", "９"}}}}));

  const std::string janggi = new_game({{"variant", "janggi-kakao"}})["id"];
  const json cho = post("/api/games/" + janggi + "/moves", {{"move", "79卒78"}}).second;
  EXPECT_EQ(cho["moves"], json({"i7h7"}));
  EXPECT_EQ(cho["players_notation"]["name"], "korean");
  EXPECT_EQ(cho["players_notation"]["moves"], json({"79卒78"}));
  EXPECT_EQ(cho["players_notation"]["files"], json({"1", "2", "3", "4", "5", "6", "7", "8", "9"}));
  EXPECT_EQ(cho["players_notation"]["ranks"], json({"1", "2", "3", "4", "5", "6", "7", "8", "9", "0"}));
  EXPECT_EQ(cho["players_notation"]["side_files"], json::array());
}

TEST_F(ServerApi, PiecesCarryTheirFacesAndSidesTheirDirection) {
  const json janggi = new_game({{"variant", "janggi"}});
  EXPECT_EQ(janggi["sides"][0], json({{"name", "cho"}, {"colour", "blue"}, {"forward", "down"}}));
  json general, horse;
  for (const json& kind : janggi["kinds"]) {
    if (kind["name"] == "general") general = kind;
    if (kind["name"] == "horse") horse = kind;
  }
  EXPECT_EQ(general["face"], json({"楚", "漢"}));
  EXPECT_EQ(general["royal"], true);
  EXPECT_EQ(horse["face"], json({"馬", "馬"}));
  const json shogi = new_game({{"variant", "shogi"}});
  json tokin;
  for (const json& kind : shogi["kinds"])
    if (kind["name"] == "tokin") tokin = kind;
  EXPECT_EQ(tokin["face"], json({"と", "と"}));
  EXPECT_EQ(tokin["written"], "+P");
  const json chess = new_game({{"variant", "chess"}});
  for (const json& kind : chess["kinds"]) EXPECT_FALSE(kind.contains("face")) << kind.dump();
}

TEST_F(ServerApi, APastPositionOutOfRangeIsRefused) {
  const std::string id = new_game({{"variant", "chess"}})["id"];
  for (const char* ply : {"1", "-1", "x", "01x", "99999999999"}) {
    auto [status, error] = call("GET", "/api/games/" + id + "/position/" + ply);
    EXPECT_EQ(status, 400) << ply;
    EXPECT_EQ(error["error"], std::string("expected a move number from 0 to 0, got \"") + ply + "\"") << ply;
  }
  auto [empty, empty_error] = call("GET", "/api/games/" + id + "/position/");
  EXPECT_EQ(empty, 400);
  EXPECT_EQ(empty_error["error"], "expected a move number from 0 to 0, got \"\"");
  auto [unknown, no_game] = call("GET", "/api/games/nope/position/0");
  EXPECT_EQ(unknown, 404);
  EXPECT_EQ(no_game["error"], "no game with id \"nope\"");
}

TEST_F(ServerApi, AGamesAddressServesThePage) {
  auto page = client_->Get("/game/0123abcd");
  ASSERT_TRUE(page);
  EXPECT_EQ(page->status, 200);
  EXPECT_EQ(page->body, "<p>board</p>");
  EXPECT_EQ(page->get_header_value("Content-Type"), "text/html; charset=utf-8");
  fs::remove(dir_ / "web" / "index.html");
  auto gone = client_->Get("/game/0123abcd");
  ASSERT_TRUE(gone);
  EXPECT_EQ(gone->status, 404);
  EXPECT_EQ(json::parse(gone->body)["error"], "no page to serve (build the web target)");
}

TEST_F(ServerApi, UploadedVariantsPlayAndHostileOnesAreRefused) {
  const json upload = {{"yaml", "import: [janggi.yaml]\nname: no-facing\nrules: {facing_royals: allowed}\n"}};
  auto [status, answer] = post("/api/variants", upload);
  ASSERT_EQ(status, 201) << answer.dump();
  const std::string name = answer["variant"];
  EXPECT_EQ(name.rfind("upload-", 0), 0u);
  const std::string id = new_game({{"variant", name}})["id"];
  post("/api/games/" + id + "/moves", {{"move", "b10c8"}});
  restart();
  auto [got, state] = call("GET", "/api/games/" + id);
  ASSERT_EQ(got, 200) << state.dump();
  EXPECT_EQ(state["name"], "no-facing");
  EXPECT_EQ(state["moves"], json({"b10c8"}));

  const std::string hostile = read_text_file(std::string(PALACE_SOURCE_DIR) + "/tests/hooks/rule_scripts/hostile.lua");
  const std::string hooked = "import: [janggi.yaml]\nscripts: {hostile: hostile.lua}\npieces: {cannon: {hooks: {may_jump: hostile.HOOK}}}\n";
  for (const char* hook : {"loops", "eats_memory"}) {
    std::string yaml = hooked;
    yaml.replace(yaml.find("HOOK"), 4, hook);
    auto [refused, error] = post("/api/variants", {{"yaml", yaml}, {"scripts", {{"hostile.lua", hostile}}}});
    EXPECT_EQ(refused, 422) << hook;
    EXPECT_NE(error["error"].get<std::string>().find("hostile.lua"), std::string::npos) << error.dump();
    EXPECT_EQ(error["error"].get<std::string>().find(fs::temp_directory_path().string()), std::string::npos) << error.dump();
  }
  auto [broken, rule_error] = post("/api/variants", {{"yaml", "name: x\nboard: {files: 0}\n"}});
  EXPECT_EQ(broken, 422);
  EXPECT_EQ(rule_error["error"].get<std::string>().rfind("variant.yaml:", 0), 0u) << rule_error.dump();
  auto [escape, import_error] = post("/api/variants", {{"yaml", "import: [../../etc/passwd]\n"}});
  EXPECT_EQ(escape, 400);
  EXPECT_EQ(import_error["error"], "variant.yaml:1:10: import[0]: an uploaded variant may import only shipped variants, like janggi.yaml");
  auto [outside, script_error] = post("/api/variants", {{"yaml", "import: [janggi.yaml]\nscripts: {x: /etc/passwd}\n"}});
  EXPECT_EQ(outside, 400);
  EXPECT_EQ(script_error["error"], "variant.yaml:2:11: scripts.x: name one of the uploaded scripts");
  EXPECT_EQ(script_error["line"], 2);
  EXPECT_EQ(call("GET", "/api/variants").first, 200);
}

TEST_F(ServerApi, ConcurrentGamesKeepEveryMove) {
  constexpr int Clients = 8;
  std::vector<std::string> ids(Clients);
  std::vector<std::thread> threads;
  std::atomic<int> failures = 0;
  for (int i = 0; i < Clients; ++i)
    threads.emplace_back([&, i] {
      httplib::Client client("127.0.0.1", port_);
      auto created = client.Post("/api/games", R"({"variant":"chess"})", "application/json");
      if (!created || created->status != 201) return void(++failures);
      ids[i] = json::parse(created->body)["id"];
      for (const char* move : {"g1f3", "g8f6", "f3g1", "f6g8"})
        if (auto r = client.Post("/api/games/" + ids[i] + "/moves", json{{"move", move}}.dump(), "application/json"); !r || r->status != 200)
          ++failures;
    });
  for (std::thread& t : threads) t.join();
  EXPECT_EQ(failures, 0);
  for (const std::string& id : ids) EXPECT_EQ(call("GET", "/api/games/" + id).second["moves"].size(), 4u) << id;
}

// A page on another site, or one that rebinds its name to 127.0.0.1, cannot use the API: the Host
// must be this server, and changes come as JSON from this origin or none. Every answer carries the
// page's Content-Security-Policy.
TEST_F(ServerApi, OtherSitesCannotUseTheApi) {
  const std::string self = "http://127.0.0.1:" + std::to_string(port_);
  const std::string body = R"({"variant":"chess"})";
  auto plain = client_->Post("/api/games", body, "text/plain");
  ASSERT_TRUE(plain);
  EXPECT_EQ(plain->status, 415);
  EXPECT_EQ(json::parse(plain->body)["error"], "expected Content-Type: application/json, not \"text/plain\"");
  auto foreign = client_->Post("/api/games", {{"Origin", "http://evil.example"}}, body, "application/json");
  ASSERT_TRUE(foreign);
  EXPECT_EQ(foreign->status, 403);
  EXPECT_EQ(json::parse(foreign->body)["error"],
            "requests from the page at \"http://evil.example\" are refused: only this server's own page may change games");
  auto rebound = client_->Get("/api/variants", {{"Host", "evil.example:" + std::to_string(port_)}});
  ASSERT_TRUE(rebound);
  EXPECT_EQ(rebound->status, 403);
  EXPECT_EQ(json::parse(rebound->body)["error"], "Host \"evil.example:" + std::to_string(port_) + "\" is not this server (127.0.0.1:" +
                                                     std::to_string(port_) + " or localhost:" + std::to_string(port_) + ")");
  for (const std::string& origin : {self, "http://localhost:" + std::to_string(port_)}) {
    auto own = client_->Post("/api/games", {{"Origin", origin}}, body, "application/json; charset=utf-8");
    ASSERT_TRUE(own);
    EXPECT_EQ(own->status, 201) << own->body;
  }
  auto by_name = client_->Get("/", {{"Host", "localhost:" + std::to_string(port_)}});
  ASSERT_TRUE(by_name);
  EXPECT_EQ(by_name->status, 200);
  EXPECT_EQ(by_name->get_header_value("Content-Security-Policy"),
            "default-src 'self'; img-src 'self' data:; style-src 'self' 'unsafe-inline'; object-src 'none'; base-uri 'none'; "
            "form-action 'none'; frame-ancestors 'none'");
}

// Sends `request` as it is over a connection of its own and returns the server's answer.
std::string exchange(int port, const std::string& request) {
  const int sock = ::socket(AF_INET, SOCK_STREAM, 0);
  sockaddr_in address{};
  address.sin_family = AF_INET;
  address.sin_port = htons(std::uint16_t(port));
  address.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  std::string answer;
  if (::connect(sock, reinterpret_cast<const sockaddr*>(&address), sizeof address) == 0 &&
      ::send(sock, request.data(), request.size(), MSG_NOSIGNAL) == ssize_t(request.size())) {
    // Read to the end of the answer's body: the server may keep the connection for a next request.
    const auto complete = [&answer] {
      const std::size_t head = answer.find("\r\n\r\n"), length = answer.find("Content-Length: ");
      return head != std::string::npos && length != std::string::npos &&
             answer.size() >= head + 4 + std::stoul(answer.substr(length + 16));
    };
    char buffer[4096];
    for (ssize_t n; !complete() && (n = ::recv(sock, buffer, sizeof buffer, 0)) > 0;) answer.append(buffer, std::size_t(n));
  }
  ::close(sock);
  return answer;
}

// Bodies are read whole and plain, so the 2 MiB limit holds while reading (chunked_bomb.py,
// bomb800.json.gz): a chunked or compressed body is refused before any of it is read.
TEST_F(ServerApi, ChunkedAndCompressedBodiesAreRefusedUnread) {
  const auto exchange = [this](const std::string& request) { return server::exchange(port_, request); };
  const std::string host = "Host: 127.0.0.1:" + std::to_string(port_) + "\r\nContent-Type: application/json\r\n";
  // What chunked_bomb.py sends first; it would go on for 1.5 GB.
  const std::string chunked = exchange("POST /api/variants HTTP/1.1\r\n" + host + "Transfer-Encoding: chunked\r\n\r\n9\r\n{\"move\":\"\r\n");
  EXPECT_EQ(chunked.substr(0, chunked.find("\r\n")), "HTTP/1.1 411 Length Required");
  EXPECT_EQ(chunked.substr(chunked.find("\r\n\r\n") + 4),
            R"j({"error":"a request body must come whole, with a Content-Length (no Transfer-Encoding)"})j");
  // bomb800.json.gz: 815 KB that inflate to 1.4 GB. Its first kilobyte is enough to be refused.
  std::ifstream file(std::string(PALACE_SOURCE_DIR) + "/tests/repro/serve-and-hooks/uploads/bomb800.json.gz", std::ios::binary);
  const std::string bomb((std::istreambuf_iterator<char>(file)), std::istreambuf_iterator<char>());
  ASSERT_GT(bomb.size(), 800'000u);
  const std::string gzipped = exchange("POST /api/variants HTTP/1.1\r\n" + host + "Content-Encoding: gzip\r\nContent-Length: " +
                                       std::to_string(bomb.size()) + "\r\n\r\n" + bomb.substr(0, 1024));
  EXPECT_EQ(gzipped.substr(0, gzipped.find("\r\n")), "HTTP/1.1 415 Unsupported Media Type");
  EXPECT_EQ(gzipped.substr(gzipped.find("\r\n\r\n") + 4), R"j({"error":"a request body must not be compressed (Content-Encoding \"gzip\")"})j");
  EXPECT_EQ(call("GET", "/api/variants").first, 200);
}

// A NUL in a path is refused before any file is looked for: /index.html%00.js would be index.html
// served under the type of the name after it.
TEST_F(ServerApi, APathWithANulFindsNoFile) {
  const std::string host = "Host: 127.0.0.1:" + std::to_string(port_) + "\r\n\r\n";
  const std::string page = server::exchange(port_, "GET /index.html HTTP/1.1\r\n" + host);
  EXPECT_EQ(page.substr(0, page.find("\r\n")), "HTTP/1.1 200 OK");
  const std::string nul = server::exchange(port_, "GET /index.html%00.js HTTP/1.1\r\n" + host);
  EXPECT_EQ(nul.substr(0, nul.find("\r\n")), "HTTP/1.1 404 Not Found");
  EXPECT_EQ(nul.substr(nul.find("\r\n\r\n") + 4), R"j({"error":"no such address"})j");
}

std::string repro_upload(const std::string& name) {
  return read_text_file(std::string(PALACE_SOURCE_DIR) + "/tests/repro/serve-and-hooks/uploads/" + name + "_upload.json");
}

// dag_upload.json's hook answers 2^30 leaves in a few KB of Lua: refused in one line, at once.
TEST_F(ServerApi, AnUploadWhoseHookAnswersSharedTablesIsRefused) {
  auto [status, answer] = call("POST", "/api/variants", repro_upload("dag"));
  EXPECT_EQ(status, 422);
  EXPECT_EQ(answer["error"], "s.lua: allow: returned a table that holds the same table twice (shared or cyclic tables are refused)");
  EXPECT_EQ(new_game()["variant"], "janggi");
}

// trap_upload.json's hook errs once a piece stands on e4: the move that brings it there is refused
// with the script's line, and the game stays as it was, in memory and in the store.
TEST_F(ServerApi, AMoveAFailingHookRefusesLeavesTheGameUnchanged) {
  auto [uploaded, answer] = call("POST", "/api/variants", repro_upload("trap"));
  ASSERT_EQ(uploaded, 201) << answer.dump();
  const std::string id = new_game({{"variant", answer["variant"]}})["id"];
  EXPECT_EQ(post("/api/games/" + id + "/moves", {{"move", "d2d4"}}).first, 200);
  EXPECT_EQ(post("/api/games/" + id + "/moves", {{"move", "e7e5"}}).first, 200);
  const json before = call("GET", "/api/games/" + id + "/record").second;
  EXPECT_EQ(before["moves"], json({"d2d4", "e7e5"}));
  auto [failed, failure] = post("/api/games/" + id + "/moves", {{"move", "e2e4"}});
  EXPECT_EQ(failed, 422);
  EXPECT_EQ(failure["error"], "s.lua:3: knight: boom: e4 is occupied");
  EXPECT_EQ(call("GET", "/api/games/" + id + "/record").second, before);
  restart();
  EXPECT_EQ(call("GET", "/api/games/" + id + "/record").second, before);
}

// slow_upload.json's hooks spend their whole budget on every call: the engine keeps its time, and
// the game answers while it thinks.
TEST_F(ServerApi, SlowHooksKeepTheEnginesTimeAndLeaveTheGameReadable) {
  auto [uploaded, answer] = call("POST", "/api/variants", repro_upload("slow"));
  ASSERT_EQ(uploaded, 201) << answer.dump();
  const std::string id = new_game({{"variant", answer["variant"]}})["id"];
  const auto start = std::chrono::steady_clock::now();
  std::thread engine([&] {
    httplib::Client other("127.0.0.1", port_);
    other.set_read_timeout(30);
    auto r = other.Post("/api/games/" + id + "/engine", R"({"level":2})", "application/json");
    ASSERT_TRUE(r);
    EXPECT_EQ(r->status, 200) << r->body;
  });
  std::this_thread::sleep_for(std::chrono::milliseconds(100));
  EXPECT_EQ(call("GET", "/api/games/" + id).first, 200);
  // Answered in tens of milliseconds; before, the game was locked for the whole search (13 s). The
  // bounds lie between, so that a loaded machine does not decide it.
  EXPECT_LT(std::chrono::steady_clock::now() - start, std::chrono::seconds(5));
  engine.join();
  EXPECT_LT(std::chrono::steady_clock::now() - start, std::chrono::seconds(10));
  EXPECT_EQ(call("GET", "/api/games/" + id + "/record").second["moves"].size(), 1u);
}

// The engine keeps its time on every hostile upload that loads: level 4 thinks for 1 s, and the
// answer is a legal move. Before, the search found the root's moves again, which no deadline cut
// short, at the lowest priority: level 4 took 14 to 27 s, level 10 (2.5 s) 10 to 30 s. The answer
// also plays the move and shows the game, which on the slowest hooks costs what a move played by
// hand costs there (1 to 2 s at load 20 on 2 cores): the bound is the budget, twice that, and 1 s.
TEST_F(ServerApi, TheEngineKeepsItsTimeOnEveryHostileUpload) {
  using Clock = std::chrono::steady_clock;
  // flip7's hook counts its calls in a global, which no call may set: the upload is refused.
  const auto [refused, why] = call("POST", "/api/variants", repro_upload("flip7"));
  EXPECT_EQ(refused, 422) << why.dump();
  EXPECT_EQ(why["error"], "s.lua:6: add: attempt to set global 'n': globals are read-only in a call, so that no call leaves "
                          "state for the next (use a local)");
  for (const std::string name : {"slow", "fat", "pf"}) {
    SCOPED_TRACE(name);
    auto [uploaded, answer] = call("POST", "/api/variants", repro_upload(name));
    ASSERT_EQ(uploaded, 201) << answer.dump();
    const json by_hand = new_game({{"variant", answer["variant"]}});
    const auto hand_start = Clock::now();
    EXPECT_EQ(post("/api/games/" + by_hand["id"].get<std::string>() + "/moves", {{"move", by_hand["legal_moves"][0]}}).first, 200);
    const auto move_cost = Clock::now() - hand_start;

    const json state = new_game({{"variant", answer["variant"]}});
    const auto start = Clock::now();
    auto [status, moved] = post("/api/games/" + state["id"].get<std::string>() + "/engine", {{"level", 4}});
    const auto took = Clock::now() - start;
    ASSERT_EQ(status, 200) << moved.dump();
    EXPECT_LT(took, std::chrono::seconds(2) + 2 * move_cost) << "a move by hand took " << std::chrono::duration<double>(move_cost).count() << " s";
    const json& legal = state["legal_moves"];
    EXPECT_NE(std::find(legal.begin(), legal.end(), moved["engine_move"]), legal.end()) << moved["engine_move"];
  }
}

// fat_upload.json keeps 14 MiB alive in each interpreter: past the games with hooks allowed in
// memory, idle ones are dropped and read back from the store when asked for, whole. Games and
// uploads are capped too.
TEST_F(ServerApi, GamesWithHooksAreEvictedAndGamesAndUploadsCapped) {
  limits_.hooked_games_in_memory = 2;
  limits_.max_games = 4;
  limits_.max_uploads = 1;
  EXPECT_EQ(call("GET", "/api/variants").first, 200);  // the server listens: it may be stopped
  restart();
  auto [uploaded, answer] = call("POST", "/api/variants", repro_upload("fat"));
  ASSERT_EQ(uploaded, 201) << answer.dump();
  std::vector<std::string> ids;
  for (int i = 0; i < 4; ++i) ids.push_back(new_game({{"variant", answer["variant"]}})["id"]);
  for (std::size_t i = 0; i < ids.size(); ++i)
    EXPECT_EQ(post("/api/games/" + ids[i] + "/moves", {{"move", i % 2 ? "e2e4" : "d2d4"}}).first, 200);
  for (std::size_t i = 0; i < ids.size(); ++i)
    EXPECT_EQ(call("GET", "/api/games/" + ids[i] + "/record").second["moves"], json({i % 2 ? "e2e4" : "d2d4"}));
  auto [full, why] = post("/api/games", json::object());
  EXPECT_EQ(full, 507);
  EXPECT_EQ(why["error"], "the server holds its most games (4; palace serve --max-games)");
  auto [no_room, upload_error] = call("POST", "/api/variants", repro_upload("fat"));
  EXPECT_EQ(no_room, 507);
  EXPECT_EQ(upload_error["error"], "the server holds its most uploads (1; palace serve --max-uploads)");
}

// An upload of about `kib` KiB: chess whose knights ask a hook that adds nothing, padded by a comment.
std::string padded_upload(std::size_t kib) {
  const std::string script = "-- " + std::string(kib << 10, 'x') + "\nfunction add(piece, at) return nil end\n";
  return json{{"yaml", "import: [chess.yaml]\nname: padded\nscripts:\n  s: s.lua\npieces:\n  knight: {hooks: {add_moves: s.add}}\n"},
              {"scripts", {{"s.lua", script}}}}
      .dump();
}

// The scratch folder holds at most --max-scratch-mb of uploads: an idle upload's folder makes room
// for another and is written again when a game asks for it; one a game plays stays, and an upload
// that finds no room then is refused.
TEST_F(ServerApi, TheScratchFolderIsCappedByDroppingIdleUploads) {
  limits_.max_scratch_mb = 1;
  EXPECT_EQ(call("GET", "/api/variants").first, 200);  // the server listens: it may be stopped
  restart();
  auto [first, one] = call("POST", "/api/variants", padded_upload(600));
  ASSERT_EQ(first, 201) << one.dump();
  auto [second, two] = call("POST", "/api/variants", padded_upload(600));
  ASSERT_EQ(second, 201) << two.dump();
  const std::string id = new_game({{"variant", one["variant"]}})["id"];  // written again, the second dropped
  EXPECT_EQ(post("/api/games/" + id + "/moves", {{"move", "g1f3"}}).first, 200);
  auto [full, why] = call("POST", "/api/variants", padded_upload(600));
  EXPECT_EQ(full, 507);
  EXPECT_EQ(why["error"], "the server's scratch folder is full (1 MiB of uploads in play; palace serve --max-scratch-mb)");
  EXPECT_EQ(call("GET", "/api/games/" + id + "/record").second["moves"], json({"g1f3"}));
}

// A crash leaves a scratch folder behind: the next server removes those of processes that are gone.
TEST_F(ServerApi, ScratchFoldersLeftByACrashAreRemovedAtStart) {
  const fs::path gone = fs::temp_directory_path() / "palace-serve-999999999-leftover";
  const fs::path alive = fs::temp_directory_path() / ("palace-serve-" + std::to_string(::getpid()) + "-alive");
  fs::create_directories(gone / "upload-x");
  fs::create_directories(alive);
  std::ofstream(gone / "upload-x" / "variant.yaml") << "name: x\n";
  restart();
  EXPECT_FALSE(fs::exists(gone));
  EXPECT_TRUE(fs::exists(alive));
  fs::remove_all(alive);
}

// The store is a file anyone with the account may edit: an upload read back from it is checked
// again, so a row naming a script outside its folder is refused, not written there.
TEST_F(ServerApi, UploadsReadBackFromTheStoreAreCheckedAgain) {
  stop();
  {
    GameStore store((dir_ / "games.db").string());
    store.save(StoredUpload{"upload-0123456789abcdef", "import: [chess.yaml]\nname: x\n", {{"../escaped.lua", "x = 1"}}, ""});
  }
  start();
  auto [status, why] = post("/api/games", {{"variant", "upload-0123456789abcdef"}});
  EXPECT_EQ(status, 400);
  EXPECT_EQ(why["error"], "script name \"../escaped.lua\": expected a plain file name like hooks.lua");
  EXPECT_FALSE(fs::exists(fs::temp_directory_path() / "escaped.lua"));
}

// A file written before uploads kept their rule tests (or their clock) gains the columns: its
// uploads read back with an empty test, and a new one keeps its own.
TEST(GameStoreColumns, AnOlderFileGainsTheTestColumn) {
  const fs::path file = fs::temp_directory_path() / ("palace-store-columns-" + std::to_string(::getpid()) + ".db");
  fs::remove(file);
  sqlite3* db = nullptr;
  ASSERT_EQ(sqlite3_open(file.c_str(), &db), SQLITE_OK);
  ASSERT_EQ(sqlite3_exec(db, "CREATE TABLE uploads (id TEXT PRIMARY KEY, yaml TEXT NOT NULL, scripts TEXT NOT NULL); "
                             "INSERT INTO uploads VALUES ('upload-old', 'name: old\n', '{}')", nullptr, nullptr, nullptr), SQLITE_OK);
  sqlite3_close(db);
  {
    GameStore store(file.string());
    const auto old = store.load_upload("upload-old");
    ASSERT_TRUE(old);
    EXPECT_EQ(old->yaml, "name: old\n");
    EXPECT_EQ(old->test, "");
    store.save(StoredUpload{"upload-new", "name: new\n", {}, "variant: variant.yaml\ncases: []\n"});
    EXPECT_EQ(store.load_upload("upload-new")->test, "variant: variant.yaml\ncases: []\n");
  }
  fs::remove(file);
}

// An upload is used when it is made and whenever a game on it is made or changed: one unused for
// the expiry period goes, with its games, and the rest stay. The store's clock is the test's.
TEST(GameStoreExpiry, IdleUploadsGoWithTheirGamesAndUsedOnesStay) {
  const fs::path file = fs::temp_directory_path() / ("palace-store-expiry-" + std::to_string(::getpid()) + ".db");
  fs::remove(file);
  std::int64_t now = 1'000'000;
  {
    GameStore store(file.string(), [&now] { return now; });
    store.save(StoredUpload{"upload-idle", "name: idle\n", {}, ""});
    store.save(StoredUpload{"upload-used", "name: used\n", {}, ""});
    const auto on = [](const std::string& upload) { return VariantChoice{upload, {}}.key(); };
    store.save(StoredGame{"g-idle", on("upload-idle"), "fen", {"e2e4"}});
    store.save(StoredGame{"g-used", on("upload-used"), "fen", {"d2d4"}});
    store.save(StoredGame{"g-chess", on("chess"), "fen", {}});
    now += 60'000;
    EXPECT_TRUE(store.touch_upload("upload-used"));
    now += 59'999;
    EXPECT_EQ(store.expire_uploads(std::chrono::minutes(2)), std::vector<std::string>{});
    now += 1;  // upload-idle is two minutes unused, upload-used one
    EXPECT_EQ(store.expire_uploads(std::chrono::minutes(2)), std::vector<std::string>{"upload-idle"});
    EXPECT_FALSE(store.load_upload("upload-idle"));
    EXPECT_FALSE(store.load("g-idle"));
    EXPECT_FALSE(store.touch_upload("upload-idle"));
    EXPECT_EQ(store.load("g-used")->moves, std::vector<std::string>{"d2d4"});
    EXPECT_TRUE(store.load("g-chess"));
    EXPECT_EQ(store.upload_count(), 1u);
  }
  fs::remove(file);
}

// `palace serve --upload-expiry-days`, here a second: the sweep removes an idle upload
// from the store, memory and the scratch folder, and a game on it is gone; a game on a shipped
// variant stays, and uploads go on.
TEST_F(ServerApi, IdleUploadsExpireWithTheirGames) {
  limits_.upload_expiry = std::chrono::seconds(1);
  EXPECT_EQ(call("GET", "/api/variants").first, 200);  // the server listens: it may be stopped
  restart();
  auto [uploaded, answer] = call("POST", "/api/variants", padded_upload(1));
  ASSERT_EQ(uploaded, 201) << answer.dump();
  const std::string variant = answer["variant"];
  const std::string id = new_game({{"variant", variant}})["id"];
  const std::string chess = new_game({{"variant", "chess"}})["id"];
  EXPECT_EQ(post("/api/games/" + id + "/moves", {{"move", "g1f3"}}).first, 200);
  const auto gone = std::chrono::steady_clock::now() + std::chrono::seconds(20);  // bound for a loaded machine
  while (call("GET", "/api/games/" + id).first != 404 && std::chrono::steady_clock::now() < gone)
    std::this_thread::sleep_for(std::chrono::milliseconds(50));
  auto [status, why] = call("GET", "/api/games/" + id);
  EXPECT_EQ(status, 404);
  EXPECT_EQ(why["error"], "no game with id \"" + id + "\"");
  auto [no_variant, refusal] = post("/api/games", {{"variant", variant}});
  EXPECT_EQ(no_variant, 404);
  // Until the sweep has also dropped the compiled variant, the refusal says why it is gone.
  const std::string said = refusal["error"], plain = "no variant named \"" + variant + "\"";
  EXPECT_TRUE(said == plain || said == plain + ": it expired unused (palace serve --upload-expiry-days)") << said;
  EXPECT_EQ(call("GET", "/api/variants/" + variant + "/source").first, 404);
  EXPECT_EQ(call("GET", "/api/games/" + chess).first, 200);
  auto [again, fresh] = call("POST", "/api/variants", padded_upload(1));
  ASSERT_EQ(again, 201) << fresh.dump();
  EXPECT_EQ(new_game({{"variant", fresh["variant"]}})["moves"], json::array());
}

// The workshop (web/README.md): a draft is loaded as an upload would be, its start position drawn or
// its error placed at its line, and nothing is kept.
class Workshop : public ServerApi {};

TEST_F(Workshop, ADraftThatLoadsShowsItsStartPositionAndIsNotKept) {
  const std::string yaml = "import: [chess.yaml]\nname: no-queens\nsetup: {white: {pieces: {queen: ~}}, black: {pieces: {queen: ~}}}\n";
  auto [status, start] = post("/api/variants/check", {{"yaml", yaml}});
  ASSERT_EQ(status, 200) << start.dump();
  EXPECT_EQ(start["ok"], true);
  EXPECT_EQ(start["name"], "no-queens");
  EXPECT_EQ(start["board"]["files"], 8);
  EXPECT_EQ(start["fen"], "rnb1kbnr/pppppppp/8/8/8/8/PPPPPPPP/RNB1KBNR w KQkq - 0 1");
  EXPECT_EQ(start["pieces"].size(), 30u);
  EXPECT_EQ(start["legal"]["b1"], json({"a3", "c3"}));
  auto [_, list] = call("GET", "/api/variants");
  for (const json& v : list["variants"]) EXPECT_EQ(v["name"].get<std::string>().rfind("upload-", 0), std::string::npos);
}

TEST_F(Workshop, ADraftsErrorNamesItsFileLineAndColumn) {
  auto [status, error] = post("/api/variants/check", {{"yaml", "import: [chess.yaml]\npieces:\n  knight:\n    moves:\n      - leap: [1, x]\n"}});
  EXPECT_EQ(status, 422);
  EXPECT_EQ(error["error"], "variant.yaml:5:19: pieces.knight.moves[0].leap[1]: expected a whole number, got \"x\"");
  EXPECT_EQ(error["file"], "variant.yaml");
  EXPECT_EQ(error["line"], 5);
  EXPECT_EQ(error["column"], 19);
  // A script's error is placed at the script's line; Lua gives no column.
  auto [lua, lua_error] = post("/api/variants/check", {{"yaml", "import: [chess.yaml]\nscripts: {x: x.lua}\n"},
                                                        {"scripts", {{"x.lua", "-- one\nfunction f(\n"}}}});
  EXPECT_EQ(lua, 422);
  EXPECT_EQ(lua_error["file"], "x.lua");
  EXPECT_EQ(lua_error["line"], 3);
  EXPECT_FALSE(lua_error.contains("column")) << lua_error.dump();
}

// A draft's folder is gone once it is answered, while its start position still asks its runtime
// hooks: the scripts are read when the draft loads (issue 57).
TEST_F(Workshop, ADraftsRuntimeHooksRunAfterItsFolderIsGone) {
  const std::string yaml = "import: [janggi-kakao.yaml]\nscripts: {house: house.lua}\n"
                           "pieces: {soldier: {hooks: {allow_move: house.soldier_move, add_moves: house.soldier_extra}}}\n";
  const std::string lua = "function soldier_move(m) return m.to ~= 'b7' end\n"
                          "function soldier_extra(piece, point) if point == 'a7' then return {'a5'} end end\n";
  auto [status, start] = post("/api/variants/check", {{"yaml", yaml}, {"scripts", {{"house.lua", lua}}}});
  ASSERT_EQ(status, 200) << start.dump();
  EXPECT_EQ(start["legal"]["a7"], json({"a5", "a6"}));
  auto [tested, result] = post("/api/variants/test", {{"yaml", yaml}, {"scripts", {{"house.lua", lua}}},
                                                      {"test", "variant: variant.yaml\ncases:\n  - name: the house soldier\n"
                                                               "    moves_from: {point: a7, exactly: [a5, a6]}\n"}});
  ASSERT_EQ(tested, 200) << result.dump();
  EXPECT_EQ(result["passed"], 1) << result.dump();
}

TEST_F(Workshop, ADraftKeepsTheUploadsLimits) {
  auto [escape, import_error] = post("/api/variants/check", {{"yaml", "import: [../../etc/passwd]\n"}});
  EXPECT_EQ(escape, 400);
  EXPECT_EQ(import_error["error"], "variant.yaml:1:10: import[0]: an uploaded variant may import only shipped variants, like janggi.yaml");
  auto [big, big_error] = post("/api/variants/check", {{"yaml", std::string(MaxUploadBytes + 1, '#')}});
  EXPECT_EQ(big, 413);
  EXPECT_EQ(big_error["error"], "the variant and its scripts weigh over 1048576 bytes");
  const std::string hostile = read_text_file(std::string(PALACE_SOURCE_DIR) + "/tests/hooks/rule_scripts/hostile.lua");
  auto [loops, loop_error] = post("/api/variants/check", {{"yaml", "import: [janggi.yaml]\nscripts: {hostile: hostile.lua}\npieces: {cannon: {hooks: {may_jump: hostile.loops}}}\n"},
                                                           {"scripts", {{"hostile.lua", hostile}}}});
  EXPECT_EQ(loops, 422);
  EXPECT_NE(loop_error["error"].get<std::string>().find("hostile.lua"), std::string::npos) << loop_error.dump();
  for (const auto& [path, body] : std::vector<std::pair<std::string, json>>{
           {"/api/variants/check", json::object()},
           {"/api/variants/check", {{"yaml", 3}}},
           {"/api/variants/check", {{"yaml", "name: x\n"}, {"scripts", {{"../x.lua", ""}}}}},
           {"/api/variants/test", {{"yaml", "import: [chess.yaml]\n"}}},
           {"/api/variants/test", {{"yaml", "import: [chess.yaml]\n"}, {"test", "variant: ../../variants/chess.yaml\ncases: []\n"}}}}) {
    auto [refused, answer] = post(path, body);
    EXPECT_GE(refused, 400) << body.dump();
    EXPECT_LT(refused, 500) << body.dump();
    EXPECT_EQ(answer["error"].get<std::string>().find('\n'), std::string::npos) << answer.dump();
  }
  auto [foreign, _] = call("POST", "/api/variants/check", "not json");
  EXPECT_EQ(foreign, 400);
  auto plain = client_->Post("/api/variants/check", R"({"yaml": "name: x"})", "text/plain");
  ASSERT_TRUE(plain);
  EXPECT_EQ(plain->status, 415);
  auto other_site = client_->Post("/api/variants/test", {{"Origin", "http://evil.example"}}, R"({"yaml": "name: x"})", "application/json");
  ASSERT_TRUE(other_site);
  EXPECT_EQ(other_site->status, 403);
}

TEST_F(Workshop, ATestScriptRunsOnTheDraftCaseByCase) {
  const json body = {{"yaml", "import: [chess.yaml]\nname: mine\n"},
                     {"test", "variant: variant.yaml\ncases:\n"
                              "  - name: a knight leaps\n    moves_from: {point: b1, exactly: [a3, c3]}\n"
                              "  - name: a wrong expectation\n    moves_from: {point: b1, exactly: [a3]}\n"}};
  auto [status, result] = post("/api/variants/test", body);
  ASSERT_EQ(status, 200) << result.dump();
  EXPECT_EQ(result["passed"], 1);
  EXPECT_EQ(result["failed"], 1);
  EXPECT_EQ(result["cases"][0], json({{"name", "a knight leaps"}, {"line", 3}, {"passed", true}, {"failures", json::array()}}));
  EXPECT_EQ(result["cases"][1]["failures"], json({{{"line", 6}, {"column", 17}, {"message", "moves_from b1: unexpected c3"}}}));
  auto [malformed, error] = post("/api/variants/test", {{"yaml", "import: [chess.yaml]\n"}, {"test", "variant: variant.yaml\ncases:\n  - name: x\n    frobnicate: 1\n"}});
  EXPECT_EQ(malformed, 422);
  EXPECT_EQ(error["file"], "test.yaml");
  EXPECT_EQ(error["line"], 4);
}

TEST_F(Workshop, AnUploadsSourceComesBackForItsLink) {
  const json upload = {{"yaml", "import: [chess.yaml]\nname: shared\nscripts: {x: x.lua}\n"}, {"scripts", {{"x.lua", "-- nothing\n"}}}};
  auto [status, answer] = post("/api/variants", upload);
  ASSERT_EQ(status, 201) << answer.dump();
  const std::string name = answer["variant"];
  restart();
  auto [got, source] = call("GET", "/api/variants/" + name + "/source");
  ASSERT_EQ(got, 200);
  EXPECT_EQ(source, json({{"variant", name}, {"yaml", upload["yaml"]}, {"scripts", upload["scripts"]}, {"test", ""}}));
  // The workshop's rule test is kept with the upload (issue 57, item 11).
  json tested = upload;
  tested["test"] = "variant: variant.yaml\ncases: []\n";
  auto [saved, kept] = post("/api/variants", tested);
  ASSERT_EQ(saved, 201) << kept.dump();
  restart();
  EXPECT_EQ(call("GET", "/api/variants/" + kept["variant"].get<std::string>() + "/source").second["test"], tested["test"]);
  EXPECT_EQ(call("GET", "/api/variants/upload-0000/source").first, 404);
  EXPECT_EQ(call("GET", "/api/variants/chess/source").first, 404);
  const int climbing = call("GET", "/api/variants/..%2F..%2Fetc/source").first;
  EXPECT_TRUE(climbing >= 400 && climbing < 500) << climbing;
}

TEST_F(Workshop, TheSchemaCompletesKeysTheLoaderReads) {
  auto [status, schema] = call("GET", "/api/schema");
  ASSERT_EQ(status, 200);
  for (const char* key : {"name", "board", "pieces", "setup", "sides", "rules"}) EXPECT_TRUE(schema["properties"].contains(key)) << key;
  // Piece names are the writer's own: every piece's keys are offered under any name.
  const json& piece = schema["properties"]["pieces"]["additionalProperties"];
  for (const char* key : {"letter", "moves"}) EXPECT_TRUE(piece["properties"].contains(key)) << key;
  EXPECT_TRUE(piece["properties"]["moves"]["items"]["properties"].contains("slide"));
  EXPECT_FALSE(schema["properties"]["pieces"].contains("properties"));
}


// Issue 53: what a stranger sends costs the server what it weighs, and no more.

// A connection to the server, for sending a request in pieces; closed when it goes.
class RawConnection {
 public:
  explicit RawConnection(int port) : fd_(::socket(AF_INET, SOCK_STREAM, 0)) {
    sockaddr_in address{};
    address.sin_family = AF_INET;
    address.sin_port = htons(std::uint16_t(port));
    address.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    connected_ = ::connect(fd_, reinterpret_cast<const sockaddr*>(&address), sizeof address) == 0;
    const timeval wait{10, 0};  // a bound for a test that would otherwise hang
    ::setsockopt(fd_, SOL_SOCKET, SO_RCVTIMEO, &wait, sizeof wait);
  }
  ~RawConnection() { ::close(fd_); }
  RawConnection(const RawConnection&) = delete;
  RawConnection& operator=(const RawConnection&) = delete;
  bool connected() const { return connected_; }
  void send(const std::string& bytes) { ::send(fd_, bytes.data(), bytes.size(), MSG_NOSIGNAL); }
  // What comes until the server closes, an answer with its body is whole, or 10 s pass.
  std::string answer() {
    std::string got;
    char buffer[4096];
    for (ssize_t n; (n = ::recv(fd_, buffer, sizeof buffer, 0)) > 0;) {
      got.append(buffer, std::size_t(n));
      const std::size_t head = got.find("\r\n\r\n"), length = got.find("Content-Length: ");
      if (head != std::string::npos && (got.rfind("HTTP/1.1 100", 0) == 0 ? got.size() == head + 4 :
          length != std::string::npos && got.size() >= head + 4 + std::stoul(got.substr(length + 16))))
        break;
    }
    return got;
  }

 private:
  int fd_;
  bool connected_ = false;
};

std::string status_line(const std::string& answer) { return answer.substr(0, answer.find("\r\n")); }
std::string body_of(const std::string& answer) { return answer.substr(answer.find("\r\n\r\n") + 4); }

// slowloris.py: 260 connections sending a header byte every 4 s held the 256 threads cpp-httplib
// gives connections, and no one else was answered. A connection now holds no thread until its
// request is there: 300 slow ones leave the others answered at once, and each is refused (408)
// when its head has not come within the deadline. (Before, the answer came when the slow ones'
// 5 s read timeouts let threads go: the client's 3 s bound fails it.)
TEST_F(ServerApi, SlowConnectionsHoldNoThreadAndAreRefusedPastTheirDeadline) {
  limits_.request_deadline = std::chrono::milliseconds(1500);
  restart();
  const std::string head = "GET /api/variants HTTP/1.1\r\nHost: 127.0.0.1:" + std::to_string(port_) + "\r\n";
  std::vector<std::unique_ptr<RawConnection>> slow;
  for (int i = 0; i < 300; ++i) {
    slow.push_back(std::make_unique<RawConnection>(port_));
    ASSERT_TRUE(slow.back()->connected());
    slow.back()->send(head);
  }
  httplib::Client other("127.0.0.1", port_);
  other.set_read_timeout(3);
  const auto answered = other.Get("/api/variants");
  ASSERT_TRUE(answered) << httplib::to_string(answered.error());
  EXPECT_EQ(answered->status, 200);
  const std::string refused = slow.front()->answer();
  EXPECT_EQ(status_line(refused), "HTTP/1.1 408 Request Timeout");
  EXPECT_EQ(body_of(refused), R"j({"error":"the request did not arrive whole in time (1500 ms for its head, and 64 KiB/s for its body)"})j");
}

// A request sent in pieces is answered once whole; Expect: 100-continue is answered by the gate,
// which reads the body, and once only.
TEST_F(ServerApi, ARequestSentInPiecesIsAnsweredWhenWhole) {
  const std::string body = R"({"variant": "chess"})";
  const std::string head = "POST /api/games HTTP/1.1\r\nHost: 127.0.0.1:" + std::to_string(port_) +
                           "\r\nContent-Type: application/json\r\nContent-Length: " + std::to_string(body.size()) + "\r\n";
  RawConnection pieces(port_);
  for (std::size_t at = 0; at < head.size(); at += 7) {
    pieces.send(head.substr(at, 7));
    std::this_thread::sleep_for(std::chrono::milliseconds(2));
  }
  pieces.send("\r\n" + body.substr(0, 5));
  std::this_thread::sleep_for(std::chrono::milliseconds(20));
  pieces.send(body.substr(5));
  const std::string made = pieces.answer();
  EXPECT_EQ(status_line(made), "HTTP/1.1 201 Created");
  EXPECT_EQ(json::parse(body_of(made))["variant"], "chess");

  RawConnection continued(port_);
  continued.send(head + "Expect: 100-continue\r\n\r\n");
  EXPECT_EQ(continued.answer(), "HTTP/1.1 100 Continue\r\n\r\n");
  continued.send(body);
  const std::string answer = continued.answer();
  EXPECT_EQ(status_line(answer), "HTTP/1.1 201 Created") << answer;

  // A request without a Content-Length has no body: cpp-httplib would wait for the connection's end.
  RawConnection no_length(port_);
  no_length.send("POST /api/games HTTP/1.1\r\nHost: 127.0.0.1:" + std::to_string(port_) + "\r\nContent-Type: application/json\r\n\r\n");
  EXPECT_EQ(status_line(no_length.answer()), "HTTP/1.1 201 Created");

  RawConnection long_head(port_);
  long_head.send("GET /api/variants HTTP/1.1\r\nX: " + std::string(70'000, 'x'));
  const std::string too_long = long_head.answer();
  EXPECT_EQ(status_line(too_long), "HTTP/1.1 431 Request Header Fields Too Large");
  EXPECT_EQ(body_of(too_long), R"({"error":"request head over 65536 bytes"})");
}

// One address may hold so many connections open, and no more; one closed makes room again.
TEST_F(ServerApi, ConnectionsAreCappedPerClientAddress) {
  limits_.max_connections_per_client = 3;
  restart();
  std::vector<std::unique_ptr<RawConnection>> held;
  for (int i = 0; i < 3; ++i) held.push_back(std::make_unique<RawConnection>(port_));
  RawConnection fourth(port_);
  const std::string refused = fourth.answer();
  EXPECT_EQ(status_line(refused), "HTTP/1.1 503 Service Unavailable");
  EXPECT_EQ(body_of(refused), R"j({"error":"the most connections one address may open are open from 127.0.0.1 (3)"})j");
  held.clear();
  // The server sees the closes as they come: a request is answered once it has (a few tries).
  int status = 0;
  for (int tries = 0; tries < 100 && status != 200; ++tries) {
    status = call("GET", "/api/variants").first;
    if (status != 200) std::this_thread::sleep_for(std::chrono::milliseconds(20));
  }
  EXPECT_EQ(status, 200);
}

// Ids are 128 bits from the system's random source (id_seed_crack.c, id_predict.cpp): a game's
// and an upload's are 32 hex digits, and a server started again makes none it made before.
TEST_F(ServerApi, GameAndUploadIdsAre128RandomBits) {
  const auto hex32 = [](const std::string& id) {
    return id.size() == 32 && std::all_of(id.begin(), id.end(), [](char c) { return std::isxdigit((unsigned char)c) && !std::isupper((unsigned char)c); });
  };
  const std::string first = new_game()["id"];
  EXPECT_TRUE(hex32(first)) << first;
  auto [uploaded, answer] = post("/api/variants", {{"yaml", "import: [chess.yaml]\nname: ids\n"}});
  ASSERT_EQ(uploaded, 201) << answer.dump();
  const std::string upload = answer["variant"];
  EXPECT_EQ(upload.substr(0, 7), "upload-");
  EXPECT_TRUE(hex32(upload.substr(7))) << upload;
  restart();
  const std::string again = new_game()["id"];
  EXPECT_TRUE(hex32(again)) << again;
  EXPECT_NE(again, first);
}

// json_nesting.py, duplicate_keys.json: a body nested past 32 levels or with a key twice is
// refused in one line before it is built, and nothing is made.
TEST_F(ServerApi, JsonBodiesNestedTooDeepOrWithAKeyTwiceAreRefused) {
  std::string deep;
  for (int i = 0; i < 349'000; ++i) deep += "{\"a\":";
  deep += "1" + std::string(349'000, '}');
  auto [nested, why] = call("POST", "/api/games", deep);
  EXPECT_EQ(nested, 400);
  EXPECT_EQ(why["error"], "a JSON body may nest at most 32 objects and arrays deep");
  auto [twice, which] = call("POST", "/api/games", read_text_file(std::string(PALACE_SOURCE_DIR) + "/tests/repro/audit-4/duplicate_keys.json"));
  EXPECT_EQ(twice, 400);
  EXPECT_EQ(which["error"], "key \"variant\" appears twice in one JSON object");
}

// many_files_upload.py: 60,000 empty scripts were 60,000 files, which a cap on bytes did not see.
// An upload brings at most 32 scripts, and only those its variant names are written; the scratch
// cap counts each file at a block at least.
// "s7.lua", built a piece at a time: GCC 12 warns of a false overlap in "s" + std::to_string(i).
std::string script_name(int i) {
  std::string name = "s";
  name += std::to_string(i);
  return name += ".lua";
}

TEST_F(ServerApi, AnUploadBringsAFewScriptsItNamesAndEachFileTakesABlock) {
  // many_files_upload.py's body holds more values than a JSON body may; 33 scripts are too many.
  json scripts = json::object();
  for (int i = 0; i < 60'000; ++i) scripts[script_name(i)] = "";
  auto [sixty_thousand, values] = post("/api/variants", {{"yaml", "import: [chess.yaml]\nname: files\n"}, {"scripts", scripts}});
  EXPECT_EQ(sixty_thousand, 400);
  EXPECT_EQ(values["error"], "a JSON body may hold at most 10000 values");
  scripts = json::object();
  for (int i = 0; i < 33; ++i) scripts[script_name(i)] = "";
  auto [many, too_many] = post("/api/variants", {{"yaml", "import: [chess.yaml]\nname: files\n"}, {"scripts", scripts}});
  EXPECT_EQ(many, 400);
  EXPECT_EQ(too_many["error"], "an upload may bring at most 32 scripts, not 33");
  auto [draft, draft_why] = post("/api/variants/check", {{"yaml", "import: [chess.yaml]\nname: files\n"}, {"scripts", scripts}});
  EXPECT_EQ(draft, 400);
  EXPECT_EQ(draft_why["error"], too_many["error"]);
  // A script the variant does not name (a tab open in the workshop) is neither written nor kept.
  auto [unnamed, upload] = post("/api/variants", {{"yaml", "import: [chess.yaml]\nname: files\nscripts: {a: a.lua}\n"},
                                                  {"scripts", {{"a.lua", "x = 1"}, {"b.lua", "y = 2"}}}});
  ASSERT_EQ(unnamed, 201) << upload.dump();
  EXPECT_EQ(call("GET", "/api/variants/" + upload["variant"].get<std::string>() + "/source").second["scripts"], json({{"a.lua", "x = 1"}}));
  int folders = 0;
  for (const auto& scratch : fs::directory_iterator(fs::temp_directory_path()))
    if (scratch.path().filename().string().rfind("palace-serve-" + std::to_string(::getpid()) + "-", 0) == 0) {
      const fs::path folder = scratch.path() / upload["variant"].get<std::string>();
      folders += fs::exists(folder / "a.lua");
      EXPECT_FALSE(fs::exists(folder / "b.lua"));
    }
  EXPECT_EQ(folders, 1);

  // 32 one-line scripts, variant.yaml and chess.yaml's stand-in: 34 files, 136 KiB on the disk.
  limits_.max_scratch_mb = 1;
  restart();
  std::string yaml = "import: [chess.yaml]\nname: blocks\nscripts:\n";
  json named = json::object();
  for (int i = 0; i < 32; ++i) {
    yaml += "  s" + std::to_string(i) + ": " + script_name(i) + "\n";
    named[script_name(i)] = "x = 1";
  }
  std::vector<std::string> games;
  int status = 201;
  for (int i = 0; i < 8 && status == 201; ++i) {
    auto [made, answer] = post("/api/variants", {{"yaml", yaml}, {"scripts", named}});
    status = made;
    if (made == 201) games.push_back(new_game({{"variant", answer["variant"]}})["id"]);  // in play: its folder stays
    else EXPECT_EQ(answer["error"], "the server's scratch folder is full (1 MiB of uploads in play; palace serve --max-scratch-mb)");
  }
  EXPECT_EQ(status, 507);
  EXPECT_EQ(games.size(), 7u);  // 7 × 136 KiB fit in 1 MiB, 8 do not
}

// test_many_variants.py: a workshop test naming the draft 200 times compiled it 200 times.
TEST_F(Workshop, ATestNamesTheDraftOnce) {
  auto [status, error] = post("/api/variants/test", {{"yaml", "import: [chess.yaml]\nname: t\n"},
                                                     {"test", "variant: [variant.yaml, variant.yaml]\ncases:\n  - {name: a, legal_moves: [e2e4]}\n"}});
  EXPECT_EQ(status, 422);
  EXPECT_EQ(error["error"], "test.yaml:1:25: variant[1]: a workshop test plays the variant being edited, once: variant: variant.yaml");
}

// The inline slow hook of audit-4/README.md (M6): 50,000 table writes a call, here once a pawn
// stands on e4. A request on the upload has the hooks' deadline: past it the hook is cut short,
// the answer is 503 in one line, and the game is as it was, in memory and in the store.
TEST_F(ServerApi, HooksPastTheRequestsDeadlineAreCutShortAndTheGameKept) {
  limits_.hook_deadline = std::chrono::milliseconds(50);
  restart();
  const std::string script = "function h(m)\n  if palace.piece_at('e4') then\n    local t = {}\n"
                             "    for i = 1, 50000 do t['k' .. i] = i end\n  end\n  return true\nend\n";
  auto [uploaded, answer] = post("/api/variants", {{"yaml", "import: [chess.yaml]\nname: slow\nscripts: {s: s.lua}\n"
                                                            "pieces: {knight: {hooks: {allow_move: s.h}}, pawn: {hooks: {allow_move: s.h}}}\n"},
                                                   {"scripts", {{"s.lua", script}}}});
  ASSERT_EQ(uploaded, 201) << answer.dump();
  const std::string id = new_game({{"variant", answer["variant"]}})["id"];
  auto [cut, why] = post("/api/games/" + id + "/moves", {{"move", "e2e4"}});
  EXPECT_EQ(cut, 503);
  EXPECT_EQ(why["error"], "the variant's hooks ran past the request's deadline (50 ms; palace serve --hook-deadline-ms)");
  EXPECT_EQ(call("GET", "/api/games/" + id + "/record").second["moves"], json::array());
  auto [read, state] = call("GET", "/api/games/" + id);
  EXPECT_EQ(read, 200) << state.dump();
  EXPECT_EQ(state["moves"], json::array());
  EXPECT_EQ(post("/api/games/" + id + "/moves", {{"move", "d2d4"}}).first, 200);
  restart();
  EXPECT_EQ(call("GET", "/api/games/" + id + "/record").second["moves"], json({"d2d4"}));
}

// Seats: each side's key moves its side only, the spectators' key only reads, and the creator's
// id holds the seats whose own keys were never used.
TEST_F(ServerApi, SeatsMoveOnlyTheirSideAndSpectatorsOnlyRead) {
  const json created = new_game({{"variant", "chess"}});
  const std::string id = created["id"], white = created["seats"]["white"], black = created["seats"]["black"];
  const std::string spectator = created["links"]["spectator"].get<std::string>().substr(6);
  EXPECT_EQ(created["plays"], json({"white", "black"}));
  EXPECT_EQ(created["links"], json({{"white", "/game/" + white}, {"black", "/game/" + black}, {"spectator", "/game/" + spectator}}));
  EXPECT_EQ(std::set<std::string>({id, white, black, spectator}).size(), 4u);

  auto [status, answer] = post("/api/games/" + black + "/moves", {{"move", "e4"}});
  EXPECT_EQ(status, 403);
  EXPECT_EQ(answer["error"], "it is white's turn, and this link does not move white (this link is black's seat)");
  std::tie(status, answer) = post("/api/games/" + spectator + "/moves", {{"move", "e4"}});
  EXPECT_EQ(status, 403);
  EXPECT_EQ(answer["error"], "this is a spectator's link: it follows the game but cannot change it");
  std::tie(status, answer) = post("/api/games/" + white + "/moves", {{"move", "e4"}});
  ASSERT_EQ(status, 200) << answer.dump();
  EXPECT_EQ(answer["id"], white);
  EXPECT_EQ(answer["plays"], json({"white"}));
  EXPECT_EQ(answer["links"], json({{"white", "/game/" + white}, {"spectator", "/game/" + spectator}}));  // not black's
  // Both seats' keys were used: the creator's id now moves neither side, nor undoes.
  std::tie(status, answer) = post("/api/games/" + id + "/moves", {{"move", "e5"}});
  EXPECT_EQ(status, 403);
  EXPECT_EQ(answer["error"], "it is black's turn, and this link does not move black (its seat was taken by its own link)");
  std::tie(status, answer) = post("/api/games/" + white + "/undo", json::object());
  EXPECT_EQ(status, 403);
  EXPECT_EQ(answer["error"], "only a link holding both seats may do this (this link is white's seat)");
  std::tie(status, answer) = post("/api/games/" + black + "/moves", {{"move", "e5"}});
  ASSERT_EQ(status, 200) << answer.dump();

  auto [seen, watched] = call("GET", "/api/games/" + spectator);
  ASSERT_EQ(seen, 200);
  EXPECT_EQ(watched["moves"], json({"e2e4", "e7e5"}));
  EXPECT_EQ(watched["plays"], json::array());
  EXPECT_EQ(watched["links"], json({{"spectator", "/game/" + spectator}}));
  std::tie(status, answer) = post("/api/games/" + spectator + "/resign", json::object());
  EXPECT_EQ(status, 403);
  std::tie(status, answer) = call("PUT", "/api/games/" + spectator + "/fen", json({{"fen", "8/8/8/8/8/8/8/K6k w - - 0 1"}}).dump());
  EXPECT_EQ(status, 403);
  std::tie(status, answer) = post("/api/games/" + white + "0/moves", {{"move", "Nf3"}});
  EXPECT_EQ(status, 404);
  EXPECT_EQ(answer["error"], "no game with id \"" + white + "0\"");

  // The seats are the store's: after a restart each key still moves its own side only.
  restart();
  std::tie(status, answer) = post("/api/games/" + black + "/moves", {{"move", "Nf3"}});
  EXPECT_EQ(status, 403);
  std::tie(status, answer) = post("/api/games/" + white + "/moves", {{"move", "Nf3"}});
  ASSERT_EQ(status, 200) << answer.dump();
  EXPECT_EQ(answer["moves"].size(), 3u);
}

// The clock is the server's: its own time decides a flag, which the store keeps across a restart.
TEST_F(ServerApi, TheServersClockFlagsWithIncrementAndKeepsItAcrossARestart) {
  std::int64_t now = 1'000'000'000'000;
  limits_.now = [&now] { return now; };
  restart();
  const json created = new_game({{"variant", "chess"}, {"clock", {{"initial", 10}, {"increment", 5}}}});
  const std::string id = created["id"];
  EXPECT_EQ(created["clock"], json({{"initial_ms", 10000}, {"increment_ms", 5000}, {"byoyomi_ms", 0}, {"periods", 0},
                                    {"left_ms", {10000, 10000}}, {"periods_left", {0, 0}}, {"running", nullptr}}));
  now += 60'000;  // no clock runs before the first move
  auto [status, answer] = post("/api/games/" + id + "/moves", {{"move", "e4"}});
  ASSERT_EQ(status, 200) << answer.dump();
  EXPECT_EQ(answer["clock"]["running"], "black");
  now += 3'000;
  std::tie(status, answer) = post("/api/games/" + id + "/moves", {{"move", "e5"}});
  EXPECT_EQ(answer["clock"]["left_ms"], json({10000, 12000}));  // 10 s less 3 s, and 5 s more
  now += 4'000;
  restart();  // the clock ran on meanwhile: neither reset nor stopped
  std::tie(status, answer) = call("GET", "/api/games/" + id);
  EXPECT_EQ(answer["clock"]["left_ms"], json({6000, 12000}));
  EXPECT_FALSE(answer["result"]["finished"]);
  now += 6'000;
  std::tie(status, answer) = call("GET", "/api/games/" + id);
  EXPECT_EQ(answer["result"], json({{"finished", true}, {"kind", "win"}, {"winner", "black"}, {"reason", "white's time ran out"},
                                    {"text", "black wins: white's time ran out"}}));
  EXPECT_EQ(answer["legal_moves"], json::array());
  EXPECT_EQ(answer["clock"]["left_ms"], json({0, 12000}));
  EXPECT_EQ(answer["clock"]["running"], nullptr);
  std::tie(status, answer) = post("/api/games/" + id + "/moves", {{"move", "Nf3"}});
  EXPECT_EQ(status, 409);
  EXPECT_EQ(answer["error"], "the game is over: black wins: white's time ran out");
  now += 60'000;
  restart();
  std::tie(status, answer) = call("GET", "/api/games/" + id);
  EXPECT_EQ(answer["result"]["text"], "black wins: white's time ran out");
  EXPECT_EQ(answer["clock"]["left_ms"], json({0, 12000}));
  EXPECT_EQ(answer["moves"].size(), 2u);
}

// Byo-yomi: once the main time is spent, a move that takes a whole period loses it; the last
// period overrun is a flag.
TEST_F(ServerApi, ByoyomiPeriodsAreLostOneAWholePeriodThenTheFlagFalls) {
  std::int64_t now = 1'000'000'000'000;
  limits_.now = [&now] { return now; };
  restart();
  const std::string id = new_game({{"variant", "janggi"}, {"clock", {{"initial", 60}, {"byoyomi", 30}, {"periods", 3}}}})["id"];
  auto [status, answer] = post("/api/games/" + id + "/moves", {{"move", "b10c8"}});
  ASSERT_EQ(status, 200) << answer.dump();
  EXPECT_EQ(answer["clock"]["left_ms"], json({150000, 150000}));  // a minute and three periods of 30 s
  now += 60'000 + 45'000;  // the minute, one whole period and half of the next
  std::tie(status, answer) = post("/api/games/" + id + "/moves", {{"move", answer["legal_moves"][0]}});
  ASSERT_EQ(status, 200) << answer.dump();
  EXPECT_EQ(answer["clock"]["left_ms"], json({150000, 60000}));  // two periods left, the one under way given back whole
  std::tie(status, answer) = post("/api/games/" + id + "/moves", {{"move", answer["legal_moves"][0]}});
  ASSERT_EQ(status, 200) << answer.dump();
  now += 59'000;
  std::tie(status, answer) = call("GET", "/api/games/" + id);
  EXPECT_FALSE(answer["result"]["finished"]);
  EXPECT_EQ(answer["clock"]["left_ms"], json({150000, 1000}));
  now += 1'000;
  std::tie(status, answer) = call("GET", "/api/games/" + id);
  EXPECT_EQ(answer["result"]["text"], "cho wins: han's time ran out");
}

TEST_F(ServerApi, ResignationAndDrawOffersByTheSeats) {
  json created = new_game({{"variant", "chess"}});
  std::string white = created["seats"]["white"], black = created["seats"]["black"];
  auto [status, answer] = post("/api/games/" + white + "/draw/accept", json::object());
  EXPECT_EQ(status, 409);
  EXPECT_EQ(answer["error"], "no draw offer stands to accept");
  post("/api/games/" + white + "/moves", {{"move", "e4"}});
  std::tie(status, answer) = post("/api/games/" + white + "/draw/offer", json::object());  // not white's turn: still white's offer
  ASSERT_EQ(status, 200) << answer.dump();
  EXPECT_EQ(answer["draw_offer"], "white");
  std::tie(status, answer) = post("/api/games/" + white + "/draw/accept", json::object());
  EXPECT_EQ(status, 403);
  EXPECT_EQ(answer["error"], "the draw offer is white's own: only black may accept it");
  std::tie(status, answer) = post("/api/games/" + black + "/draw/offer", json::object());
  EXPECT_EQ(status, 409);
  EXPECT_EQ(answer["error"], "white's draw offer stands already");
  std::tie(status, answer) = post("/api/games/" + black + "/moves", {{"move", "e5"}});  // the offerer's opponent moved
  EXPECT_FALSE(answer.contains("draw_offer"));
  post("/api/games/" + black + "/draw/offer", json::object());
  std::tie(status, answer) = post("/api/games/" + white + "/draw/decline", json::object());
  ASSERT_EQ(status, 200) << answer.dump();
  EXPECT_FALSE(answer.contains("draw_offer"));
  post("/api/games/" + white + "/draw/offer", json::object());
  std::tie(status, answer) = post("/api/games/" + white + "/moves", {{"move", "Nf3"}});  // the offerer's own move
  EXPECT_EQ(answer["draw_offer"], "white");
  restart();
  std::tie(status, answer) = post("/api/games/" + black + "/draw/accept", json::object());
  ASSERT_EQ(status, 200) << answer.dump();
  EXPECT_EQ(answer["result"]["text"], "draw: agreed by both sides");
  EXPECT_EQ(answer["result"]["kind"], "draw");
  std::tie(status, answer) = post("/api/games/" + black + "/moves", {{"move", "Nc6"}});
  EXPECT_EQ(status, 409);

  created = new_game({{"variant", "chess"}});
  const std::string id = created["id"];
  black = created["seats"]["black"];
  std::tie(status, answer) = post("/api/games/" + black + "/resign", json::object());  // not black's turn: black resigns
  ASSERT_EQ(status, 200) << answer.dump();
  EXPECT_EQ(answer["result"]["text"], "white wins: black resigned");
  std::tie(status, answer) = post("/api/games/" + id + "/resign", json::object());
  EXPECT_EQ(status, 409);
  EXPECT_EQ(answer["error"], "the game is over: white wins: black resigned");
  // The creator's id, holding both seats, resigns for the side to move.
  std::tie(status, answer) = post("/api/games/" + new_game({{"variant", "chess"}})["id"].get<std::string>() + "/resign", json::object());
  EXPECT_EQ(answer["result"]["text"], "black wins: white resigned");
  std::tie(status, answer) = post("/api/games/" + id + "/draw/maybe", json::object());
  EXPECT_EQ(status, 404);
  EXPECT_EQ(answer["error"], "no such address");
}

TEST_F(ServerApi, ABadTimeControlIsRefusedInOneLine) {
  const std::vector<std::pair<json, std::string>> cases = {
      {5, "expected \"clock\": an object of \"initial\", \"increment\", \"byoyomi\" (seconds) and \"periods\""},
      {{{"initial", -1}}, "clock.initial: expected seconds from 0 to 86400"},
      {{{"initial", "5"}}, "clock.initial: expected seconds from 0 to 86400"},
      {{{"initial", 60}, {"increment", 7200}}, "clock.increment: expected seconds from 0 to 3600"},
      {{{"initial", 60}, {"periods", 3}}, "clock.periods: byo-yomi periods need \"byoyomi\", the seconds of each"},
      {{{"byoyomi", 30}, {"periods", 0}}, "clock.periods: expected a whole number from 1 to 100"},
      {{{"initial", 0}}, "clock: expected some time, \"initial\" or \"byoyomi\" above 0"},
      {{{"initial", 60}, {"delay", 3}}, "clock: unknown field \"delay\" (expected initial, increment, byoyomi, periods)"},
  };
  for (const auto& [clock, message] : cases) {
    auto [status, answer] = post("/api/games", {{"variant", "chess"}, {"clock", clock}});
    EXPECT_EQ(status, 400) << clock.dump();
    EXPECT_EQ(answer["error"], message) << clock.dump();
  }
}

// A store written before seats: its games open as they did, their id moving both sides, with no
// seat links and no clock.
TEST_F(ServerApi, GamesStoredBeforeSeatsPlayAsBefore) {
  stop();
  fs::remove(dir_ / "games.db");
  sqlite3* db = nullptr;
  ASSERT_EQ(sqlite3_open((dir_ / "games.db").c_str(), &db), SQLITE_OK);
  ASSERT_EQ(sqlite3_exec(db, "CREATE TABLE games (id TEXT PRIMARY KEY, variant TEXT NOT NULL, start_fen TEXT NOT NULL, moves TEXT NOT NULL);"
                             "INSERT INTO games VALUES ('old', '{\"formations\":{},\"name\":\"chess\"}', 'rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1', 'e2e4')",
                         nullptr, nullptr, nullptr),
            SQLITE_OK);
  sqlite3_close(db);
  start();
  auto [status, answer] = call("GET", "/api/games/old");
  ASSERT_EQ(status, 200) << answer.dump();
  EXPECT_EQ(answer["plays"], json({"white", "black"}));
  EXPECT_EQ(answer["links"], json::object());
  EXPECT_FALSE(answer.contains("clock"));
  std::tie(status, answer) = post("/api/games/old/moves", {{"move", "e5"}});
  ASSERT_EQ(status, 200) << answer.dump();
  std::tie(status, answer) = post("/api/games/old/resign", json::object());
  EXPECT_EQ(answer["result"]["text"], "black wins: white resigned");
  restart();
  std::tie(status, answer) = call("GET", "/api/games/old");
  EXPECT_EQ(answer["moves"], json({"e2e4", "e7e5"}));
  EXPECT_EQ(answer["result"]["text"], "black wins: white resigned");
}

}  // namespace
}  // namespace palace::server
