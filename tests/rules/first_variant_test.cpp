// rules/README.md's "Your first variant": each step's file in rules/examples/, run with the very
// command the guide shows, gives the result the guide prints. Results are worked out from the rules
// (the Janggi count also matches Fairy-Stockfish's), so the guide cannot rot.
#include <gtest/gtest.h>

#include "test_support.h"

namespace palace::test {
namespace {

// The last line `palace ARGS` printed, having checked that it exited 0.
std::string last_line(const std::string& args) {
  const PalaceRun run = run_palace(args);
  EXPECT_EQ(run.status, 0) << "palace " << args << ": " << run.out;
  return run.lines.empty() ? "" : run.lines.back();
}

// The moves of `palace moves` that start on one of `points`.
std::string moves_from(const std::string& moves, const std::vector<std::string>& points) {
  std::vector<std::string> out;
  for (const std::string& move : split(moves, ' '))
    for (const std::string& point : points)
      if (move.rfind(point, 0) == 0 && !std::isdigit(static_cast<unsigned char>(move[point.size()]))) out.push_back(move);
  return join(out);
}

// A camel leaps (1, 3): from b1 to a4 and c4 (e2 holds a pawn), from g1 to f4 and h4. Sixteen pawn
// moves besides, and Black answers each of the 20 with 20 of its own.
TEST(FirstVariant, ANewPiece) {
  EXPECT_EQ(last_line("moves rules/examples/camel-chess.yaml"),
            "a2a3 a2a4 b1a4 b1c4 b2b3 b2b4 c2c3 c2c4 d2d3 d2d4 e2e3 e2e4 f2f3 f2f4 g1f4 g1h4 g2g3 g2g4 h2h3 h2h4");
  EXPECT_EQ(last_line("perft rules/examples/camel-chess.yaml --depth 2"), "400");
}

// Cho's horses stand on b10 and c10, its elephants on g10 and h10. The b10 horse leaps to a8 and c8;
// the c10 horse only to d8 (b8 holds its cannon, its legs to a9 and e9 are blocked). The g10
// elephant's only open leg ends on its own soldier at e7; the h10 elephant reaches f7. 29899 is
// Fairy-Stockfish's perft 3 of the same position (ranks mirrored) in janggitraditional with
// `pass = false`, `bikjangRule = false`, `flyingGeneral = true`, which counts 29697 from the usual
// set-up, as Palace does for variants/janggi.yaml.
TEST(FirstVariant, ANewFormation) {
  const std::string moves = last_line("moves rules/examples/janggi-horses-left.yaml");
  EXPECT_EQ(moves_from(moves, {"b10", "c10", "g10", "h10"}), "b10a8 b10c8 c10d8 h10f7");
  EXPECT_EQ(last_line("perft rules/examples/janggi-horses-left.yaml --depth 3"), "29899");
}

// Black's general on d10 may step to d9 and e10, both held by the chariot on e9: no legal move,
// not in check.
TEST(FirstVariant, AHouseRule) {
  const std::string fen = " --fen '3k5/4R4/9/9/9/9/9/9/9/4K4 b - - 0 1'";
  EXPECT_EQ(last_line("moves rules/examples/xiangqi-stalemate-draw.yaml" + fen), "");
  const PalaceRun run = run_palace("status rules/examples/xiangqi-stalemate-draw.yaml" + fen);
  EXPECT_EQ(run.status, 0);
  EXPECT_EQ(run.lines, (std::vector<std::string>{"fen: 3k5/4R4/9/9/9/9/9/9/9/4K4 b - - 0 1", "to move: black",
                                                 "in check: no", "draw: stalemate"}));
  EXPECT_EQ(last_line("status variants/xiangqi.yaml" + fen), "red wins: stalemate");
}

// The e4 pawn (worth 1) may take the f5 pawn but not the d5 knight (worth 3), as chess would.
TEST(FirstVariant, AHook) {
  const std::string fen = " --fen '4k3/8/8/3n1p2/4P3/8/8/4K3 w - - 0 1'";
  EXPECT_EQ(last_line("moves rules/examples/humble-chess.yaml" + fen), "e1d1 e1d2 e1e2 e1f1 e1f2 e4e5 e4f5");
  EXPECT_EQ(last_line("moves variants/chess.yaml" + fen), "e1d1 e1d2 e1e2 e1f1 e1f2 e4d5 e4e5 e4f5");
}

}  // namespace
}  // namespace palace::test
