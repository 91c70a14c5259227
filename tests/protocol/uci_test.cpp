// The UCI engine driven line by line as a GUI would: a whole short game, options, and bad input,
// which must be answered by one `info string` naming the problem and change nothing.
#include <gtest/gtest.h>

#include <chrono>
#include <fstream>
#include <mutex>
#include <thread>

#include "game/game.h"
#include "notation/wire.h"
#include "protocol/uci.h"
#include "search/eval.h"
#include "protocol/gui.h"
#include "test_support.h"

namespace palace::test {
namespace {

// Stop and time limits are answered in tens of milliseconds; before hooks were interrupted they took
// 13 to 19 s. The bound lies between, far enough from both that a loaded machine does not decide it.
constexpr int AnswerBound = 5000;

// After a `go`, tell() waits for the bestmove (or a perft's total).
class Gui : public test::Gui<protocol::UciEngine> {
 public:
  explicit Gui(const std::string& variant = "janggi") : test::Gui<protocol::UciEngine>(variant) {}
  explicit Gui(const File& file) : test::Gui<protocol::UciEngine>(file) {}
  std::vector<std::string> tell(const std::string& line) {
    return test::Gui<protocol::UciEngine>::tell(line, line.rfind("go", 0) == 0);
  }
};

TEST(Uci, HandshakeOffersEveryVariantFileByItsWireName) {
  Gui gui;
  const auto lines = gui.tell("uci");
  ASSERT_EQ(lines.size(), 7u);
  EXPECT_EQ(lines[0], "id name Palace");
  EXPECT_EQ(lines[2],
            "option name UCI_Variant type combo default janggitraditional var 3check var 5check var ai-wok var almost var amazon "
            "var antichess var atomic var berolina var breakthrough var capablanca var capahouse var centaur var chancellor var chaturanga "
            "var checkshogi var chess var chess-design var chessgi var clobber var clobber10 var codrus var courier "
            "var crazyhouse var dobutsu var embassy var extinction var fairy var fischerandom var fox-and-hounds var gardner "
            "var georgian var giveaway var gorogoro var gothic var grand var grasshopper var hoppelpoppel var horde var janggi "
            "var janggicasual var janggimodern var janggitraditional var janus var judkins var kinglet var kingofthehill "
            "var knightmate var legan var loop var losalamos var losers var makruk var manchu var mini var minishogi var minixiangqi var misere "
            "var modern var newzealand var nightrider var nocastle var nocheckatomic var normal var okisakishogi var omega var opulent var orda var paradigm var pawnback "
            "var pawnsideways var perfect var pocketknight var raazuvaa var shako var shatranj var shogi var tencubed var threekings var wolf var xiangqi "
            "var yarishogi");
  EXPECT_EQ(lines[3], "option name VariantFile type string default <empty>");
  EXPECT_EQ(lines[6], "uciok");
  EXPECT_EQ(gui.tell("isready"), std::vector<std::string>{"readyok"});
}

// A whole game to its end, each move fed back as a GUI does: the engine finds the mate and then,
// in the mated position, has no move to give.
TEST(Uci, TranscriptOfAShortChessGame) {
  Gui gui;
  gui.tell("setoption name UCI_Variant value chess");
  gui.tell("ucinewgame");
  EXPECT_EQ(gui.tell("position startpos moves f2f3 e7e5 g2g4"), std::vector<std::string>{});
  const auto answer = gui.tell("go depth 2");
  EXPECT_EQ(last(answer), "bestmove d8h4");
  ASSERT_GE(answer.size(), 2u);
  EXPECT_EQ(answer[answer.size() - 2].rfind("info depth ", 0), 0u) << answer[answer.size() - 2];
  EXPECT_NE(answer[answer.size() - 2].find(" score mate 1 "), std::string::npos) << answer[answer.size() - 2];
  EXPECT_NE(answer[answer.size() - 2].find(" pv d8h4"), std::string::npos) << answer[answer.size() - 2];
  gui.tell("position startpos moves f2f3 e7e5 g2g4 d8h4");
  EXPECT_EQ(gui.tell("go depth 1"), std::vector<std::string>{"bestmove (none)"});
}

// Omega chess, a board with holes the reference cannot play: a search's answer is one of the
// position's legal moves, here after a wizard has left its corner point.
TEST(Uci, OmegaChessAnswersALegalMove) {
  Gui gui;
  gui.tell("setoption name UCI_Variant value omega");
  gui.tell("position startpos moves a1b4 l12k9");
  const std::string best = last(gui.tell("go depth 3"));
  ASSERT_EQ(best.rfind("bestmove ", 0), 0u) << best;
  const auto variant = load_variant(variant_path("omega"));
  Game game(variant);
  for (const char* m : {"a1b4", "l12k9"}) ASSERT_TRUE(game.play(m).accepted) << m;
  Position pos = game.position();
  std::string why;
  EXPECT_TRUE(WireNotation(*variant).parse_move(pos, best.substr(9), why)) << best << ": " << why;
}

// Engine against itself in mirrored Janggi: every bestmove is a legal wire move that Palace's own
// game accepts, and the same depth gives the same game twice.
std::vector<std::string> self_play(int plies) {
  Gui gui("janggi-modern");
  const auto variant = load_variant(variant_path("janggi-modern"));
  const WireNotation wire(*variant);
  Game game(variant);
  std::vector<std::string> moves;
  for (int ply = 0; ply < plies; ++ply) {
    gui.tell("position startpos moves " + join(moves));
    const std::string best = last(gui.tell("go depth 2"));
    EXPECT_EQ(best.rfind("bestmove ", 0), 0u) << best;
    moves.push_back(best.substr(9));
    Position pos = game.position();
    std::string why;
    const Move m = wire.parse_move(pos, moves.back(), why);
    EXPECT_TRUE(m) << why;
    EXPECT_TRUE(game.play(game.position().move_text(m)).accepted);
  }
  return moves;
}

TEST(Uci, SelfPlayInJanggiIsLegalAndDeterministic) {
  const auto first = self_play(8);
  EXPECT_EQ(first, self_play(8));
}

TEST(Uci, PerftCountsInWireNotation) {
  Gui gui("janggi-modern");
  gui.tell("position startpos");
  const auto lines = gui.tell("go perft 2");
  EXPECT_EQ(last(lines), "Nodes searched: 1024");
  EXPECT_NE(std::find(lines.begin(), lines.end(), "e2e2: 32"), lines.end());  // the pass, as the general's square
}

TEST(Uci, EvalPrintsTheStaticEvaluationOfThePosition) {
  Gui gui("chess");
  const auto chess = load_variant(variant_path("chess"));
  const search::Evaluation eval(*chess);
  const int start = eval(Position(chess)), after_e4 = eval(after_moves(chess, "e2e4"));
  ASSERT_LT(after_e4, start);  // Black, to move, faces White's central pawn
  gui.tell("position startpos moves e2e4");
  EXPECT_EQ(last(gui.tell("eval")), "info string static evaluation " + std::to_string(after_e4) + " cp for the side to move");
  gui.tell("position startpos");
  EXPECT_EQ(last(gui.tell("eval")), "info string static evaluation " + std::to_string(start) + " cp for the side to move");
}

TEST(Uci, StopEndsAnInfiniteSearchWithABestmove) {
  Gui gui("xiangqi");
  gui.tell("position startpos");
  gui.engine().handle("go infinite");
  // The search's info lines may come at any moment; besides them, isready is answered alone.
  std::vector<std::string> answer;
  for (const std::string& line : gui.tell("isready"))
    if (line.rfind("info ", 0) != 0) answer.push_back(line);
  EXPECT_EQ(answer, std::vector<std::string>{"readyok"});
  const auto lines = gui.tell("stop");
  EXPECT_EQ(last(lines).rfind("bestmove ", 0), 0u) << last(lines);
}

TEST(Uci, BadInputIsNamedAndChangesNothing) {
  Gui gui("chess");
  gui.tell("position startpos moves e2e4");
  const std::vector<std::pair<std::string, std::string>> cases = {
      {"frobnicate now", "info string unknown command \"frobnicate\""},
      {"position startpos moves e2e4 e7e5 e1e3", "info string position unchanged: move 3: \"e1e3\" is not a legal move here"},
      {"position startpos moves e2e4 zz", "info string position unchanged: move 2: \"zz\" is not a move"},
      {"position fen rnbqkbnr/pppppppp/8/8 w KQkq - 0 1", ""},
      {"position sideways", "info string position needs startpos or fen, not \"sideways\""},
      {"position startpos e2e4", "info string expected moves after startpos, not \"e2e4\""},
      {"position fen", "info string position fen needs a position"},
      {"go depth many", "info string go depth needs a number"},
      {"go sideways 3", "info string unknown go parameter \"sideways\""},
      {"setoption name UCI_Variant value no-such-game",
       "info string unknown variant \"no-such-game\" (known: 3check, 5check, ai-wok, almost, amazon, antichess, atomic, "
       "berolina, breakthrough, capablanca, capahouse, centaur, chancellor, chaturanga, checkshogi, chess, chess-design, chessgi, clobber, "
       "clobber10, codrus, courier, crazyhouse, dobutsu, embassy, extinction, fairy, fischerandom, fox-and-hounds, gardner, "
       "georgian, giveaway, gorogoro, gothic, grand, grasshopper, hoppelpoppel, horde, janggi, janggicasual, janggimodern, "
       "janggitraditional, janus, judkins, kinglet, kingofthehill, knightmate, legan, loop, losalamos, losers, makruk, manchu, mini, minishogi, "
       "minixiangqi, misere, modern, newzealand, nightrider, nocastle, nocheckatomic, normal, okisakishogi, omega, opulent, orda, paradigm, pawnback, "
       "pawnsideways, perfect, pocketknight, raazuvaa, shako, shatranj, shogi, tencubed, threekings, wolf, xiangqi, yarishogi)"},
      {"setoption name Hash value 0", "info string Hash must be 1 to 4096 MB, not \"0\""},
      {"setoption name Colour value red", "info string unknown option \"Colour\""},
      {"setoption name VariantFile value /no/such.yaml", ""},
  };
  for (const auto& [input, expected] : cases) {
    const auto lines = gui.tell(input);
    ASSERT_EQ(lines.size(), 1u) << input;
    if (expected.empty())
      EXPECT_EQ(lines[0].rfind("info string ", 0), 0u) << input << " -> " << lines[0];
    else
      EXPECT_EQ(lines[0], expected) << input;
  }
  // Still chess, still after 1. e4: perft 1 counts Black's 20 replies.
  EXPECT_EQ(last(gui.tell("go perft 1")), "Nodes searched: 20");
}

TEST(Uci, VariantFileBecomesTheCurrentVariant) {
  Gui gui("chess");
  EXPECT_EQ(gui.tell("setoption name VariantFile value " + variant_path("xiangqi")), std::vector<std::string>{});
  gui.tell("position startpos");
  EXPECT_EQ(last(gui.tell("go perft 1")), "Nodes searched: 44");
}

// A GUI names the game it plays (Cute Chess and `palace match` always do): an engine started with
// a house rule keeps it rather than taking the stock file of that name. Here Janggi without the
// pass: 31 first moves, where variants/janggi-modern.yaml has 32.
TEST(Uci, TheFileItStartedWithAnswersToItsOwnName) {
  Gui gui(Gui::File{overlay_path("janggi-modern", "rules: {pass: never}\n")});
  gui.tell("position startpos");
  EXPECT_EQ(last(gui.tell("go perft 1")), "Nodes searched: 31");
  EXPECT_EQ(gui.tell("setoption name UCI_Variant value janggi"), std::vector<std::string>{});
  gui.tell("position startpos");
  EXPECT_EQ(last(gui.tell("go perft 1")), "Nodes searched: 31");
  // Another game, then back: the name still means the file it started with.
  gui.tell("setoption name UCI_Variant value janggimodern");
  gui.tell("position startpos");
  EXPECT_EQ(last(gui.tell("go perft 1")), "Nodes searched: 32");
  gui.tell("setoption name UCI_Variant value janggi");
  gui.tell("position startpos");
  EXPECT_EQ(last(gui.tell("go perft 1")), "Nodes searched: 31");
}

TEST(Uci, QuitEndsTheConversation) {
  Gui gui;
  EXPECT_TRUE(gui.engine().handle("isready"));
  EXPECT_FALSE(gui.engine().handle("quit"));
}

}  // namespace
}  // namespace palace::test

namespace palace::test {
namespace {

// The hostile variants of tests/repro/serve-and-hooks/, by the name variant_path takes.
std::string repro(const std::string& name) { return "../tests/repro/serve-and-hooks/" + name; }

// flip7.lua offered a king capture on every seventh call: the search never ended. Its count is a
// global, which no longer outlives a call.
TEST(UciHostileHooks, AHookWithStateCannotHoldTheSearch) {
  Gui gui(repro("flip7"));
  gui.tell("position startpos");
  const auto lines = gui.tell("go depth 1");
  EXPECT_EQ(last(lines).rfind("bestmove ", 0), 0u) << last(lines);
}

// flip7_local.lua keeps its count in a top-level local, which each call makes again: the search
// sees chess, ends at its depth, and a stop ends an infinite one at once with a legal move.
TEST(UciHostileHooks, AHookWithATopLevelLocalCannotHoldTheSearch) {
  Gui gui(repro("flip7_local"));
  gui.tell("position startpos");
  EXPECT_EQ(last(gui.tell("go depth 2")).rfind("bestmove ", 0), 0u);
  gui.engine().handle("go infinite");
  std::this_thread::sleep_for(std::chrono::milliseconds(200));
  const auto start = std::chrono::steady_clock::now();
  const auto lines = gui.tell("stop");
  EXPECT_LT(std::chrono::steady_clock::now() - start, std::chrono::milliseconds(AnswerBound));
  EXPECT_EQ(last(lines).rfind("bestmove ", 0), 0u) << last(lines);
  EXPECT_NE(last(lines), "bestmove (none)");
}

// slow.lua spends its whole budget on each call: the time limit is still kept, as a hook is
// interrupted mid-call, before the first iteration is done; and so is a stop.
TEST(UciHostileHooks, SlowHooksKeepTheTimeLimitAndStop) {
  Gui gui(repro("slow"));
  gui.tell("position startpos");
  auto start = std::chrono::steady_clock::now();
  auto lines = gui.tell("go movetime 100");
  EXPECT_LT(std::chrono::steady_clock::now() - start, std::chrono::milliseconds(AnswerBound));
  EXPECT_EQ(last(lines).rfind("bestmove ", 0), 0u) << last(lines);
  EXPECT_NE(last(lines), "bestmove (none)");

  gui.engine().handle("go infinite");
  std::this_thread::sleep_for(std::chrono::milliseconds(50));
  start = std::chrono::steady_clock::now();
  lines = gui.tell("stop");
  EXPECT_LT(std::chrono::steady_clock::now() - start, std::chrono::milliseconds(AnswerBound));
  EXPECT_EQ(last(lines).rfind("bestmove ", 0), 0u) << last(lines);
}

// trap.lua errs once a piece stands on e4: the engine says so, answers, and goes on.
TEST(UciHostileHooks, AFailingHookCostsOneCommandNotTheEngine) {
  Gui gui(repro("trap"));
  EXPECT_EQ(gui.tell("position startpos moves e2e4 g8f6"),
            std::vector<std::string>{"info string \"position startpos moves e2e4 g8f6\" failed: trap.lua:3: knight: boom: e4 is occupied"});
  gui.tell("position startpos moves e2e4");
  EXPECT_EQ(gui.tell("go depth 2"), (std::vector<std::string>{"info string search stopped: trap.lua:3: knight: boom: e4 is occupied",
                                                              "bestmove (none)"}));
  EXPECT_EQ(gui.tell("go perft 1"), std::vector<std::string>{"info string \"go perft 1\" failed: trap.lua:3: knight: boom: e4 is occupied"});
  gui.tell("position startpos");
  EXPECT_EQ(last(gui.tell("go perft 1")), "Nodes searched: 20");
  EXPECT_EQ(gui.tell("isready"), std::vector<std::string>{"readyok"});
}

// A failed count's line is its answer, as a total is: the next go, sent the moment it is read, is
// taken.
TEST(UciHostileHooks, AGoRightAfterAFailedCountIsTaken) {
  Gui gui(repro("trap"));
  gui.tell("position startpos moves e2e4");
  for (int i = 0; i < 200; ++i)
    ASSERT_EQ(gui.tell("go perft 1"), std::vector<std::string>{"info string \"go perft 1\" failed: trap.lua:3: knight: boom: e4 is occupied"})
        << "count " << i;
}

}  // namespace
}  // namespace palace::test

namespace palace::test {
namespace {

// `palace uci` fed `input` on standard input, under a memory ceiling of `kib` (address_space_cap).
PalaceRun uci_session(const std::string& input, int kib = 4'000'000) {
  const std::string file = temp_path("uci_input.txt");
  std::ofstream(file, std::ios::binary) << input;
  return run_shell("cd " + shell_quoted(PALACE_SOURCE_DIR) + " && " + address_space_cap(kib) + "timeout 20 " +
                   shell_quoted(PALACE_BINARY) + " uci variants/chess.yaml < " + shell_quoted(file) + " 2>&1");
}

// A perft runs on the search thread: the engine answers isready during it, a stop ends it (no
// total is claimed), the next command works, and quit ends a running one.
TEST(UciPerft, ALongCountLeavesTheEngineListeningAndStops) {
  Gui gui("chess");
  gui.engine().handle("go perft 20");
  std::this_thread::sleep_for(std::chrono::milliseconds(100));
  auto start = std::chrono::steady_clock::now();
  EXPECT_EQ(gui.tell("isready"), std::vector<std::string>{"readyok"});
  EXPECT_EQ(gui.tell("go depth 1"), std::vector<std::string>{"info string go ignored: a search is running (send stop first)"});
  EXPECT_EQ(gui.tell("stop"), std::vector<std::string>{"info string perft stopped"});
  EXPECT_LT(std::chrono::steady_clock::now() - start, std::chrono::milliseconds(AnswerBound));
  EXPECT_EQ(last(gui.tell("go perft 2")), "Nodes searched: 400");
  EXPECT_EQ(last(gui.tell("go depth 1")).rfind("bestmove ", 0), 0u);  // the perft's stop is not left to the search

  gui.engine().handle("go perft 20");
  start = std::chrono::steady_clock::now();
  EXPECT_FALSE(gui.engine().handle("quit"));
  EXPECT_LT(std::chrono::steady_clock::now() - start, std::chrono::milliseconds(AnswerBound));
}

// A client sends its next go the moment it reads a total: the count is over by then, and the go is
// taken, never refused as "a search is running" (tests/vectors/ini_vs_reference.py met that).
TEST(UciPerft, AGoRightAfterTheTotalIsTaken) {
  Gui gui("chess");
  for (int i = 0; i < 500; ++i) ASSERT_EQ(last(gui.tell("go perft 1")), "Nodes searched: 20") << "count " << i;
}

// Closing standard input ends the process: a count or search that would run for hours is stopped
// after the grace a piped script gets (5 s), a search answering its best move so far.
TEST(UciPerft, TheEndOfInputEndsALongCountOrSearch) {
  auto start = std::chrono::steady_clock::now();
  PalaceRun run = uci_session("go perft 20\n");
  EXPECT_EQ(run.status, 0) << run.out;
  EXPECT_EQ(last(run.lines), "info string perft stopped") << run.out;
  EXPECT_LT(std::chrono::steady_clock::now() - start, std::chrono::seconds(15));
  start = std::chrono::steady_clock::now();
  run = uci_session("position startpos\ngo depth 60\n");
  EXPECT_EQ(run.status, 0) << run.out;
  EXPECT_EQ(last(run.lines).rfind("bestmove ", 0), 0u) << run.out;
  EXPECT_NE(last(run.lines), "bestmove (none)");
  EXPECT_LT(std::chrono::steady_clock::now() - start, std::chrono::seconds(15));
}

TEST(UciHostileInput, ALineOverAMebibyteIsSkippedWithOneLine) {
  const PalaceRun run = uci_session("position startpos moves " + std::string(2u << 20, 'e') + "\nisready\n");
  EXPECT_EQ(run.status, 0);
  EXPECT_EQ(run.lines, (std::vector<std::string>{"info string a line over 1048576 bytes is ignored", "readyok"}));
}

TEST(UciHostileInput, AHashTheMachineCannotHoldIsRefusedAndTheEngineGoesOn) {
  if (UnderAddressSanitizer) GTEST_SKIP() << "the refusal needs an address-space cap, which AddressSanitizer cannot run under";
  const PalaceRun run = uci_session("setoption name Hash value 4096\nisready\ngo depth 1\n", 1'000'000);
  EXPECT_EQ(run.status, 0);
  ASSERT_GE(run.lines.size(), 3u) << run.out;
  EXPECT_EQ(run.lines[0], "info string Hash 4096 MB: not enough memory; it stays 16 MB");
  EXPECT_EQ(run.lines[1], "readyok");
  EXPECT_EQ(run.lines.back().rfind("bestmove ", 0), 0u) << run.out;
}

}  // namespace
}  // namespace palace::test
