// The new games' records: every legal move of positions from the zoo's vectors (tests/vectors/reference/zoo/,
// read in place) written in SAN and in the game's own notation reads back to the same move, the
// spellings each family's records use come out as they write them, and a crazyhouse PGN replays.
#include <gtest/gtest.h>

#include <fstream>

#include "movegen/reference_positions.h"
#include "movetext/notation.h"
#include "test_support.h"

namespace palace::test {
namespace {

constexpr std::size_t PositionsPerGame = 25;

class ZooNotation : public ::testing::TestWithParam<std::string> {};

TEST_P(ZooNotation, EveryLegalMoveReadsBackInSanAndNative) {
  const auto v = load_variant(variant_path(GetParam()));
  const MoveNotation notation(*v);
  const auto lines = data_lines(vectors_path(vector_file(GetParam(), ".moves")));
  ASSERT_GE(lines.size(), PositionsPerGame);
  Position pos(v);
  std::size_t moves = 0;
  for (std::size_t i = 0; i < PositionsPerGame; ++i) {
    pos.set_fen(split(lines[i], '|').at(0));
    MoveList legal;
    generate_legal(pos, legal);
    for (const Move m : legal)
      for (const NotationStyle style : {NotationStyle::San, notation.native()}) {
        const std::string text = notation.write(pos, m, style);
        std::string why;
        EXPECT_EQ(notation.read(pos, text, why), m) << lines[i] << ": " << pos.move_text(m) << " written " << text << ": " << why;
        ++moves;
      }
  }
  EXPECT_GT(moves, 100u);
}

INSTANTIATE_TEST_SUITE_P(Zoo, ZooNotation,
                         ::testing::Values("crazyhouse", "capablanca", "grand", "chess960", "atomic", "antichess",
                                           "three-check", "king-of-the-hill", "horde", "berolina", "makruk", "shatranj",
                                           "shogi", "minishogi", "dobutsu", "minixiangqi", "manchu", "extinction", "kinglet",
                                           "threekings"),
                         VariantParamName());

// The SAN (or WXF) of coordinate move `coordinates` in `fen`.
std::string written(const std::string& game, const std::string& fen, const std::string& coordinates,
                    NotationStyle style = NotationStyle::San) {
  const auto v = load_variant(variant_path(game));
  Position pos(v);
  pos.set_fen(fen);
  MoveList legal;
  generate_legal(pos, legal);
  for (const Move m : legal)
    if (pos.move_text(m) == coordinates) return MoveNotation(*v).write(pos, m, style);
  return "no such move";
}

TEST(ZooNotation, EachFamilyWritesWhatItsRecordsWrite) {
  const std::string start = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR[] w KQkq - 0 1";
  EXPECT_EQ(written("crazyhouse", start, "e2e4"), "e4");
  EXPECT_EQ(written("crazyhouse", "4k3/8/8/8/8/8/8/4K3[Q] w - - 0 1", "Q@e7"), "Q@e7+");
  // A queen that was a pawn is a Q, told from the other queen by its square where both can go.
  EXPECT_EQ(written("crazyhouse", "4k3/8/8/8/8/8/8/Q~3K1Q1[] w - - 0 1", "a1d4"), "Qad4");
  EXPECT_EQ(written("crazyhouse", "4k3/1P6/8/8/8/8/8/4K3[] w - - 0 1", "b7b8q"), "b8=Q+");
  EXPECT_EQ(written("capablanca", "rnabqkbcnr/pppppppppp/10/10/10/10/PPPPPPPPPP/RNABQKBCNR w KQkq - 0 1", "c1b3"), "Ab3");
  EXPECT_EQ(written("capablanca", "rnabqkbcnr/pppppppppp/10/10/10/10/PPPPPPPPPP/RNABQKBCNR w KQkq - 0 1", "h1i3"), "Ci3");
  EXPECT_EQ(written("makruk", "rnsmksnr/8/pppppppp/8/8/PPPPPPPP/8/RNSKMSNR w - - 0 1", "c1c2"), "Sc2");
  EXPECT_EQ(written("makruk", "rnsmksnr/8/pppppppp/8/8/PPPPPPPP/8/RNSKMSNR w - - 0 1", "e1d2"), "Md2");
  EXPECT_EQ(written("makruk", "4k3/8/8/3P4/8/8/8/4K3 w - - 0 1", "d5d6m"), "d6=M");
  EXPECT_EQ(written("shatranj", "rnbkqbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBKQBNR w - - 0 1", "c1e3"), "Be3");
  // Chess960 castling, written as the king taking its rook, is O-O or O-O-O by the wing.
  const std::string chess960 = "bqrkrnnb/pppppppp/8/8/8/8/PPPPPPPP/BQRKR2B w ECec - 0 1";
  EXPECT_EQ(written("chess960", chess960, "d1e1"), "O-O");
  EXPECT_EQ(written("chess960", chess960, "d1c1"), "O-O-O");
  // Shogi as the reference writes it: every piece lettered, a promoted one by what it moves as.
  const std::string shogi = "4k4/9/4P4/9/9/9/9/9/4K4[P] w 0 1";
  EXPECT_EQ(written("shogi", shogi, "e7e8+"), "Pe8=G+");
  EXPECT_EQ(written("shogi", shogi, "e7e8"), "Pe8+");
  EXPECT_EQ(written("shogi", "4k4/4+P4/9/9/9/9/9/9/4K4[-] w 0 1", "e8d8"), "Gd8+");
  EXPECT_EQ(written("shogi", shogi, "P@d8"), "P@d8");
  EXPECT_EQ(written("dobutsu", "g1l/1C1/3/ELG[-] w - - 0 1", "b3b4+"), "Cb4=H");
  EXPECT_EQ(written("minixiangqi", "rcnkncr/p1ppp1p/7/7/7/P1PPP1P/RCNKNCR w - - 0 1", "f1f5", NotationStyle::Wxf), "C2+4");
}

TEST(ZooNotation, ACrazyhousePgnReplaysAndConverts) {
  const std::string file = temp_path("crazyhouse.pgn");
  std::ofstream(file) << "[Event \"drops\"]\n[Variant \"Crazyhouse\"]\n[Result \"*\"]\n\n"
                         "1. e4 d5 2. exd5 Qxd5 3. Nc3 Qe6+ 4. P@e2 Nf6 5. Nf3 P@d4 *\n";
  const PalaceRun run = run_palace("replay " + shell_quoted(file));
  EXPECT_EQ(run.status, 0) << run.out;
  EXPECT_EQ(run.lines.front(), file + " game 1 (line 1): good: crazyhouse, 10 plies, *") << run.out;
  const PalaceRun convert = run_palace("convert " + shell_quoted(file) + " --to pgn");
  EXPECT_NE(convert.out.find("[Variant \"crazyhouse\"]"), std::string::npos) << convert.out;
  EXPECT_NE(convert.out.find("\n1. e4 d5 2. exd5 Qxd5 3. Nc3 Qe6+ 4. P@e2 Nf6 5. Nf3 P@d4 *\n"), std::string::npos)
      << convert.out;
}

}  // namespace
}  // namespace palace::test
