#include "match/match.h"

#include <unistd.h>

#include <atomic>
#include <cmath>
#include <filesystem>
#include <fstream>
#include <iomanip>
#include <mutex>
#include <random>
#include <sstream>
#include <thread>

#include "core/text.h"
#include "game/evaluator.h"
#include "hooks/load_variant.h"
#include "loader/config_tree.h"
#include "match/match_error.h"
#include "movegen/movegen.h"

namespace palace::match {

namespace {

// One game to play: where it starts, and whether the first player takes the second side.
struct Job {
  std::shared_ptr<const Variant> variant;
  std::string fen;
  bool swapped = false;
  int pair = -1;  // formation pair, as row * columns + column
};

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
  std::ifstream in(file);
  if (!in) throw MatchError("cannot read openings file " + palace::quote(file, 100));
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

// `plies` random legal moves from the set-up, never into a finished game.
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

// The formations each side may take: every one the variant's files define, for each side whose
// set-up names one; a side that names none keeps its set-up ("-").
struct FormationGrid {
  std::vector<std::string> names[SideCount];
  std::vector<std::shared_ptr<const Variant>> variants;  // row-major, rows for the first side
};

FormationGrid formation_grid(const std::string& file, const Variant& variant) {
  const ConfigNode root = ConfigNode::load_file(file);
  const ConfigNode* defined = root.find("formations");
  const ConfigNode* setup = root.find("setup");
  FormationGrid grid;
  for (int s = 0; s < SideCount; ++s) {
    const ConfigNode* side = setup ? setup->find(variant.side_name(s)) : nullptr;
    if (defined && side && side->find("formation"))
      for (const auto& [name, kinds] : defined->entries()) grid.names[s].push_back(name);
    if (grid.names[s].empty()) grid.names[s].push_back("-");
  }
  if (grid.names[0].size() * grid.names[1].size() == 1) throw MatchError(file + " defines no formations");
  const std::string absolute = std::filesystem::absolute(file).string();
  for (const auto& first : grid.names[0])
    for (const auto& second : grid.names[1]) {
      // A variant file naming one formation per side over the original: the rule language's own
      // way to change a formation, so the referee needs no second way.
      const auto path = std::filesystem::temp_directory_path() /
                        ("palace-match-" + std::to_string(::getpid()) + "-" + first + "-" + second + ".yaml");
      {
        std::ofstream out(path);
        out << "import: [\"" << absolute << "\"]\nsetup:\n";
        if (first != "-") out << "  " << variant.side_name(0) << ": {formation: {name: " << first << "}}\n";
        if (second != "-") out << "  " << variant.side_name(1) << ": {formation: {name: " << second << "}}\n";
      }
      try {
        grid.variants.push_back(load_variant(path.string()));
      } catch (...) {
        std::filesystem::remove(path);
        throw;
      }
      std::filesystem::remove(path);
    }
  return grid;
}

std::string fixed(double value, int decimals) {
  std::ostringstream out;
  out << std::fixed << std::setprecision(decimals) << value;
  return out.str();
}

}  // namespace

std::string run_match(const MatchSettings& settings, const std::function<void(const std::string&)>& log) {
  const auto variant = load_variant(settings.variant_file);
  PlayerSpec specs[2] = {settings.players[0], settings.players[1]};
  if (specs[0].name == specs[1].name) specs[1].name += "-2";

  std::vector<Job> jobs;
  FormationGrid grid;
  auto add_pair = [&](const std::shared_ptr<const Variant>& v, const std::string& fen, int pair) {
    jobs.push_back({v, fen, false, pair});
    jobs.push_back({v, fen, true, pair});
  };
  if (settings.formations) {
    grid = formation_grid(settings.variant_file, *variant);
    for (int i = 0; i < int(grid.variants.size()); ++i)
      for (int r = 0; r < settings.rounds; ++r) add_pair(grid.variants[i], Position(grid.variants[i]).fen(), i);
  } else if (!settings.openings_file.empty()) {
    const auto fens = openings_from_file(settings.openings_file, variant);
    for (int r = 0; r < settings.rounds; ++r) add_pair(variant, fens[std::size_t(r) % fens.size()], -1);
  } else {
    std::mt19937_64 random(settings.seed);
    for (int r = 0; r < settings.rounds; ++r) add_pair(variant, random_opening(variant, settings.random_plies, random), -1);
  }
  // Checked before any game, so that a bad spec fails the match at once, not in a worker thread.
  for (const PlayerSpec& spec : specs) make_player(spec, variant);

  std::ofstream pgn_out;
  if (!settings.pgn_file.empty()) {
    pgn_out.open(settings.pgn_file);
    if (!pgn_out) throw MatchError("cannot write PGN file " + palace::quote(settings.pgn_file, 100));
  }
  std::mutex mutex;
  Score score;
  std::vector<double> pair_points(grid.variants.size(), 0.0);
  std::vector<int> pair_games(grid.variants.size(), 0);
  std::atomic<std::size_t> next = 0;
  std::atomic<bool> decided = false;
  std::string sprt_verdict;
  std::string failure;

  auto worker = [&] {
    for (std::size_t i; !decided && (i = next++) < jobs.size();) {
      const Job& job = jobs[i];
      GameRecord record;
      try {
        auto first = make_player(specs[0], job.variant);
        auto second = make_player(specs[1], job.variant);
        Player* const players[2] = {job.swapped ? second.get() : first.get(), job.swapped ? first.get() : second.get()};
        record = play_game(job.variant, job.fen, players, settings.referee);
      } catch (const Error& e) {
        std::lock_guard lock(mutex);
        if (failure.empty()) failure = e.what();
        decided = true;
        return;
      }
      std::lock_guard lock(mutex);
      const double side0 = record.kind == Termination::Kind::Draw ? 0.5 : record.winner == 0 ? 1.0 : 0.0;
      const double first_points = job.swapped ? 1 - side0 : side0;
      (first_points == 1 ? score.wins : first_points == 0 ? score.losses : score.draws)++;
      if (job.pair >= 0) {
        pair_points[std::size_t(job.pair)] += side0;
        pair_games[std::size_t(job.pair)]++;
      }
      log("game " + std::to_string(i + 1) + ": " + record.names[0] + " - " + record.names[1] + " " + record.result() +
          " (" + record.termination + ")");
      if (pgn_out) pgn_out << pgn(record, job.variant, int(i + 1)) << std::flush;
      if (settings.sprt) {
        const double llr = score.llr(*settings.sprt);
        const double lower = std::log(settings.sprt->beta / (1 - settings.sprt->alpha));
        const double upper = std::log((1 - settings.sprt->beta) / settings.sprt->alpha);
        if (llr >= upper || llr <= lower) {
          sprt_verdict = llr >= upper ? "H1 accepted" : "H0 accepted";
          decided = true;
        }
      }
    }
  };
  std::vector<std::thread> threads;
  for (int t = 0; t < std::max(1, settings.concurrency); ++t) threads.emplace_back(worker);
  for (auto& t : threads) t.join();
  if (!failure.empty()) throw MatchError(failure);

  std::ostringstream out;
  out << specs[0].name << " vs " << specs[1].name << ": " << score.games() << " games, +" << score.wins << " ="
      << score.draws << " -" << score.losses << ", score " << fixed(100 * score.ratio(), 1) << "%, Elo "
      << fixed(score.elo(), 1) << " +/- " << fixed(score.elo_margin(), 1) << " (95%)\n";
  if (settings.sprt) {
    const Sprt& s = *settings.sprt;
    out << "SPRT elo0=" << s.elo0 << " elo1=" << s.elo1 << " alpha=" << s.alpha << " beta=" << s.beta
        << ": LLR " << fixed(score.llr(s), 2) << " [" << fixed(std::log(s.beta / (1 - s.alpha)), 2) << ", "
        << fixed(std::log((1 - s.beta) / s.alpha), 2) << "] " << (sprt_verdict.empty() ? "inconclusive" : sprt_verdict)
        << "\n";
  }
  if (settings.formations) {
    out << variant->side_name(0) << "'s score (rows: " << variant->side_name(0) << "'s formation, columns: "
        << variant->side_name(1) << "'s)\n" << std::setw(16) << "";
    for (const auto& name : grid.names[1]) out << std::setw(16) << name;
    out << "\n";
    for (std::size_t r = 0; r < grid.names[0].size(); ++r) {
      out << std::setw(16) << grid.names[0][r];
      for (std::size_t c = 0; c < grid.names[1].size(); ++c) {
        const std::size_t i = r * grid.names[1].size() + c;
        out << std::setw(16) << (pair_games[i] ? fixed(100 * pair_points[i] / pair_games[i], 1) + "%" : "-");
      }
      out << "\n";
    }
  }
  return out.str();
}

}  // namespace palace::match
