// The lab's report (balance, values): a page of plots a designer opens from its folder, no server needed.
#pragma once

#include <string>
#include <vector>

#include "compiler/variant.h"
#include "game/game.h"
#include "match/match.h"

namespace palace::lab {

struct ReportGame {
  double points = 0.5;  // the first side's
  std::string end;      // how it ended, up to the points a count gives ("adjudicated by counting at the move limit")
  int length = 0;       // plies from the set-up
};

// The first side's points in a game the match wrote: 1, 0.5 or 0.
double first_points(const palace::GameRecord& record);

// What the lab keeps of a delivered game: `record` as the match wrote it, `replayed` its moves
// played again from its start.
ReportGame report_game(const palace::GameRecord& record, const Game& replayed);

// "20000 nodes a move", "depth 6 a move", "100 ms a move": a player's budget in a report's title.
std::string budget_words(const match::PlayerSpec& player);

// One kind's row of `palace values`.
struct ValueRow {
  std::string kind;
  double file = 0;              // its `value:`
  bool fitted = false;          // out of balance somewhere in the games, so fitted
  double value = 0, low = 0, high = 0;  // fitted, in the file's units, with its 95% interval
  int removal_games = 0;        // games a piece of it short; 0: none
  double elo = 0, elo_margin = 0;  // the score of the side a piece short
};

struct ReportData {
  std::string title;
  std::string summary;  // as the program prints it
  std::vector<ReportGame> games;  // in the order they were played
  const match::FormationNames* formations = nullptr;  // with the pairs' scores, where formations were played
  const match::PairScores* pairs = nullptr;
  std::vector<ValueRow> values;  // `palace values`' table; empty for balance
};

// Makes the folder `dir` if it is not there, before any game is played for it. Throws MatchError
// naming the folder and why it cannot be made.
void make_report_folder(const std::string& dir);

// Writes DIR/index.html, holding the data, and DIR/report.js, a copy of `script` (the bundle that
// draws the plots). Throws MatchError naming the file it cannot write.
void write_report(const std::string& dir, const std::string& script, const Variant& variant, const ReportData& data);

}  // namespace palace::lab
