#include "lab/report.h"

#include <array>
#include <filesystem>
#include <fstream>
#include <map>
#include <nlohmann/json.hpp>

#include "core/text.h"
#include "match/match_error.h"

namespace palace::lab {

namespace {

using nlohmann::json;

json running_score(const std::vector<ReportGame>& games) {
  json out = json::array();
  match::Score s;
  for (const ReportGame& g : games) {
    (g.points == 1 ? s.wins : g.points == 0 ? s.losses : s.draws)++;
    const double margin = s.games() < 2 ? 0.5 : s.ratio_margin();
    out.push_back({{"games", s.games()},
                   {"score", 100 * s.ratio()},
                   {"low", 100 * std::max(0.0, s.ratio() - margin)},
                   {"high", 100 * std::min(1.0, s.ratio() + margin)}});
  }
  return out;
}

json ends(const std::vector<ReportGame>& games) {
  std::map<std::string, std::array<int, 3>> count;  // first side's wins, second's, draws
  for (const ReportGame& g : games) count[g.end][g.points == 1 ? 0 : g.points == 0 ? 1 : 2]++;
  json out = json::array();
  for (const auto& [end, n] : count) out.push_back({{"end", end}, {"wins", {n[0], n[1]}}, {"draws", n[2]}});
  return out;
}

json values(const std::vector<ValueRow>& rows) {
  json out = json::array();
  for (const ValueRow& r : rows) {
    json row = {{"kind", r.kind}, {"file", r.file}};
    if (r.fitted) row.update({{"value", r.value}, {"low", r.low}, {"high", r.high}});
    if (r.removal_games) row.update({{"elo", r.elo}, {"margin", r.elo_margin}, {"games", r.removal_games}});
    out.push_back(row);
  }
  return out;
}

json formations(const ReportData& data) {
  if (!data.formations) return nullptr;
  const match::FormationNames& f = *data.formations;
  json scores = json::array();
  for (std::size_t r = 0; r < f.names[0].size(); ++r) {
    json row = json::array();
    for (std::size_t c = 0; c < f.names[1].size(); ++c) {
      const std::size_t i = r * f.names[1].size() + c;
      row.push_back(data.pairs->games[i] ? json(100 * data.pairs->points[i] / data.pairs->games[i]) : json(nullptr));
    }
    scores.push_back(row);
  }
  return {{"rows", f.names[0]}, {"columns", f.names[1]}, {"scores", scores}};
}

void write_file(const std::filesystem::path& path, const std::string& text) {
  std::ofstream out(path, std::ios::binary | std::ios::trunc);
  out << text;
  if (!out) throw match::MatchError("--report: cannot write " + palace::quote(path.string(), 100));
}

}  // namespace

std::string budget_words(const match::PlayerSpec& p) {
  return (p.depth ? "depth " + std::to_string(p.depth) : p.nodes ? std::to_string(p.nodes) + " nodes" : std::to_string(p.movetime_ms) + " ms") +
         " a move";
}

double first_points(const palace::GameRecord& record) {
  const std::string* result = record.tag("Result");
  return !result ? 0.5 : *result == "1-0" ? 1 : *result == "0-1" ? 0 : 0.5;
}

ReportGame report_game(const palace::GameRecord& record, const Game& replayed) {
  const std::string* why = record.tag("Termination");
  ReportGame game;
  game.points = first_points(record);
  game.end = why ? why->substr(0, why->find(", ")) : "unfinished";
  Position start(replayed.variant_ptr());
  start.set_fen(replayed.start_fen());
  game.length = 2 * (start.fullmove_number() - 1) + (start.side_to_move() == Second ? 1 : 0) + int(replayed.history().size());
  return game;
}

void make_report_folder(const std::string& dir) {
  std::error_code error;
  std::filesystem::create_directories(dir, error);
  if (error) throw match::MatchError("--report: cannot make the folder " + palace::quote(dir, 100) + ": " + error.message());
}

void write_report(const std::string& dir, const std::string& script, const Variant& variant, const ReportData& data) {
  std::vector<int> lengths;
  for (const ReportGame& g : data.games) lengths.push_back(g.length);
  const json report = {{"title", data.title},
                       {"sides", {capitalised(variant.side_name(First)), capitalised(variant.side_name(Second))}},
                       {"summary", data.summary},
                       {"running", running_score(data.games)},
                       {"lengths", lengths},
                       {"ends", ends(data.games)},
                       {"formations", formations(data)},
                       {"values", values(data.values)}};
  // Names come from the variant's file: "</" would close the script element they are written in.
  std::string text = report.dump();
  for (std::size_t at = 0; (at = text.find("</", at)) != std::string::npos; at += 3) text.replace(at, 2, "<\\/");
  write_file(std::filesystem::path(dir) / "index.html",
             "<!doctype html>\n<html lang=\"en\"><head><meta charset=\"utf-8\"><title>balance</title>\n"
             "<style>body{font-family:sans-serif;max-width:60em;margin:auto;padding:1em}"
             "td{padding:.3em .6em;text-align:right}pre{background:#f4f4f4;padding:1em;overflow-x:auto}</style>\n"
             "</head><body>\n<script>window.BALANCE = " + text + ";</script>\n<script src=\"report.js\"></script>\n</body></html>\n");
  std::error_code error;
  std::filesystem::copy_file(script, std::filesystem::path(dir) / "report.js", std::filesystem::copy_options::overwrite_existing, error);
  if (error) throw match::MatchError("--report: cannot copy " + palace::quote(script, 100) + ": " + error.message());
}

}  // namespace palace::lab
