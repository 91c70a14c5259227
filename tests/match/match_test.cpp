// The referee: against a real UCI engine, against engines that misbehave, and its arithmetic.
#include <gtest/gtest.h>
#include <sys/stat.h>

#include <chrono>
#include <cmath>
#include <filesystem>

#include "game/game.h"
#include "hooks/load_variant.h"
#include "match/match.h"
#include "match/match_error.h"
#include "match/player.h"
#include "notation/wire.h"
#include "search/search.h"
#include "test_support.h"

namespace palace::test {
namespace {

bool installed(const char* path) { return std::filesystem::exists(path); }

TEST(Match, AgainstARealUciEngine) {
  std::string variant, engine;
  if (installed("/usr/games/fairy-stockfish")) {
    variant = "janggi-modern";
    engine = "/usr/games/fairy-stockfish";
  } else if (installed("/usr/games/stockfish")) {
    variant = "chess";
    engine = "/usr/games/stockfish";
  } else {
    GTEST_SKIP() << "neither fairy-stockfish nor stockfish is installed";
  }
  const std::string pgn = temp_path("games.pgn");
  const auto run = run_palace("match variants/" + variant + ".yaml --player palace,depth=1 --engine '" + engine +
                              "' --movetime 20 --max-plies 40 --pgn " + shell_quoted(pgn) + " 2>&1");
  ASSERT_EQ(run.status, 0) << run.out;
  ASSERT_EQ(run.lines.size(), 3u) << run.out;
  EXPECT_EQ(run.lines[0].rfind("game ", 0), 0u);
  EXPECT_EQ(run.lines[2].rfind("palace vs " + std::filesystem::path(engine).filename().string() + ": 2 games, +", 0), 0u)
      << run.lines[2];
  // The PGN: two games with colours swapped, every move, written in the variant's own notation,
  // legal by Palace's rules.
  const auto lines = file_lines(pgn);
  int variants = 0, whites = 0;
  for (const auto& line : lines) {
    variants += line == "[Variant \"" + variant + "\"]";
    whites += line == "[White \"palace\"]";
  }
  const auto replay = run_palace("replay " + shell_quoted(pgn));
  EXPECT_EQ(replay.status, 0) << replay.out;
  EXPECT_EQ(replay.lines.back(), "2 games, 2 good, 0 bad") << replay.out;
  EXPECT_EQ(variants, 2);
  EXPECT_EQ(whites, 1);
}

// Palace through each of the other protocols against the reference engine through the same one:
// both games end, every move legal by Palace's rules.
TEST(Match, EveryProtocolAgainstTheReferenceInTheSameProtocol) {
  if (!installed("/usr/games/fairy-stockfish")) GTEST_SKIP() << "fairy-stockfish is not installed";
  for (const auto& [variant, protocol] : std::vector<std::pair<std::string, std::string>>{
           {"shogi", "usi"}, {"xiangqi", "ucci"}, {"xiangqi", "xboard"}, {"shogi", "xboard"}}) {
    const std::string pgn = temp_path("games-" + protocol + ".pgn");
    std::filesystem::remove(pgn);
    const auto run = run_palace("match variants/" + variant + ".yaml --player 'engine=" + PALACE_BINARY + " " + protocol +
                                ",protocol=" + protocol + ",name=palace' --player 'engine=/usr/games/fairy-stockfish,protocol=" +
                                protocol + ",name=reference' --depth 1 --max-plies 30 --pgn " + shell_quoted(pgn) + " 2>&1");
    ASSERT_EQ(run.status, 0) << run.out;
    ASSERT_EQ(run.lines.size(), 3u) << run.out;
    for (int game = 0; game < 2; ++game)
      EXPECT_EQ(run.lines[game].find("illegal"), std::string::npos) << protocol << ": " << run.lines[game];
    EXPECT_EQ(run.lines[2].rfind("palace vs reference: 2 games, +", 0), 0u) << run.lines[2];
    const auto replay = run_palace("replay " + shell_quoted(pgn));
    EXPECT_EQ(replay.lines.back(), "2 games, 2 good, 0 bad") << protocol << ": " << replay.out;
  }
}

// A stand-in engine written in shell: it answers the handshake, then `go` as `behaviour` says.
std::string fake_engine(const std::string& name, const std::string& on_go) {
  const std::string path = temp_path(name + ".sh");
  std::ofstream out(path);
  out << "#!/bin/sh\nwhile read line; do case \"$line\" in\n"
      << "  uci) echo uciok;;\n  isready) echo readyok;;\n  go*) " << on_go << ";;\nesac; done\n";
  out.close();
  chmod(path.c_str(), 0755);
  return path;
}

TEST(Match, AnEngineThatMisbehavesLosesThatGameAndTheMatchGoesOn) {
  const std::string illegal = fake_engine("illegal", "echo bestmove a1a3");
  const std::string crash = fake_engine("crash", "exit 3");
  for (const auto& [engine, reason] : {std::pair{illegal, "made an illegal move: \"a1a3\" is not a legal move here"},
                                       std::pair{crash, "crashed"}}) {
    const auto run = run_palace("match variants/chess.yaml --depth 1 --engine " + shell_quoted(engine) + " --rounds 2 2>&1");
    ASSERT_EQ(run.status, 0) << run.out;
    ASSERT_EQ(run.lines.size(), 5u) << run.out;
    const std::string name = std::filesystem::path(engine).filename().string();
    const std::string summary = name + " vs palace: 4 games, +0 =0 -4, score 0.0%";
    EXPECT_EQ(run.lines[4].substr(0, summary.size()), summary);
    for (int i = 0; i < 4; ++i) EXPECT_NE(run.lines[std::size_t(i)].find(name + " " + reason + ")"), std::string::npos) << run.lines[std::size_t(i)];
  }
}

TEST(Match, FormationsPlayEveryPairAndTabulateTheFirstSidesScore) {
  const auto run = run_palace("match variants/janggi-modern.yaml --formations all --depth 1 --max-plies 4 -j 2 2>&1");
  ASSERT_EQ(run.status, 0) << run.out;
  ASSERT_EQ(run.lines.size(), 32u + 1 + 1 + 1 + 4) << run.out;
  EXPECT_EQ(run.lines[33], "cho's score (rows: cho's formation, columns: han's)");
  EXPECT_EQ(run.lines[34], "                  inner-elephant  outer-elephant   left-elephant  right-elephant");
  EXPECT_EQ(run.lines[35].substr(0, 16), "  inner-elephant");
}

TEST(Match, OpeningsFromAFileArePlayedEachWithColoursSwapped) {
  const std::string book = temp_path("openings.epd");
  std::ofstream(book) << "# two openings, the second in EPD's four fields\n\n"
                      << "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1\n"
                      << "rnbqkbnr/pppp1ppp/8/4p3/4P3/8/PPPP1PPP/RNBQKBNR w KQkq - id \"open game\";\n";
  const std::string pgn = temp_path("openings.pgn");
  std::filesystem::remove(pgn);
  const auto run = run_palace("match variants/chess.yaml --depth 1 --max-plies 2 --rounds 2 --openings " +
                              shell_quoted(book) + " --pgn " + shell_quoted(pgn) + " 2>&1");
  ASSERT_EQ(run.status, 0) << run.out;
  std::vector<std::string> fens;
  for (const auto& line : file_lines(pgn))
    if (line.rfind("[FEN ", 0) == 0) fens.push_back(line);
  const std::string first = "[FEN \"rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1\"]";
  const std::string second = "[FEN \"rnbqkbnr/pppp1ppp/8/4p3/4P3/8/PPPP1PPP/RNBQKBNR w KQkq - 0 1\"]";
  EXPECT_EQ(fens, (std::vector<std::string>{first, first, second, second}));
}

TEST(Match, AnOpeningsFileThatCannotBeReadIsOneLine) {
  const std::string book = temp_path("bad-openings.epd");
  std::ofstream(book) << "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1\nnot a position\n";
  const auto bad = run_palace("match variants/chess.yaml --depth 1 --openings " + shell_quoted(book) + " 2>&1");
  EXPECT_EQ(bad.status, 2);
  EXPECT_EQ(bad.out, "error: " + book + ":2: FEN board: unknown piece letter \"o\" on rank 8\n");
  EXPECT_EQ(run_palace("match variants/chess.yaml --depth 1 --openings /dev/zero 2>&1").out,
            "error: cannot read openings file \"/dev/zero\": cannot open file: not a regular file\n");
  EXPECT_EQ(run_palace("match variants/chess.yaml --depth 1 --openings /no/such.epd 2>&1").out,
            "error: cannot read openings file \"/no/such.epd\": cannot open file\n");
}

TEST(Match, BadSettingsAreOneLine) {
  EXPECT_EQ(run_palace("match variants/chess.yaml --player palace,depht=3 --depth 1 2>&1").out,
            "error: unknown player setting \"depht=3\" (palace, engine=CMD, protocol, name, variant, option.NAME, eval, "
            "depth, nodes, movetime)\n");
  EXPECT_EQ(run_palace("match variants/chess.yaml --depth 1 --player 'engine=x,protocol=uxi' 2>&1").out,
            "error: unknown protocol \"uxi\" (uci, usi, ucci, xboard)\n");
  EXPECT_EQ(run_palace("match variants/chess.yaml 2>&1").out,
            "error: give each player a limit: --tc, --movetime, --depth or --nodes\n");
  EXPECT_EQ(run_palace("match variants/chess.yaml --tc 10+x 2>&1").out,
            "error: --tc: \"10+x\" is not SECONDS or SECONDS+INCREMENT\n");
  EXPECT_EQ(run_palace("match variants/chess.yaml --depth 1 --engine /no/such/engine 2>&1").out,
            "error: cannot start engine \"/no/such/engine\": No such file or directory\n");
  EXPECT_EQ(run_palace("match variants/chess.yaml --depth 1 --sprt 'elo0=5 elo1=1' 2>&1").out,
            "error: --sprt: elo1 must be above elo0\n");
}

// Without a clock a depth-limited player searches to its depth: it once took the clock's 0 ms left
// for a clock running out, and stopped after a 1 ms budget (the Threads match test then varied).
TEST(Match, WithoutAClockADepthLimitedPlayerSearchesToItsDepth) {
  const auto variant = load_variant(variant_path("chess"));
  const auto player = match::make_player(match::parse_player_spec("palace,depth=7"), variant);
  const WireNotation wire(*variant);
  // A position (of the reference vectors) whose depth-7 move is none of depths 1-6's: f5e4, where
  // depths 1-2 play f8g7 and 3-6 h6g4.
  for (const char* fen : {"r1bqkbr1/p1ppp2p/p5pn/5p2/1P2P1PP/5N2/P1PP1P2/RNBQK2R b KQq - 0 7"}) {
    Game game(variant);
    game.set_fen(fen);
    player->new_game();
    const match::Answer answer = player->think(game, fen, match::Clocks{});
    Position pos = game.position();
    search::Searcher searcher(variant);
    EXPECT_EQ(answer.move, wire.move(pos, searcher.search(pos, {.depth = 7}, [](const search::Report&) {}))) << fen;
    EXPECT_EQ(answer.move, "f5e4") << fen;
  }
}

TEST(Score, EloIntervalAndSprtFollowTheResults) {
  match::Score even{10, 0, 10};
  EXPECT_DOUBLE_EQ(even.elo(), 0.0);
  match::Score three_quarters{15, 0, 5};
  EXPECT_NEAR(three_quarters.elo(), 190.85, 0.01);
  EXPECT_GT(three_quarters.elo_margin(), 100);
  const match::Sprt sprt = match::parse_sprt("elo0=0 elo1=10 alpha=0.05 beta=0.05");
  EXPECT_GT(match::Score({300, 100, 100}).llr(sprt), std::log(0.95 / 0.05));
  EXPECT_LT(match::Score({100, 100, 300}).llr(sprt), std::log(0.05 / 0.95));
  EXPECT_THROW(match::parse_sprt("alpha=2"), match::MatchError);
}

// Every game one way: the interval is the rule of three's (3/n on the ratio), p the sign test's, and
// the SPRT still decides where the results keep going one way.
TEST(Score, AScoreWhereEveryGameWentOneWayStillHasAnIntervalAndATest) {
  const match::Score lost{0, 0, 30};
  EXPECT_DOUBLE_EQ(lost.ratio_margin(), 0.1);
  EXPECT_GT(lost.elo_margin(), 100);
  EXPECT_DOUBLE_EQ(lost.p_value(), 2 * std::pow(0.5, 30));
  EXPECT_DOUBLE_EQ(match::Score({5, 0, 5}).p_value(), 1.0);
  const match::Sprt sprt{0, 20, 0.05, 0.05};
  EXPECT_EQ(match::sprt_verdict(match::Score({60, 0, 0}), sprt), match::SprtVerdict::H1);
  EXPECT_EQ(match::sprt_verdict(match::Score({0, 0, 60}), sprt), match::SprtVerdict::H0);
  EXPECT_EQ(match::sprt_verdict(match::Score({3, 0, 0}), sprt), match::SprtVerdict::Inconclusive);
}

}  // namespace
}  // namespace palace::test

namespace palace::test {
namespace {

const std::string Engines = "tests/repro/serve-and-hooks/engines/";

// flaky.sh answers uciok on its first two launches only (the check before the match, game 1): the
// games it cannot start are lost, and the match is played to its summary.
TEST(MatchHostileEngines, AnEngineThatNoLongerStartsLosesItsGamesNotTheMatch) {
  const std::string dir = temp_path("flaky");
  std::filesystem::create_directories(dir);
  const auto run = run_shell("cd " + shell_quoted(PALACE_SOURCE_DIR) + " && TMPDIR=" + shell_quoted(dir) + " " +
                             shell_quoted(PALACE_BINARY) + " match variants/chess.yaml --depth 1 --engine " + Engines +
                             "flaky.sh --rounds 1 2>&1");
  ASSERT_EQ(run.status, 0) << run.out;
  ASSERT_EQ(run.lines.size(), 3u) << run.out;
  EXPECT_EQ(run.lines[1], "game 2: palace - flaky.sh 1-0 (flaky.sh crashed (engine \"" + Engines + "flaky.sh\" did not answer uciok))");
  EXPECT_EQ(run.lines[2].rfind("flaky.sh vs palace: 2 games, +0 =0 -2", 0), 0u) << run.lines[2];
}

// forker.sh leaves a child holding its stdout and exits: that is a crash, seen at once, and the child
// goes with the engine's process group.
TEST(MatchHostileEngines, AnEngineThatExitsIsACrashAndItsChildrenGoWithIt) {
  const auto start = std::chrono::steady_clock::now();
  const auto run = run_palace("match variants/chess.yaml --depth 1 --engine " + Engines + "forker.sh --rounds 1 2>&1");
  EXPECT_LT(std::chrono::steady_clock::now() - start, std::chrono::seconds(10));
  ASSERT_EQ(run.status, 0) << run.out;
  ASSERT_EQ(run.lines.size(), 3u) << run.out;
  EXPECT_EQ(run.lines[0], "game 1: forker.sh - palace 0-1 (forker.sh crashed)");
  EXPECT_EQ(run_shell("pgrep -f '^sleep 300$' | wc -l").out, "0\n");
}

// flood.py answers go with bytes and no newline, as fast as the pipe takes them: past a mebibyte
// without a line it has crashed, and the referee holds no more of it.
TEST(MatchHostileEngines, AnEngineThatFloodsItsPipeHasCrashed) {
  const auto run = run_shell("cd " + shell_quoted(PALACE_SOURCE_DIR) + " && " + address_space_cap(2000000) + "timeout 60 " + shell_quoted(PALACE_BINARY) +
                             " match variants/chess.yaml --depth 1 --engine " + Engines + "flood.py --rounds 1 2>&1");
  ASSERT_EQ(run.status, 0) << run.out;
  ASSERT_EQ(run.lines.size(), 3u) << run.out;
  EXPECT_EQ(run.lines[0], "game 1: flood.py - palace 0-1 (flood.py crashed)");
}

}  // namespace
}  // namespace palace::test
