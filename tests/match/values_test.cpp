// `palace values`: the fit finds weights it was given, and the command plays the games it says.
#include <gtest/gtest.h>

#include <cmath>

#include "lab/material_fit.h"
#include "test_support.h"

namespace palace::test {
namespace {

// Points that are the model's own probabilities for known weights: the fit gives those weights back,
// pulled towards 0 by the ridge by a few percent (more for the larger weight, whose samples' points
// lie nearer 0 and 1 and so say less), never pushed away.
TEST(MaterialFit, RecoversTheWeightsThePointsWereMadeWith) {
  const double weights[2] = {0.8, 2.5}, edge = 0.3;
  std::vector<lab::Sample> samples;
  for (int a = -2; a <= 2; ++a)
    for (int b = -1; b <= 1; ++b)
      for (int copies = 0; copies < 40; ++copies)
        samples.push_back({{double(a), 0.0, double(b)}, 1 / (1 + std::exp(-(weights[0] * a + weights[1] * b + edge)))});
  std::vector<const lab::Sample*> all;
  for (const auto& s : samples) all.push_back(&s);
  const auto w = lab::fit(all, {0, 2});  // column 1 is a kind never out of balance: left out
  ASSERT_EQ(w.size(), 3u);
  EXPECT_LT(w[0], 0.8);
  EXPECT_GT(w[0], 0.97 * 0.8);
  EXPECT_LT(w[1], 2.5);
  EXPECT_GT(w[1], 0.97 * 2.5);
  EXPECT_NEAR(w[2], 0.3, 0.01);  // the edge has no ridge
  EXPECT_DOUBLE_EQ(lab::scale_to({1, 3}, {2, 6}), 2.0);
  EXPECT_DOUBLE_EQ(lab::scale_to({0.5, 2}, {0, 0}), 2.0);  // no values in the file: the smallest is 1
}

TEST(Values, PlaysTheFitAndTheRemovalGamesAndTablesEveryKind) {
  const std::string dir = temp_path("values-report");
  const auto run = run_palace("values variants/chess.yaml --games 6 --nodes 100 --max-plies 60 --removal 1 --resamples 10 --report " +
                              shell_quoted(dir) + " 2>&1");
  ASSERT_EQ(run.status, 0) << run.out;
  int fit = 0, removal = 0;
  for (const auto& line : run.lines) {
    fit += line.find(" (for the fit): ") != std::string::npos;
    removal += line.find(" without a ") != std::string::npos;
  }
  EXPECT_EQ(fit, 6) << run.out;
  EXPECT_EQ(removal, 10) << run.out;  // queen, rook, bishop, knight, pawn; each side a piece short
  const std::vector<std::string> kinds = {"queen               9.00", "rook                5.00", "bishop              3.00",
                                          "knight              3.00", "pawn                1.00"};
  ASSERT_GE(run.lines.size(), kinds.size());
  for (std::size_t i = 0; i < kinds.size(); ++i) {
    const std::string& line = run.lines[run.lines.size() - kinds.size() + i];
    EXPECT_EQ(line.substr(0, kinds[i].size()), kinds[i]) << run.out;
    EXPECT_NE(line.find("(2 games)"), std::string::npos) << line;
  }
  // The report's page holds the table's rows for its chart.
  std::string page;
  for (const auto& line : file_lines(dir + "/index.html")) page += line;
  EXPECT_NE(page.find("\"values\":[{"), std::string::npos) << page;
  EXPECT_NE(page.find("{\"elo\":"), std::string::npos) << page;
  const auto queen = page.find("\"kind\":\"queen\"");
  ASSERT_NE(queen, std::string::npos) << page;
  const std::string row = page.substr(page.rfind('{', queen), page.find('}', queen) - page.rfind('{', queen));
  EXPECT_NE(row.find("\"file\":9.0"), std::string::npos) << row;
  EXPECT_NE(row.find("\"games\":2"), std::string::npos) << row;
}

}  // namespace
}  // namespace palace::test
