// USI as a shogi GUI speaks it: the handshake, SFEN positions with hands and promoted pieces, USI's
// moves and clocks, `bestmove resign`, and bad input answered by one `info string`.
#include <gtest/gtest.h>

#include "movetext/usi.h"
#include "protocol/gui.h"
#include "protocol/usi.h"

namespace palace::test {
namespace {

class UsiGui : public Gui<protocol::UsiEngine> {
 public:
  UsiGui() : Gui<protocol::UsiEngine>("shogi") {}
  std::vector<std::string> tell(const std::string& line) {
    return Gui<protocol::UsiEngine>::tell(line, line.rfind("go", 0) == 0);
  }
};

// The position of the USI specification's example: hands of both sides, promoted pieces both ways.
const std::string SpecSfen = "8l/1l+R2P3/p2pBG1pp/kps1p4/Nn1P2G2/P1P1P2PP/1PS6/1KSG3+r1/LN2+p3L w Sbgn3p 124";

TEST(Sfen, ReadsAndWritesHandsPromotedPiecesAndThePlyCounter) {
  const std::string fen = "8l/1l+R2P3/p2pBG1pp/kps1p4/Nn1P2G2/P1P1P2PP/1PS6/1KSG3+r1/LN2+p3L[Sbgnppp] b - - 0 62";
  EXPECT_EQ(fen_from_sfen(SpecSfen), fen);
  EXPECT_EQ(sfen_from_fen(fen), SpecSfen);
  EXPECT_EQ(fen_from_sfen("lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b - 1"),
            "lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL[] w - - 0 1");
  EXPECT_EQ(sfen_from_fen(Position(load_variant(variant_path("shogi"))).fen()),
            "lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b - 1");
}

TEST(Sfen, BadFieldsAreNamed) {
  const std::vector<std::pair<std::string, std::string>> cases = {
      {"9/9 x - 1", "SFEN side to move must be b or w, not \"x\""},
      {"9/9 b 2 1", "SFEN hands \"2\" end in a count"},
      {"9/9 b P? 1", "SFEN hands: \"?\" is neither a count nor a piece"},
      {"9/9 b - 0", "SFEN move number must be a number from 1, not \"0\""},
      {"9/9", "SFEN \"9/9\" needs a board, a side to move, hands and a move number"},
  };
  for (const auto& [sfen, message] : cases) {
    try {
      fen_from_sfen(sfen);
      ADD_FAILURE() << sfen << " was read";
    } catch (const FenError& e) {
      EXPECT_EQ(std::string(e.what()), message);
    }
  }
}

TEST(Usi, ScriptedSessionOfAGui) {
  UsiGui gui;
  const auto hello = gui.tell("usi");
  ASSERT_EQ(hello.size(), 6u);
  EXPECT_EQ(hello[0], "id name Palace");
  EXPECT_EQ(hello[2].rfind("option name USI_Variant type combo default shogi var 3check", 0), 0u) << hello[2];
  EXPECT_EQ(hello[4], "option name USI_Hash type spin default 16 min 1 max 4096");
  EXPECT_EQ(hello[5], "usiok");
  EXPECT_EQ(gui.tell("setoption name USI_Ponder value false"), std::vector<std::string>{});
  EXPECT_EQ(gui.tell("isready"), std::vector<std::string>{"readyok"});
  EXPECT_EQ(gui.tell("usinewgame"), std::vector<std::string>{});
  EXPECT_EQ(gui.tell("position startpos moves 7g7f 3c3d 8h2b+ 3a2b B*4e"), std::vector<std::string>{});
  const std::string best = last(gui.tell("go btime 0 wtime 0 byoyomi 100"));
  ASSERT_EQ(best.rfind("bestmove ", 0), 0u) << best;
  // The answer is a legal move of gote's, in USI's notation.
  const auto variant = load_variant(variant_path("shogi"));
  Position pos(variant);
  const WireNotation usi(*variant, WireStyle::Usi);
  std::string why;
  for (const char* text : {"7g7f", "3c3d", "8h2b+", "3a2b", "B*4e"}) {
    const Move m = usi.parse_move(pos, text, why);
    ASSERT_TRUE(m) << why;
    pos.do_move(m);
  }
  EXPECT_TRUE(usi.parse_move(pos, best.substr(9), why)) << why;
  EXPECT_EQ(gui.tell("gameover win"), std::vector<std::string>{});
  EXPECT_FALSE(gui.engine().handle("quit"));
}

TEST(Usi, DropsMateAndAMatedSideResigns) {
  UsiGui gui;
  gui.tell("position sfen 4k4/9/4P4/9/9/9/9/9/4K4 b G 1");
  EXPECT_EQ(last(gui.tell("go depth 2")), "bestmove G*5b");
  gui.tell("position sfen 4k4/9/4P4/9/9/9/9/9/4K4 b G 1 moves G*5b");
  EXPECT_EQ(gui.tell("go depth 2"), std::vector<std::string>{"bestmove resign"});
}

// The reference engine counts 178 moves in the specification's position.
TEST(Usi, PerftOfTheSpecificationPositionInUsiNotation) {
  UsiGui gui;
  gui.tell("position sfen " + SpecSfen);
  const auto lines = gui.tell("go perft 1");
  EXPECT_EQ(last(lines), "Nodes searched: 178");
  EXPECT_NE(std::find(lines.begin(), lines.end(), "G*9b: 1"), lines.end());
}

TEST(Usi, BadInputIsOneLineAndChangesNothing) {
  UsiGui gui;
  gui.tell("position startpos moves 7g7f");
  const std::vector<std::pair<std::string, std::string>> cases = {
      {"frobnicate", "info string unknown command \"frobnicate\""},
      {"position startpos moves 7g7f 7g7f", "info string position unchanged: move 2: \"7g7f\" is not a legal move here"},
      {"position sfen 9/9 x - 1", "info string bad position \"9/9 x - 1\": SFEN side to move must be b or w, not \"x\""},
      {"position fen 9/9 b - 1", "info string position needs startpos or sfen, not \"fen\""},
      {"go byoyomi soon", "info string go byoyomi needs a number"},
      {"setoption name USI_Variant value go",
       "info string unknown variant \"go\" (known: 3check, 5check, ai-wok, almost, amazon, antichess, atomic, berolina, "
       "breakthrough, capablanca, capahouse, centaur, chancellor, chaturanga, checkshogi, chess, chess-design, chessgi, clobber, clobber10, "
       "codrus, courier, crazyhouse, dobutsu, embassy, extinction, fairy, fischerandom, fox-and-hounds, gardner, georgian, "
       "giveaway, gorogoro, gothic, grand, grasshopper, hoppelpoppel, horde, janggi, janggicasual, janggimodern, "
       "janggitraditional, janus, judkins, kinglet, kingofthehill, knightmate, legan, loop, losalamos, losers, makruk, manchu, mini, minishogi, "
       "minixiangqi, misere, modern, newzealand, nightrider, nocastle, nocheckatomic, normal, okisakishogi, omega, opulent, orda, paradigm, pawnback, "
       "pawnsideways, perfect, pocketknight, raazuvaa, shako, shatranj, shogi, tencubed, threekings, wolf, xiangqi, yarishogi)"},
  };
  for (const auto& [input, expected] : cases) EXPECT_EQ(gui.tell(input), std::vector<std::string>{expected}) << input;
  // Still after 7g7f: gote has 30 replies.
  EXPECT_EQ(last(gui.tell("go perft 1")), "Nodes searched: 30");
}

TEST(Usi, StopAndQuitEndASearch) {
  UsiGui gui;
  gui.tell("position startpos");
  gui.engine().handle("go infinite");
  EXPECT_EQ(last(gui.tell("stop")).rfind("bestmove ", 0), 0u);
  gui.engine().handle("go infinite");
  EXPECT_FALSE(gui.engine().handle("quit"));
  EXPECT_EQ(last(gui.said()).rfind("bestmove ", 0), 0u);
}

}  // namespace
}  // namespace palace::test
