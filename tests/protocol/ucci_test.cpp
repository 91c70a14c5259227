// UCCI as a Xiangqi GUI speaks it: the handshake, ICCS moves (ranks from 0), the mover's clock,
// banmoves, nobestmove, bye, and bad input answered by one `info string`.
#include <gtest/gtest.h>

#include "protocol/gui.h"
#include "protocol/ucci.h"

namespace palace::test {
namespace {

class UcciGui : public Gui<protocol::UcciEngine> {
 public:
  UcciGui() : Gui<protocol::UcciEngine>("xiangqi") {}
  std::vector<std::string> tell(const std::string& line) {
    return Gui<protocol::UcciEngine>::tell(line, line.rfind("go", 0) == 0);
  }
};

TEST(Ucci, ScriptedSessionOfAGui) {
  UcciGui gui;
  const auto hello = gui.tell("ucci");
  ASSERT_EQ(hello.size(), 6u);
  EXPECT_EQ(hello[0], "id name Palace");
  EXPECT_EQ(hello[2].rfind("option variant type combo default xiangqi var 3check", 0), 0u) << hello[2];
  EXPECT_EQ(hello[4], "option hashsize type spin min 1 max 4096 default 16");
  EXPECT_EQ(hello[5], "ucciok");
  EXPECT_EQ(gui.tell("setoption hashsize 32"), std::vector<std::string>{});
  EXPECT_EQ(gui.tell("isready"), std::vector<std::string>{"readyok"});
  EXPECT_EQ(gui.tell("position fen rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 0 1 moves h2e2 h9g7"),
            std::vector<std::string>{});
  const std::string best = last(gui.tell("go time 2000 increment 0 opptime 2000 oppincrement 0"));
  ASSERT_EQ(best.rfind("bestmove ", 0), 0u) << best;
  const auto lines = gui.tell("go perft 1");  // the same position: the answer is among its moves
  EXPECT_NE(std::find_if(lines.begin(), lines.end(), [&](const std::string& l) { return l == best.substr(9) + ": 1"; }),
            lines.end()) << best;
  EXPECT_EQ(gui.tell("probe"), std::vector<std::string>{"pophash"});
  EXPECT_FALSE(gui.engine().handle("quit"));
  EXPECT_EQ(last(gui.said()), "bye");
}

TEST(Ucci, PerftCountsInIccs) {
  UcciGui gui;
  gui.tell("position startpos");
  const auto lines = gui.tell("go perft 1");
  EXPECT_EQ(last(lines), "Nodes searched: 44");
  EXPECT_NE(std::find(lines.begin(), lines.end(), "h2e2: 1"), lines.end());
  EXPECT_NE(std::find(lines.begin(), lines.end(), "a0a1: 1"), lines.end());
}

// The red general's only move is banned: there is none left to play (a black soldier keeps the
// position from being a dead draw).
TEST(Ucci, BanmovesKeepMovesFromTheNextSearch) {
  UcciGui gui;
  gui.tell("position fen 4k4/9/9/9/p8/9/9/9/9/3K5 w - - 0 1");
  EXPECT_EQ(last(gui.tell("go depth 3")), "bestmove d0d1");
  EXPECT_EQ(gui.tell("banmoves d0d1"), std::vector<std::string>{});
  EXPECT_EQ(gui.tell("go depth 3"), std::vector<std::string>{"nobestmove"});
  // A new position lifts the ban.
  gui.tell("position fen 4k4/9/9/9/p8/9/9/9/9/3K5 w - - 0 1");
  EXPECT_EQ(last(gui.tell("go depth 3")), "bestmove d0d1");
  // From the start, the best move banned, another comes.
  gui.tell("position startpos");
  const std::string first = last(gui.tell("go depth 2"));
  gui.tell("banmoves " + first.substr(9));
  const std::string second = last(gui.tell("go depth 2"));
  EXPECT_EQ(second.rfind("bestmove ", 0), 0u) << second;
  EXPECT_NE(second, first);
}

TEST(Ucci, AMatedSideHasNoBestmove) {
  UcciGui gui;
  gui.tell("position fen 3k5/4R4/4R4/9/9/9/9/9/9/4K4 b - - 0 1");
  EXPECT_EQ(gui.tell("go depth 1"), std::vector<std::string>{"nobestmove"});
}

TEST(Ucci, BadInputIsOneLineAndChangesNothing) {
  UcciGui gui;
  gui.tell("position startpos moves h2e2");
  const std::vector<std::pair<std::string, std::string>> cases = {
      {"frobnicate", "info string unknown command \"frobnicate\""},
      {"banmoves z9z9", "info string banmoves unchanged: \"z9z9\" is not a legal move here"},
      {"position startpos moves h2e2 h2e2", "info string position unchanged: move 2: \"h2e2\" is not a legal move here"},
      {"position startpos moves h3e3", "info string position unchanged: move 1: \"h3e3\" is not a legal move here"},
      {"go time", "info string go time needs a number"},
      {"go movetime 100", "info string unknown go parameter \"movetime\""},
      {"setoption hashsize lots", "info string Hash must be 1 to 4096 MB, not \"lots\""},
  };
  for (const auto& [input, expected] : cases) EXPECT_EQ(gui.tell(input), std::vector<std::string>{expected}) << input;
  EXPECT_EQ(last(gui.tell("go perft 1")), "Nodes searched: 45");  // black's replies to h2e2, as the reference counts them
}

TEST(Ucci, StopEndsAnInfiniteSearch) {
  UcciGui gui;
  gui.tell("position startpos");
  gui.engine().handle("go infinite");
  const auto ready = gui.tell("isready");  // info lines of the search may come with it
  EXPECT_NE(std::find(ready.begin(), ready.end(), "readyok"), ready.end());
  EXPECT_EQ(last(gui.tell("stop")).rfind("bestmove ", 0), 0u);
}

}  // namespace
}  // namespace palace::test
