// Betza's notation (loader/betza.h): each text read into the exact parts the long form writes, the
// texts refused with their exact reasons, kinds written in Betza playing as their long form does,
// and every shipped kind written back in Betza and read again to the same parts.
#include <gtest/gtest.h>

#include <filesystem>

#include "loader/betza.h"
#include "test_support.h"

namespace palace::test {
namespace {

// Parts as one line: kind, mode, then directions (core/types.h indices) or leaps with their blocks,
// then range, after_screen and from_zone where set.
std::string show(const std::vector<MovePart>& parts) {
  const char* kinds[] = {"step", "slide", "hop", "leap"};
  std::string out;
  for (const MovePart& p : parts) {
    out += out.empty() ? "" : " | ";
    out += std::string(kinds[int(p.kind)]) + " " + (p.mode & CanMove ? "m" : "") + (p.mode & CanCapture ? "c" : "");
    // Appended piece by piece: GCC 12 warns (-Wrestrict, falsely) of `" " + std::to_string(d)`.
    for (const int d : p.directions) out.append(" ").append(std::to_string(d));
    for (const LeapShape& l : p.leaps) {
      out.append(" (").append(std::to_string(l.file)).append(",").append(std::to_string(l.rank)).append(")");
      for (const auto& [f, r] : l.blocks) out.append("[").append(std::to_string(f)).append(",").append(std::to_string(r)).append("]");
    }
    if (p.rides) out += " rides";
    if (p.range) out += " range " + std::to_string(p.range);
    if (p.after_screen) out += " after " + std::to_string(p.after_screen);
    if (p.from_zone >= 0) out += " from " + std::to_string(p.from_zone);
  }
  return out;
}

std::string read(const std::string& text, int initial_zone = -1) {
  const BetzaReading r = read_betza(text, initial_zone);
  return r.error.empty() ? show(r.parts) : "error: " + r.error;
}

TEST(Betza, ReadsTheReferencesAtomsAsTheLongFormsParts) {
  EXPECT_EQ(read("W"), "step mc 0 2 4 6");
  EXPECT_EQ(read("F"), "step mc 1 3 5 7");
  EXPECT_EQ(read("K"), "step mc 0 1 2 3 4 5 6 7");
  EXPECT_EQ(read("R"), "slide mc 0 2 4 6");
  EXPECT_EQ(read("B"), "slide mc 1 3 5 7");
  EXPECT_EQ(read("Q"), "slide mc 0 1 2 3 4 5 6 7");
  EXPECT_EQ(read("N"), "leap mc (-2,-1) (-2,1) (-1,-2) (-1,2) (1,-2) (1,2) (2,-1) (2,1)");
  EXPECT_EQ(read("D"), "leap mc (-2,0) (0,-2) (0,2) (2,0)");
  EXPECT_EQ(read("C"), read("L"));
  EXPECT_EQ(read("Z"), read("J"));
  EXPECT_EQ(read("G"), "leap mc (-3,-3) (-3,3) (3,-3) (3,3)");
}

TEST(Betza, DoubledAtomsAndRangesRide) {
  EXPECT_EQ(read("WW"), read("R"));
  EXPECT_EQ(read("FF"), read("B"));
  EXPECT_EQ(read("KK"), read("Q"));
  EXPECT_EQ(read("R4"), "slide mc 0 2 4 6 range 4");
  EXPECT_EQ(read("W2"), "slide mc 0 2 4 6 range 2");
  EXPECT_EQ(read("B12"), "slide mc 1 3 5 7 range 12");
}

TEST(Betza, ModesHopsAndLameLeaps) {
  EXPECT_EQ(read("mWcF"), "step m 0 2 4 6 | step c 1 3 5 7");
  EXPECT_EQ(read("mRcpR"), "slide m 0 2 4 6 | hop c 0 2 4 6");
  EXPECT_EQ(read("gQ"), "hop mc 0 1 2 3 4 5 6 7 after 1");
  EXPECT_EQ(read("pR2"), "hop mc 0 2 4 6 after 2");
  EXPECT_EQ(read("nN"), "leap mc (-2,-1)[-1,0] (-2,1)[-1,0] (-1,-2)[0,-1] (-1,2)[0,1] (1,-2)[0,-1] (1,2)[0,1] (2,-1)[1,0] "
                        "(2,1)[1,0]");
  EXPECT_EQ(read("fnA"), "leap mc (-2,2)[-1,1] (2,2)[1,1]");
  EXPECT_EQ(read("fnZ"), "leap mc (-2,3)[0,1][-1,2] (2,3)[0,1][1,2]");
  EXPECT_EQ(read("fnH"), "leap mc (0,3)[0,1][0,2]");
}

TEST(Betza, ThePawnsFirstMoveStartsInTheZoneGiven) {
  EXPECT_EQ(read("fmWfcFifmnD", 3), "step m 0 | step c 1 7 | leap m (0,2)[0,1] from 3");
  EXPECT_EQ(read("ifmnD", 0), "leap m (0,2)[0,1] from 0");  // the reference's first moves only move
}

// The reference's direction table (piece.cpp): a mixed group is one leap of an oblique atom, and
// both of its letters for an orthogonal one.
TEST(Betza, DirectionsSelectAsTheReferenceReadsThem) {
  const std::pair<const char*, const char*> rows[] = {
      {"fW", "step mc 0"},
      {"fsW", "step mc 0 2 6"},
      {"vR", "slide mc 0 4"},
      {"sW", "step mc 2 6"},
      {"lW", "step mc 6"},
      {"fF", "step mc 1 7"},
      {"frF", "step mc 1"},
      {"ffN", "leap mc (-1,2) (1,2)"},
      {"fsN", "leap mc (-2,1) (2,1)"},
      {"fN", "leap mc (-1,2) (1,2)"},  // f alone is ff, as the reference reads it
      {"rfN", "leap mc (1,2)"},
      {"frN", "leap mc (2,1)"},
      {"bhN", "leap mc (-2,-1) (-1,-2) (1,-2) (2,-1)"},
      {"hrN", "leap mc (-2,1) (-1,-2) (1,2) (2,-1)"},
      {"fsK", "step mc 1 2 6 7"},  // the king's W sideways, its F forward, as the reference has it
  };
  for (const auto& [text, parts] : rows) EXPECT_EQ(read(text), parts) << text;
}

// A leap doubled, or given a number, rides: the long form's leap with `rides: true` and its range.
TEST(Betza, ReadsRidersOfLeaps) {
  EXPECT_EQ(read("NN"), "leap mc (-2,-1) (-2,1) (-1,-2) (-1,2) (1,-2) (1,2) (2,-1) (2,1) rides");
  EXPECT_EQ(read("ffN3"), "leap mc (-1,2) (1,2) rides range 3");
  EXPECT_EQ(read("WNN"), "step mc 0 2 4 6 | " + read("NN"));
}

TEST(Betza, MovesWrittenTwiceAreMergedOnce) {
  EXPECT_EQ(read("mWcW"), read("W"));
  EXPECT_EQ(read("QK"), read("Q"));
  EXPECT_EQ(read("RfW"), read("R"));
  EXPECT_EQ(read("R2R"), read("R"));
  EXPECT_EQ(read("RcW"), read("R"));
  EXPECT_EQ(read("mRW"), "slide m 0 2 4 6 | step c 0 2 4 6");
  EXPECT_EQ(read("NfN"), read("N"));
}

TEST(Betza, RefusesWhatItCannotSayWithTheCharacter) {
  EXPECT_EQ(read("mWY"), "error: \"mWY\": character 3 (\"Y\"): no such atom (W F D N A H C Z G K R B Q, L J)");
  EXPECT_EQ(read("mWcFfm"), "error: \"mWcFfm\": character 5 (\"f\"): modifiers at the end name no atom");
  EXPECT_EQ(read("aW"), "error: \"aW\": character 1 (\"a\"): not a modifier Palace reads (f b l r v s h, m c, p g, n, i); "
                        "XBetza's bent and multi-leg moves are not read yet");
  EXPECT_EQ(read("ifmnD"), "error: \"ifmnD\": character 1 (\"i\"): i (a first move) needs `initial_zone: ZONE` beside "
                           "`betza`, the zone where a piece's first moves start");
  EXPECT_EQ(read("icF", 0), "error: \"icF\": character 2 (\"c\"): an i (first) move only moves, as the reference reads it");
  EXPECT_EQ(read("nNN"), "error: \"nNN\": character 1 (\"n\"): n (lame) belongs to a leap, and NN rides");
  EXPECT_EQ(read("nR"), "error: \"nR\": character 1 (\"n\"): n (lame) belongs to a leap, and R rides");
  EXPECT_EQ(read("pN"), "error: \"pN\": character 1 (\"p\"): a hop goes along lines (pR, gQ, pW), not over a leap of N");
  EXPECT_EQ(read("hN"), "error: \"hN\": character 1 (\"h\"): its directions select no move of N");
  EXPECT_EQ(read("R0"), "error: \"R0\": character 1 (\"R\"): a range is 1 to 16");
  EXPECT_EQ(read("R17"), "error: \"R17\": character 1 (\"R\"): a range is 1 to 16");
  EXPECT_EQ(read("WW2"), "error: \"WW2\": character 3 (\"2\"): a range follows its atom directly (R4, W2)");
  EXPECT_EQ(read(""), "error: \"\": names no move");
  EXPECT_EQ(read(std::string(201, 'W')), "error: \"" + std::string(40, 'W') + "...\": a Betza text has at most 200 characters, got 201");
}

TEST(Betza, WritesPartsBackInBetza) {
  const auto written = [](const std::string& text, int zone = -1) {
    return write_betza(read_betza(text, zone).parts, {"zone0", "zone1"}).betza;
  };
  EXPECT_EQ(written("mWcF"), "mWcF");
  EXPECT_EQ(written("fmWfcFifmnD", 1), "fmWfcFifmnD");
  EXPECT_EQ(written("mRcpR"), "mRcpR");
  EXPECT_EQ(written("gQ"), "gQ");
  EXPECT_EQ(written("RN"), "RN");
  EXPECT_EQ(written("fsW"), "fsW");
  EXPECT_EQ(written("rfN"), "rfN");
  EXPECT_EQ(written("fN"), "fN");
  EXPECT_EQ(written("R4pB2"), "R4pB2");
}

TEST(Betza, SaysWhatBetzaCannot) {
  MovePart ghost;
  ghost.kind = PartKind::Leap;
  ghost.mode = CanMove;
  ghost.leaps = {{0, 2, {{0, 1}}}};
  ghost.from_zone = 1;
  ghost.leaves_ghost = true;
  MovePart wide;
  wide.kind = PartKind::Leap;
  wide.leaps = {{4, 1, {}}};
  const BetzaText text = write_betza({ghost, wide}, {"zone0", "pawn-rank"});
  EXPECT_EQ(text.betza, "ifmnD");
  EXPECT_EQ(text.unsaid, (std::vector<std::string>{"leaves_ghost (ifmnD)", "leap (4,1)"}));
}

TEST(Betza, DescribesPartsInWords) {
  const auto words = [](const std::string& text) { return describe_parts(read_betza(text, 0).parts, {"pawn-rank"}); };
  EXPECT_EQ(words("N"), "leaps (1,2) in all 8 directions");
  EXPECT_EQ(words("fmWfcFifmnD"), "steps forward, moving only; steps forward-right or forward-left, capturing only; "
                                  "leaps (0,2) to (0,2), unless a point on its way is occupied, moving only, from pawn-rank");
  EXPECT_EQ(words("mRcpR"), "slides orthogonally, moving only; hops over one piece orthogonally, capturing only");
  EXPECT_EQ(words("gQR4"), "hops over one piece in all 8 directions, landing just past it; slides orthogonally up to 4 points");
}

std::uint64_t perft_of(const std::string& file, int depth) {
  Position pos(load_variant(source_path(file)));
  return perft(pos, depth);
}

TEST(Betza, ChessInBetzaCountsAsChess) {
  EXPECT_EQ(perft_of("rules/examples/chess-betza.yaml", 4), 197281u);
  const auto betza = load_variant(source_path("rules/examples/chess-betza.yaml"));
  const auto chess = load_variant(variant_path("chess"));
  // The same parts as the long form, but for the pawn's en passant, which Betza cannot say.
  for (const char* kind : {"king", "queen", "rook", "bishop", "knight"})
    EXPECT_EQ(show(merge_parts(betza->rules().pieces[betza->rules().kind_by_name(kind)].parts)),
              show(merge_parts(chess->rules().pieces[chess->rules().kind_by_name(kind)].parts)))
        << kind;
}

TEST(Betza, XiangqiInBetzaMixedWithTheLongFormCountsAsXiangqi) {
  EXPECT_EQ(perft_of("rules/examples/xiangqi-betza.yaml", 3), 79666u);
  EXPECT_EQ(perft_of("variants/xiangqi.yaml", 3), 79666u);
}

// Every shipped kind that Betza can say is read back from its Betza to the same parts.
TEST(Betza, EveryShippedKindRoundTrips) {
  int said = 0, kinds = 0;
  for (const auto& entry : std::filesystem::directory_iterator(source_path("variants"))) {
    if (entry.path().extension() != ".yaml") continue;
    const auto variant = load_variant(entry.path().string());
    for (const PieceDef& piece : variant->rules().pieces) {
      ++kinds;
      const BetzaText text = write_betza(piece.parts, variant->rules().zone_names);
      if (!text.unsaid.empty()) continue;
      ++said;
      int zone = -1;
      for (const MovePart& p : piece.parts)
        if (p.from_zone >= 0) zone = p.from_zone;
      const BetzaReading back = read_betza(text.betza, zone);
      EXPECT_EQ(show(back.parts), show(merge_parts(piece.parts))) << entry.path() << " " << piece.name << " " << text.betza;
    }
  }
  EXPECT_GT(said, kinds / 2);
}

}  // namespace
}  // namespace palace::test
