// The forced-win set (tests/search/forced_wins.epd): in each position the engine announces exactly
// the reference's shortest win, found at depth 20, and its line ends the game won (going round a
// repeated cycle to the rule's count where the search scored the repetition). Many of the
// Janggi wins pass or end by counting points (a standoff, two passes in a row), which the
// reference scores as mates and so does Palace.
#include <gtest/gtest.h>

#include "game/evaluator.h"
#include "notation/wire.h"
#include "search/search.h"
#include "test_support.h"

namespace palace::test {
namespace {

struct ForcedWin {
  std::string uci_variant, fen;  // as the reference reads them
  int mate_in;                   // the reference's `score mate N` at depth 20
  std::string remark;
};

void PrintTo(const ForcedWin& w, std::ostream* out) { *out << w.uci_variant << " " << w.fen << " mate " << w.mate_in; }

std::vector<ForcedWin> forced_wins() {
  std::vector<ForcedWin> wins;
  for (const std::string& line : data_lines(source_path("tests/search/forced_wins.epd"))) {
    const std::vector<std::string> fields = split(line, ';');
    if (fields.size() < 3 || fields[2].rfind("mate ", 0) != 0) {
      ADD_FAILURE() << "malformed line: " << line;
      continue;
    }
    wins.push_back({fields[0], fields[1], std::stoi(fields[2].substr(5)), fields.size() > 3 ? fields[3] : ""});
  }
  return wins;
}

std::string variant_file(const std::string& uci_name) {
  static const std::vector<WireEntry> catalogue = wire_catalogue(source_path("variants"));
  for (const WireEntry& entry : catalogue)
    if (entry.name == uci_name) return entry.file;
  return "";
}

class ForcedWins : public ::testing::TestWithParam<ForcedWin> {};

// The depth in plies the search is given, as `bench/forced_wins.py report --depth 17`: enough for
// every win of the set (the longest, mate 9, is 17 plies, some of them check extensions), and
// for the moves a reduction, null-move or exchange pruning shifts (with the exchange evaluation's
// move order, `B2k5/...`'s mate 5 is first seen at depth 17); deterministic, as a depth limit is.
constexpr int Depth = 17;

TEST_P(ForcedWins, ShortestWinAnnounced) {
  const ForcedWin& w = GetParam();
  const std::string file = variant_file(w.uci_variant);
  ASSERT_FALSE(file.empty()) << "no variant file is UCI's " << w.uci_variant;
  const auto variant = load_variant(file);
  Position pos(variant);
  pos.set_fen(WireNotation(*variant).palace_fen(w.fen));
  search::Searcher searcher(variant);
  search::Report last;
  searcher.search(pos, {.depth = Depth}, [&](const search::Report& r) {
    // Every iteration that announces a win shows a line that long, to the winner's last move: the
    // table's scores on the principal line (one of a window the mate bounds narrowed, one in
    // quiescence) once cut it short.
    if (r.mate_in > 0) {
      EXPECT_GE(int(r.pv.size()), 2 * r.mate_in - 1) << "depth " << r.depth << ", mate " << r.mate_in;
    }
    last = r;
  });
  EXPECT_EQ(last.mate_in, w.mate_in) << "score " << last.score_cp;
  // A mate's line ends with the winner's move; a counted end's may end with the loser's, who
  // must keep the standoff or pass back. Where the search scored a repetition at its second
  // occurrence (as the reference does), the distance ends there, and the line goes on round the
  // cycle to the occurrence that ends the game.
  const Side winner = pos.side_to_move();
  int scored = 0;
  while (scored < int(last.pv.size()) && !evaluate(pos).finished() && !judge_cycle(pos, scored).finished())
    pos.do_move(last.pv[scored++]);
  EXPECT_TRUE(scored == 2 * w.mate_in - 1 || scored == 2 * w.mate_in) << scored << " plies to the end the search scored";
  for (std::size_t ply = scored; ply < last.pv.size(); ++ply) pos.do_move(last.pv[ply]);
  const Verdict end = evaluate(pos);
  EXPECT_TRUE(end.finished()) << end.str(pos.variant());
  EXPECT_EQ(end.winner, winner) << end.str(pos.variant());
}

INSTANTIATE_TEST_SUITE_P(Set, ForcedWins, ::testing::ValuesIn(forced_wins()));

}  // namespace
}  // namespace palace::test
