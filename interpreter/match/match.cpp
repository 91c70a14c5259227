#include "match/match.h"

#include <cmath>
#include <filesystem>
#include <fstream>
#include <iomanip>
#include <map>
#include <random>
#include <sstream>

#include "core/text.h"
#include "core/text_file.h"
#include "distributed/jobs.h"
#include "game/evaluator.h"
#include "hooks/load_variant.h"
#include "match/match_error.h"
#include "movegen/movegen.h"
#include "notation/pgn.h"

namespace palace::match {

namespace {

// An openings book holds thousands of lines: far more room than a rule file's, and still a bound.
constexpr std::size_t MaxOpeningsBytes = std::size_t(256) << 20;

// A tag of a game this match wrote, "" when absent.
std::string tag_of(const palace::GameRecord& game, const char* name) {
  const std::string* value = game.tag(name);
  return value ? *value : "";
}

// An EPD line has no move counters; its operations after the fourth field are dropped.
std::string fen_of_line(const std::string& line) {
  std::istringstream in(line.substr(0, line.find(';')));
  std::vector<std::string> fields;
  for (std::string f; in >> f;) fields.push_back(f);
  const auto number = [](const std::string& f) { return !f.empty() && f.find_first_not_of("0123456789") == std::string::npos; };
  if (fields.size() >= 6 && number(fields[4]) && number(fields[5])) fields.resize(6);
  else if (fields.size() >= 4) (fields.resize(4), fields.push_back("0"), fields.push_back("1"));
  std::string fen;
  for (const auto& f : fields) fen += (fen.empty() ? "" : " ") + f;
  return fen;
}

std::vector<std::string> openings_from_file(const std::string& file, const std::shared_ptr<const Variant>& variant) {
  std::istringstream in;
  try {
    in.str(read_text_file(file, MaxOpeningsBytes));
  } catch (const FileError& e) {
    throw MatchError("cannot read openings file " + palace::quote(file, 100) + ": " + e.reason());
  }
  std::vector<std::string> fens;
  int number = 0;
  for (std::string line; std::getline(in, line);) {
    ++number;
    if (line.find_first_not_of(" \t\r") == std::string::npos || line[0] == '#') continue;
    const std::string fen = fen_of_line(line);
    Position pos(variant);
    try {
      pos.set_fen(fen);
    } catch (const FenError& e) {
      throw MatchError(file + ":" + std::to_string(number) + ": " + e.what());
    }
    fens.push_back(pos.fen());
  }
  if (fens.empty()) throw MatchError("no openings in " + palace::quote(file, 100));
  return fens;
}

}  // namespace

std::string random_opening(const std::shared_ptr<const Variant>& variant, int plies, std::mt19937_64& random) {
  Position pos(variant);
  for (int i = 0; i < plies; ++i) {
    MoveList moves;
    generate_legal(pos, moves);
    if (!moves.size) break;
    pos.do_move(moves.moves[random() % std::uint64_t(moves.size)]);
    if (evaluate(pos).finished()) {
      pos.undo_move();
      break;
    }
  }
  Position start(variant);
  start.set_fen(pos.fen());
  return start.fen();
}

namespace {

// The formations each side may take: every one the variant's files define, for each side whose
// set-up names one; a side that names none keeps its set-up ("-"). The variants are row-major.
std::vector<std::shared_ptr<const Variant>> formation_grid(const std::string& file, const Variant& variant, FormationNames& grid) {
  const RuleSet& rules = variant.rules();
  for (Side s = First; s < SideCount; ++s) {
    grid.names[s].clear();
    if (!rules.formation_squares[s].empty())
      for (const auto& [name, kinds] : rules.formations) grid.names[s].push_back(name);
    if (grid.names[s].empty()) grid.names[s].push_back("-");
  }
  if (grid.pairs() == 1) throw MatchError(file + " defines no formations");
  std::vector<std::shared_ptr<const Variant>> variants;
  for (const auto& first : grid.names[0])
    for (const auto& second : grid.names[1]) {
      std::map<std::string, std::string> chosen;
      if (first != "-") chosen[rules.sides[First].name] = first;
      if (second != "-") chosen[rules.sides[Second].name] = second;
      variants.push_back(std::make_shared<const Variant>(rules.with_formations(chosen)));
    }
  return variants;
}


// The games a PGN file already holds for this match, by job: each must be the game that job plays
// (round, start and players), so that a file from another match is refused rather than mixed in. A
// game cut short by a crash is dropped and played again; a missing file holds none.
std::map<std::size_t, std::string> finished_games(const std::string& file, const std::vector<MatchJob>& jobs,
                                                  const PlayerSpec (&specs)[2]) {
  if (file.empty()) throw MatchError("--resume needs the --pgn file of the match to resume");
  std::map<std::size_t, std::string> finished;
  if (!std::filesystem::exists(file)) return finished;
  std::string text;
  try {
    text = read_text_file(file, std::size_t(1) << 30);  // thousands of games, each a few kilobytes
  } catch (const Error& e) {
    throw MatchError(std::string("--resume: ") + e.what());
  }
  const std::vector<palace::GameRecord> games = read_pgn(text);
  for (std::size_t g = 0; g < games.size(); ++g) {
    const palace::GameRecord& game = games[g];
    // A game cut short by a crash is played again: its moves do not end with its result.
    if (!game.terminated || tag_of(game, "Result") != game.result) continue;
    const std::string where = file + ": game " + std::to_string(g + 1) + " (round " + palace::quote(tag_of(game, "Round")) + ")";
    std::size_t round = 0;
    try {
      round = std::stoul(tag_of(game, "Round"));
    } catch (const std::exception&) {
    }
    if (round < 1 || round > jobs.size()) throw MatchError(where + " is not a round of this match");
    const MatchJob& job = jobs[round - 1];
    const std::string& white = specs[job.swapped ? 1 : 0].name;
    const std::string& black = specs[job.swapped ? 0 : 1].name;
    if (tag_of(game, "FEN") != job.fen || tag_of(game, "White") != white || tag_of(game, "Black") != black)
      throw MatchError(where + " is not this match's: it starts elsewhere or has other players");
    if (!finished.emplace(round - 1, text.substr(game.begin, game.end - game.begin)).second) throw MatchError(where + " is in the file twice");
  }
  return finished;
}

// The file rewritten with `games` in round order, whatever order they finished in; replaced whole, so
// a crash now leaves the old file.
void write_in_order(const std::string& file, const std::vector<std::string>& games) {
  const std::string partial = file + ".partial";
  {
    std::ofstream out(partial, std::ios::trunc);
    for (const auto& game : games) out << game;
    if (!out) throw MatchError("cannot write PGN file " + palace::quote(partial, 100));
  }
  std::filesystem::rename(partial, file);
}

}  // namespace

std::string formation_table(const Variant& variant, const FormationNames& formations, const PairScores& scores) {
  std::ostringstream out;
  out << variant.side_name(First) << "'s score (rows: " << variant.side_name(First) << "'s formation, columns: "
      << variant.side_name(Second) << "'s)\n" << std::setw(16) << "";
  for (const auto& name : formations.names[1]) out << std::setw(16) << name;
  out << "\n";
  for (std::size_t r = 0; r < formations.names[0].size(); ++r) {
    out << std::setw(16) << formations.names[0][r];
    for (std::size_t c = 0; c < formations.names[1].size(); ++c) {
      const std::size_t i = r * formations.names[1].size() + c;
      out << std::setw(16) << (scores.games[i] ? fixed(100 * scores.points[i] / scores.games[i], 1) + "%" : "-");
    }
    out << "\n";
  }
  return out.str();
}

std::shared_ptr<const Variant> play_jobs(const MatchSettings& settings, const JobPlan& plan,
                                         const std::function<bool(const PlayedGame&)>& seen) {
  std::shared_ptr<const Variant> variant;
  PlayerSpec specs[2] = {settings.players[0], settings.players[1]};
  if (specs[0].name == specs[1].name) specs[1].name += "-2";
  std::vector<MatchJob> jobs;
  std::vector<std::string> games;  // each delivered game's PGN, in order
  std::ofstream pgn_out;

  const bool lead = distributed::run([&](bool lead) {
    variant = load_variant(settings.variant_file);
    jobs = plan(variant);
    // Checked before any game, so that a bad spec fails the match at once, not in a worker thread.
    for (const PlayerSpec& spec : specs) check_player(spec, variant);

    distributed::JobSet set;
    set.count = jobs.size();
    set.threads = settings.concurrency;
    set.work = [&](std::size_t i) {
      const MatchJob& job = jobs[i];
      auto first = make_player(specs[0], job.variant);
      auto second = make_player(specs[1], job.variant);
      Player* const players[2] = {job.swapped ? second.get() : first.get(), job.swapped ? first.get() : second.get()};
      return pgn(play_game(job.variant, job.fen, players, settings.referee), job.variant, int(i + 1));
    };
    if (!lead) return set;
    if (settings.resume) set.known = finished_games(settings.pgn_file, jobs, specs);
    if (!settings.pgn_file.empty()) {
      pgn_out.open(settings.pgn_file, settings.resume ? std::ios::app : std::ios::trunc);
      if (!pgn_out) throw MatchError("cannot write PGN file " + palace::quote(settings.pgn_file, 100));
      set.arrived = [&](std::size_t, const std::string& text) { pgn_out << text << std::flush; };
    }
    set.deliver = [&](std::size_t i, const std::string& text) {
      games.push_back(text);
      const palace::GameRecord record = read_pgn(text).at(0);
      return seen(PlayedGame{i, jobs[i], record});
    };
    return set;
  });
  if (!lead) return nullptr;
  if (pgn_out.is_open()) {
    pgn_out.close();
    write_in_order(settings.pgn_file, games);
  }
  return variant;
}

std::shared_ptr<const Variant> play_match(const MatchSettings& settings, FormationNames& formations,
                                          const std::function<bool(const PlayedGame&)>& seen) {
  return play_jobs(settings, [&](const std::shared_ptr<const Variant>& variant) {
    std::vector<MatchJob> jobs;
    std::mt19937_64 random(settings.seed);
    auto add = [&](const std::shared_ptr<const Variant>& v, const std::string& fen, int group) {
      jobs.push_back({v, fen, false, group});
      if (settings.swap_colours) jobs.push_back({v, fen, true, group});
    };
    if (settings.formations) {
      const auto grid = formation_grid(settings.variant_file, *variant, formations);
      for (int i = 0; i < int(grid.size()); ++i)
        for (int r = 0; r < settings.rounds; ++r) add(grid[i], random_opening(grid[i], settings.random_plies, random), i);
    } else if (!settings.openings_file.empty()) {
      const auto fens = openings_from_file(settings.openings_file, variant);
      for (int r = 0; r < settings.rounds; ++r) add(variant, fens[std::size_t(r) % fens.size()], -1);
    } else {
      for (int r = 0; r < settings.rounds; ++r) add(variant, random_opening(variant, settings.random_plies, random), -1);
    }
    return jobs;
  }, seen);
}

std::optional<std::string> run_match(const MatchSettings& settings, const std::function<void(const std::string&)>& log) {
  FormationNames formations;
  PairScores pairs;
  Score score;
  SprtVerdict verdict = SprtVerdict::Inconclusive;
  std::string names[2];
  const auto variant = play_match(settings, formations, [&](const PlayedGame& game) {
    const std::string result = tag_of(game.record, "Result");
    const double side0 = result == "1-0" ? 1.0 : result == "0-1" ? 0.0 : 0.5;
    const double first_points = game.job.swapped ? 1 - side0 : side0;
    (first_points == 1 ? score.wins : first_points == 0 ? score.losses : score.draws)++;
    if (game.job.group >= 0) {
      pairs.points.resize(formations.pairs());
      pairs.games.resize(formations.pairs());
      pairs.points[std::size_t(game.job.group)] += side0;
      pairs.games[std::size_t(game.job.group)]++;
    }
    names[game.job.swapped ? 1 : 0] = tag_of(game.record, "White");
    names[game.job.swapped ? 0 : 1] = tag_of(game.record, "Black");
    log("game " + std::to_string(game.index + 1) + ": " + tag_of(game.record, "White") + " - " + tag_of(game.record, "Black") +
        " " + result + " (" + tag_of(game.record, "Termination") + ")");
    if (!settings.sprt) return true;
    verdict = sprt_verdict(score, *settings.sprt);
    return verdict == SprtVerdict::Inconclusive;
  });
  if (!variant) return std::nullopt;

  std::ostringstream out;
  out << names[0] << " vs " << names[1] << ": " << score.games() << " games, +" << score.wins << " ="
      << score.draws << " -" << score.losses << ", score " << fixed(100 * score.ratio(), 1) << "%, Elo "
      << fixed(score.elo(), 1) << " +/- " << fixed(score.elo_margin(), 1) << " (95%)\n";
  if (settings.sprt) out << sprt_line(score, *settings.sprt) << "\n";
  if (settings.formations) out << formation_table(*variant, formations, pairs);
  return out.str();
}

}  // namespace palace::match
