// CECP as XBoard speaks it: feature negotiation, the engine keeping the game (usermove, go, force,
// undo, remove), XBoard's coordinates and drops, time controls, and bad input answered by one
// `Error (...)` or `Illegal move (...)` line.
#include <gtest/gtest.h>

#include <sstream>

#include "protocol/cecp.h"
#include "protocol/gui.h"

namespace palace::test {
namespace {

// After a command that may start the engine thinking, tell() waits for its move.
class XBoard : public Gui<protocol::CecpEngine> {
 public:
  explicit XBoard(const std::string& variant = "chess") : Gui<protocol::CecpEngine>(variant) {}
  std::vector<std::string> tell(const std::string& line, bool thinks = false) {
    return Gui<protocol::CecpEngine>::tell(line, thinks);
  }
};

TEST(Cecp, FeaturesNameEveryVariantByItsXBoardName) {
  XBoard gui;
  EXPECT_EQ(gui.tell("xboard"), std::vector<std::string>{});
  EXPECT_EQ(gui.tell("protover 2"),
            std::vector<std::string>{
                "feature myname=\"Palace\" variants=\"3check,5check,ai-wok,almost,amazon,antichess,atomic,berolina,breakthrough,"
                "capablanca,capahouse,centaur,chancellor,chaturanga,checkshogi,chess-design,chessgi,clobber,clobber10,codrus,courier,"
                "crazyhouse,dobutsu,embassy,extinction,fairy,fischerandom,fox-and-hounds,gardner,georgian,giveaway,gorogoro,"
                "gothic,grand,grasshopper,hoppelpoppel,horde,janggi,janggicasual,janggimodern,janggitraditional,janus,judkins,"
                "kinglet,kingofthehill,knightmate,legan,loop,losalamos,losers,makruk,manchu,mini,minishogi,minixiangqi,misere,modern,"
                "newzealand,nightrider,nocastle,nocheckatomic,normal,okisakishogi,omega,opulent,orda,paradigm,pawnback,pawnsideways,perfect,pocketknight,raazuvaa,shako,"
                "shatranj,shogi,tencubed,threekings,wolf,xiangqi,yarishogi\" setboard=1 usermove=1 ping=1 time=1 draw=0 reuse=1 "
                "analyze=0 colors=0 san=0 sigint=0 sigterm=0 done=1"});
  EXPECT_EQ(gui.tell("accepted setboard"), std::vector<std::string>{});
  EXPECT_EQ(gui.tell("ping 3"), std::vector<std::string>{"pong 3"});
}

// XBoard's opening of a Xiangqi game: the engine plays black, answers each move, and its moves are
// legal in the game the engine keeps (a move of the engine's own side is refused).
TEST(Cecp, ScriptedXiangqiGame) {
  XBoard gui;
  for (const char* line : {"new", "variant xiangqi", "level 40 5 0", "post", "hard", "time 30000", "otim 30000"})
    EXPECT_EQ(gui.tell(line), std::vector<std::string>{}) << line;
  gui.tell("st 1");
  const auto answer = gui.tell("usermove h2e2", true);
  const std::string reply = last(answer);
  ASSERT_EQ(reply.rfind("move ", 0), 0u) << reply;
  // Thinking lines: depth, score, centiseconds, nodes, then the line in ICCS.
  EXPECT_GE(answer.size(), 2u);
  // The reply is played on the engine's board: red moves again, and the reply cannot be repeated.
  EXPECT_EQ(gui.tell("usermove " + reply.substr(5)), std::vector<std::string>{"Illegal move (is not a legal move here): " + reply.substr(5)});
  gui.tell("force");
  EXPECT_EQ(gui.tell("usermove h0g2"), std::vector<std::string>{});
  EXPECT_EQ(gui.tell("remove"), std::vector<std::string>{});  // back to after h2e2
  EXPECT_EQ(gui.tell("undo"), std::vector<std::string>{});    // back to the start
  EXPECT_EQ(gui.tell("usermove b0c2"), std::vector<std::string>{});
  EXPECT_EQ(gui.tell("undo"), std::vector<std::string>{});
  EXPECT_EQ(gui.tell("undo"), std::vector<std::string>{"Error (no move to take back): undo"});
  EXPECT_EQ(last(gui.tell("go", true)).rfind("move ", 0), 0u);  // the engine now plays red
  EXPECT_EQ(gui.tell("result 1-0 {Red resigns}"), std::vector<std::string>{});
  EXPECT_FALSE(gui.engine().handle("quit"));
}

TEST(Cecp, SetboardAndAMateInChess) {
  XBoard gui;
  gui.tell("new");
  gui.tell("force");
  EXPECT_EQ(gui.tell("setboard rnbqkbnr/pppp1ppp/8/4p3/6P1/5P2/PPPPP2P/RNBQKBNR b KQkq - 0 2"), std::vector<std::string>{});
  gui.tell("sd 2");
  EXPECT_EQ(gui.tell("go", true), std::vector<std::string>{"move d8h4"});
  // A promotion is written with XBoard's lower-case letter.
  gui.tell("setboard 7k/P7/8/8/8/8/8/K7 w - - 0 1");
  gui.tell("sd 3");
  EXPECT_EQ(last(gui.tell("go", true)), "move a7a8q");
}

// Shogi's drops go as P@e5, in XBoard's 9x9 coordinates (ranks from 1).
TEST(Cecp, ShogiDropsMate) {
  XBoard gui("shogi");
  gui.tell("new");
  gui.tell("force");
  gui.tell("setboard 4k4/9/4P4/9/9/9/9/9/4K4[G] w - - 0 1");
  gui.tell("sd 2");
  EXPECT_EQ(gui.tell("go", true), std::vector<std::string>{"move G@e8"});
  // Now mated, the engine (the side to move after another go) resigns.
  EXPECT_EQ(gui.tell("go", true), std::vector<std::string>{"resign"});
}

TEST(Cecp, BadInputIsOneLineAndTheEngineGoesOn) {
  XBoard gui;
  gui.tell("new");
  gui.tell("force");
  const std::vector<std::pair<std::string, std::string>> cases = {
      {"frobnicate", "Error (unknown command): frobnicate"},
      {"usermove e2e5", "Illegal move (is not a legal move here): e2e5"},
      {"usermove", "Error (usermove needs a move): usermove"},
      {"usermove \x01\x1b[2J", "Illegal move (is not a legal move here): \"\\x01\\x1B[2J\""},
      {"frob\x07nicate", "Error (unknown command): \"frob\\x07nicate\""},
      {"ping", "Error (ping needs a number): ping"},
      {"setboard", "Error (setboard needs a FEN): setboard"},
      {"variant go", "Error (unsupported variant): variant go"},
      {"level 40 five 0", "Error (level needs MOVES MINUTES[:SECONDS] INCREMENT): level 40 five 0"},
      {"sd 0", "Error (sd needs a depth from 1 to 100): sd 0"},
      {"time soon", "Error (time needs centiseconds): time soon"},
      {"setboard 8/8 w - - 0 1", ""},
      {"remove", "Error (no move to take back): remove"},
  };
  for (const auto& [input, expected] : cases) {
    const auto lines = gui.tell(input);
    ASSERT_EQ(lines.size(), 1u) << input;
    if (expected.empty())
      EXPECT_EQ(lines[0].rfind("Error (bad position \"8/8 w - - 0 1\": ", 0), 0u) << lines[0];
    else
      EXPECT_EQ(lines[0], expected);
  }
  EXPECT_EQ(gui.tell("usermove e2e4"), std::vector<std::string>{});  // still at the start, in force mode
  EXPECT_EQ(gui.tell("ping 9"), std::vector<std::string>{"pong 9"});
}

// A line over a mebibyte is skipped; the error names the command it began with, cut, not the one
// before it.
TEST(Cecp, ALineOverAMebibyteIsOneCutErrorLine) {
  XBoard gui;
  std::istringstream in("ping 1\nfrobnicate " + std::string(2u << 20, 'a') + "\nping 2\nquit\n");
  gui.engine().run(in);
  EXPECT_EQ(gui.said(), (std::vector<std::string>{
                            "pong 1",
                            "Error (a line over 1048576 bytes is ignored): \"frobnicate " + std::string(89, 'a') + "...\"",
                            "pong 2"}));
}

// `?` moves now; `force` and `quit` end the thinking without a move.
TEST(Cecp, MoveNowForceAndQuitDuringThinking) {
  XBoard gui("xiangqi");
  gui.tell("st 600");
  gui.engine().handle("go");
  EXPECT_EQ(last(gui.tell("?")).rfind("move ", 0), 0u);
  gui.engine().handle("go");
  const std::size_t before = gui.said().size();
  EXPECT_EQ(gui.tell("force"), std::vector<std::string>{});
  EXPECT_EQ(gui.said().size(), before);
  gui.engine().handle("go");
  EXPECT_FALSE(gui.engine().handle("quit"));
}

}  // namespace
}  // namespace palace::test
