// The balance report: a page of plots a designer opens from its folder, no server needed.
#pragma once

#include <string>
#include <vector>

#include "compiler/variant.h"
#include "match/match.h"

namespace palace::lab {

struct ReportGame {
  double points = 0.5;  // the first side's
  std::string end;      // how it ended, as the summary groups ends
  int length = 0;       // plies from the set-up
};

struct ReportData {
  std::string title, summary;  // the summary as the program prints it
  std::vector<ReportGame> games;  // in the order they were played
  const match::FormationNames* formations = nullptr;  // with the pairs' scores, where formations were played
  const match::PairScores* pairs = nullptr;
};

// Makes the folder `dir` if it is not there, before any game is played for it. Throws MatchError
// naming the folder and why it cannot be made.
void make_report_folder(const std::string& dir);

// Writes DIR/index.html, holding the data, and DIR/report.js, a copy of `script` (the bundle that
// draws the plots). Throws MatchError naming the file it cannot write.
void write_report(const std::string& dir, const std::string& script, const Variant& variant, const ReportData& data);

}  // namespace palace::lab
