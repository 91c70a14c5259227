// The limits that keep a stranger's bytes from costing the server more than they weigh (issue 53):
// what the connection gate sees in a request, how JSON bodies are read, ids, and the store's log.
#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <nlohmann/json.hpp>
#include <set>
#include <string>
#include <unistd.h>

#include "core/text_file.h"
#include "server/connection_gate.h"
#include "server/game_store.h"
#include "server/json_body.h"
#include "server/random_id.h"
#include "server/variant_library.h"

namespace palace::server {
namespace {

namespace fs = std::filesystem;

TEST(ConnectionGateScan, ARequestIsWholeWithItsHeadAndTheBodyItsLengthSays) {
  const GateLimits limits;
  const std::string head = "POST /api/games HTTP/1.1\r\nHost: 127.0.0.1:1\r\ncontent-length :  5 \r\n";
  EXPECT_EQ(scan_request("GET / HTTP/1.1\r\nHost: x", limits).outcome, RequestScan::Incomplete);
  EXPECT_EQ(scan_request(head, limits).outcome, RequestScan::Incomplete);
  const RequestScan no_body = scan_request(head + "\r\n{\"a\"", limits);
  EXPECT_EQ(no_body.outcome, RequestScan::Incomplete);
  EXPECT_EQ(no_body.head_bytes, head.size() + 2);
  EXPECT_EQ(no_body.body_bytes, 5u);
  EXPECT_FALSE(no_body.expects_continue);
  EXPECT_EQ(scan_request(head + "\r\n{\"a\":", limits).outcome, RequestScan::Whole);
  // A pipelined request after it does not change what the first one is.
  EXPECT_EQ(scan_request(head + "\r\n{\"a\":GET / HTTP/1.1\r\n", limits).outcome, RequestScan::Whole);
  EXPECT_TRUE(scan_request(head + "Expect: 100-Continue\r\n\r\n", limits).expects_continue);
  EXPECT_EQ(scan_request("GET / HTTP/1.1\r\n\r\n", limits).outcome, RequestScan::Whole);
  // cpp-httplib refuses these before reading a body: the gate hands them over at once.
  EXPECT_EQ(scan_request("POST / HTTP/1.1\r\nTransfer-Encoding: chunked\r\n\r\n", limits).outcome, RequestScan::Whole);
  EXPECT_EQ(scan_request("POST / HTTP/1.1\r\nContent-Length: 9\r\nContent-Encoding: gzip\r\n\r\n", limits).outcome, RequestScan::Whole);
  EXPECT_EQ(scan_request("POST / HTTP/1.1\r\nContent-Length: 9\r\nContent-Encoding: identity\r\n\r\n", limits).outcome, RequestScan::Incomplete);
  // A length that is not digits alone is refused: cpp-httplib would read "5x" as 5.
  EXPECT_EQ(scan_request("POST / HTTP/1.1\r\nContent-Length: many\r\n\r\n", limits).outcome, RequestScan::BadLength);
  EXPECT_EQ(scan_request("POST / HTTP/1.1\r\nContent-Length: 5x\r\n\r\n12345", limits).outcome, RequestScan::BadLength);
}

TEST(ConnectionGateScan, HeadsAndBodiesPastTheirCapsAreSeenAsSuch) {
  GateLimits limits;
  limits.max_head_bytes = 64;
  limits.max_body_bytes = 10;
  EXPECT_EQ(scan_request("GET /" + std::string(70, 'a'), limits).outcome, RequestScan::HeadTooLarge);
  EXPECT_EQ(scan_request("GET /" + std::string(70, 'a') + "\r\n\r\n", limits).outcome, RequestScan::HeadTooLarge);
  EXPECT_EQ(scan_request("GET /" + std::string(40, 'a'), limits).outcome, RequestScan::Incomplete);
  const RequestScan big = scan_request("POST / HTTP/1.1\r\nContent-Length: 11\r\n\r\n", limits);
  EXPECT_EQ(big.outcome, RequestScan::BodyTooLarge);
  EXPECT_EQ(big.body_bytes, 11u);
  EXPECT_EQ(scan_request("POST / HTTP/1.1\r\nContent-Length: 99999999999999999999\r\n\r\n", limits).outcome, RequestScan::BodyTooLarge);
}

// What a message the body reader refuses says, or "" when it reads the body.
std::string refusal(const std::string& body) {
  try {
    parse_json_body(body);
    return "";
  } catch (const RequestError& e) {
    EXPECT_EQ(e.status(), 400);
    return e.what();
  }
}

// `depth` objects, each the value of the one around it: {"a":{"a":1}} is 2.
std::string nested(std::size_t depth) {
  std::string text;
  for (std::size_t i = 0; i < depth; ++i) text += "{\"a\":";
  return text + "1" + std::string(depth, '}');
}

TEST(JsonBody, NestingPastItsDepthIsRefusedBeforeAnyOfItIsBuilt) {
  EXPECT_EQ(refusal(nested(MaxJsonDepth)), "");
  EXPECT_EQ(refusal(nested(MaxJsonDepth + 1)), "a JSON body may nest at most 32 objects and arrays deep");
  // json_nesting.py's body: 349,000 levels in 2 MiB, which took 50 MB a request to build.
  EXPECT_EQ(refusal(nested(349'000)), "a JSON body may nest at most 32 objects and arrays deep");
  EXPECT_EQ(refusal("{\"a\":" + std::string(40, '[') + std::string(40, ']') + "}"), "a JSON body may nest at most 32 objects and arrays deep");
}

TEST(JsonBody, ValuesPastTheirCountAreRefused) {
  std::string many = "{\"a\":[1";
  for (std::size_t i = 1; i + 2 < MaxJsonValues; ++i) many += ",1";
  EXPECT_EQ(refusal(many + "]}"), "");
  EXPECT_EQ(refusal(many + ",1,1]}"), "a JSON body may hold at most 10000 values");
}

TEST(JsonBody, AKeyTwiceInOneObjectIsRefusedAndMalformedTextPlaced) {
  const std::string twice = read_text_file(std::string(PALACE_SOURCE_DIR) + "/tests/repro/audit-4/duplicate_keys.json");
  EXPECT_EQ(refusal(twice), "key \"variant\" appears twice in one JSON object");
  EXPECT_EQ(refusal(R"({"a": {"b": 1, "b": 2}})"), "key \"b\" appears twice in one JSON object");
  EXPECT_EQ(refusal(R"({"a": {"b": 1}, "c": {"b": 2}, "d": [{"b": 1}, {"b": 1}]})"), "");
  EXPECT_EQ(refusal("{\"variant\": "), "malformed JSON at byte 13");
  EXPECT_EQ(refusal("[1]"), "expected a JSON object");
  EXPECT_EQ(parse_json_body(""), nlohmann::json::object());
}

// 128 bits each, drawn afresh: no id says anything about the next (id_seed_crack.c found the one
// 32-bit seed behind them all from one id). Two draws never meeting is what 128 bits give; that
// they are 32 hex digits is what this checks.
TEST(RandomIds, AreThirtyTwoHexDigitsDrawnAfresh) {
  std::set<std::string> seen;
  for (int i = 0; i < 1000; ++i) {
    const std::string id = random_hex();
    EXPECT_EQ(id.size(), 32u);
    EXPECT_TRUE(std::all_of(id.begin(), id.end(), [](char c) { return (c >= '0' && c <= '9') || (c >= 'a' && c <= 'f'); })) << id;
    seen.insert(id);
  }
  EXPECT_EQ(seen.size(), 1000u);
  EXPECT_EQ(random_hex(7).size(), 7u);
}

// wal_growth.py: on SQLite 3.40 the checkpoint connection, never having read the file, copied
// nothing back, and the log grew by every move (29 MB for 3,000). Now each checkpoint copies it
// all, and a log grown past a few megabytes is cut back.
TEST(GameStoreLog, TheWriteAheadLogStaysBoundedOverManyMoves) {
  const fs::path file = fs::temp_directory_path() / ("palace-store-log-" + std::to_string(::getpid()) + ".db");
  fs::remove(file);
  const std::vector<std::string> opening = {"e2e4", "e7e5", "g1f3", "b8c6", "f1c4", "g8f6", "d2d3", "f8c5", "c2c3", "d7d6"};
  {
    GameStore store(file.string());
    for (int g = 0; g < 300; ++g) {
      StoredGame game{"game-" + std::to_string(g), VariantChoice{"chess", {}}.key(), "start", {}};
      for (const std::string& move : opening) {
        game.moves.push_back(move);
        store.save(game);
      }
      if (g % 10 == 9) {
        EXPECT_EQ(store.checkpoint(), 0);
      }
    }
    EXPECT_EQ(store.checkpoint(), 0);
    EXPECT_LT(fs::file_size(file.string() + "-wal"), std::uintmax_t(5) << 20);
    EXPECT_EQ(store.game_count(), 300u);
  }
  GameStore again(file.string());
  EXPECT_EQ(again.load("game-299")->moves, opening);
  fs::remove(file);
  fs::remove(file.string() + "-wal");
  fs::remove(file.string() + "-shm");
}

}  // namespace
}  // namespace palace::server
