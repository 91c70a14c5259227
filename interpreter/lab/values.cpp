#include "lab/values.h"

#include <algorithm>
#include <cmath>
#include <iomanip>
#include <random>
#include <sstream>
#include <vector>

#include "core/text.h"
#include "lab/material_fit.h"
#include "lab/report.h"
#include "movegen/movegen.h"
#include "notation/replay.h"

namespace palace::lab {

namespace {

using match::fixed;

// The positions of one game worth fitting: not in check, and not in the middle of an exchange (the
// move played from it took nothing), so that the material on the board is the material the game had.
std::vector<Sample> samples_of(const Game& replayed, double points) {
  const auto& variant = replayed.variant_ptr();
  Position pos(variant);
  pos.set_fen(replayed.start_fen());
  std::vector<Sample> out;
  for (const Move m : replayed.history()) {
    const Side mover = pos.side_to_move();
    const int before = pos.piece_count(opponent(mover));
    const bool quiet = !in_check(pos);
    std::vector<double> material(std::size_t(variant->kinds()), 0.0);
    for (Point p = Point(0); p < variant->squares(); ++p)
      if (const Piece piece = pos.at(p)) material[std::size_t(kind_of(piece))] += side_of(piece) == First ? 1 : -1;
    for (Kind k = Kind(0); k < variant->kinds(); ++k) material[std::size_t(k)] += pos.in_hand(First, k) - pos.in_hand(Second, k);
    pos.do_move(m);
    if (quiet && pos.piece_count(opponent(mover)) == before) out.push_back({std::move(material), points});
  }
  return out;
}

double percentile(std::vector<double> values, double q) {
  std::sort(values.begin(), values.end());
  return values[std::size_t(q * double(values.size() - 1) + 0.5)];
}

// The set-up of `variant` with its first piece of `kind` on `side`'s side taken off; null where
// the set-up has none, or cannot do without it (a castling that needs that rook).
std::shared_ptr<const Variant> without_one(const Variant& variant, Side side, Kind kind) {
  RuleSet rules = variant.rules();
  auto& setup = rules.setup[side];
  const auto at = std::find_if(setup.begin(), setup.end(), [&](const Placement& p) { return p.kind == kind; });
  if (at == setup.end()) return nullptr;
  setup.erase(at);
  try {
    auto short_one = std::make_shared<const Variant>(std::move(rules));
    Position check(short_one);
    return short_one;
  } catch (const Error&) {
    return nullptr;
  }
}

// A kind removal games take one of, and the set-ups a piece short: the first side's, the second's.
struct Removal {
  Kind kind;
  std::shared_ptr<const Variant> short_of[SideCount];
};

// Every kind that is not royal and whose piece each side's set-up can do without.
std::vector<Removal> removals(const Variant& variant) {
  std::vector<Removal> out;
  for (Kind k = Kind(0); k < variant.kinds(); ++k) {
    if (variant.royal(k)) continue;
    Removal r{k, {without_one(variant, First, k), without_one(variant, Second, k)}};
    if (r.short_of[First] && r.short_of[Second]) out.push_back(std::move(r));
  }
  return out;
}

}  // namespace

std::optional<std::string> run_values(const ValuesSettings& settings, const std::function<void(const std::string&)>& log) {
  match::MatchSettings m = settings.match;
  m.swap_colours = false;
  if (!settings.report_dir.empty()) make_report_folder(settings.report_dir);
  std::vector<std::vector<Sample>> games;  // the fit's positions, game by game
  std::vector<ReportGame> seen_games;      // and what the report shows of them
  std::vector<Removal> removal_kinds;
  std::vector<match::Score> removal;  // per removal kind: the score of the side a piece short
  const auto variant = match::play_jobs(
      m,
      [&](const std::shared_ptr<const Variant>& variant) {
        std::vector<match::MatchJob> jobs;
        std::mt19937_64 random(m.seed);
        for (int r = 0; r < m.rounds; ++r) jobs.push_back({variant, match::random_opening(variant, m.random_plies, random), false, -1});
        if (settings.removal_games) removal_kinds = removals(*variant);
        for (std::size_t i = 0; i < removal_kinds.size(); ++i)
          for (Side s = First; s < SideCount; ++s) {
            const auto& short_one = removal_kinds[i].short_of[s];
            for (int r = 0; r < settings.removal_games; ++r)
              jobs.push_back({short_one, match::random_opening(short_one, m.random_plies, random), false, int(2 * i + s)});
          }
        removal.assign(removal_kinds.size(), {});
        return jobs;
      },
      [&](const match::PlayedGame& game) {
        const double points = first_points(game.record);
        const Variant& v = *game.job.variant;
        std::string what = "for the fit";
        if (game.job.group < 0) {
          const Replay replay = replay_record(game.record, game.job.variant);
          seen_games.push_back(report_game(game.record, replay.game));
          games.push_back(samples_of(replay.game, points));
        } else {
          const Side short_side = Side(game.job.group % 2);
          const Kind kind = removal_kinds[std::size_t(game.job.group / 2)].kind;
          const double own = short_side == First ? points : 1 - points;
          match::Score& s = removal[std::size_t(game.job.group / 2)];
          (own == 1 ? s.wins : own == 0 ? s.losses : s.draws)++;
          what = v.side_name(short_side) + " without a " + v.kind_name(kind);
        }
        log("game " + std::to_string(game.index + 1) + " (" + what + "): " + *game.record.tag("Result"));
        return true;
      });
  if (!variant) return std::nullopt;

  // The kinds out of balance somewhere in the games: the others say nothing of their worth.
  std::vector<std::size_t> columns;
  std::vector<const Sample*> all;
  for (const auto& g : games)
    for (const Sample& s : g) all.push_back(&s);
  for (std::size_t k = 0; k < std::size_t(variant->kinds()); ++k)
    if (!variant->royal(Kind(k)) && std::any_of(all.begin(), all.end(), [&](const Sample* s) { return s->material[k] != 0; }))
      columns.push_back(k);
  std::vector<double> file;
  for (const std::size_t k : columns) file.push_back(variant->rules().pieces[k].value);

  const auto scaled = [&](const std::vector<const Sample*>& samples) {
    std::vector<double> w = fit(samples, columns);
    w.pop_back();
    const double s = scale_to(w, file);
    for (double& x : w) x *= s;
    return w;
  };
  const std::vector<double> values = columns.empty() ? std::vector<double>{} : scaled(all);
  std::vector<std::vector<double>> samples(columns.size());
  std::mt19937_64 random(m.seed);
  for (int r = 0; r < settings.resamples && !columns.empty(); ++r) {
    std::vector<const Sample*> drawn;
    for (std::size_t g = 0; g < games.size(); ++g)
      for (const Sample& s : games[random() % games.size()]) drawn.push_back(&s);
    const std::vector<double> w = scaled(drawn);
    for (std::size_t i = 0; i < columns.size(); ++i) samples[i].push_back(w[i]);
  }

  std::vector<ValueRow> rows;
  for (Kind k = Kind(0); k < variant->kinds(); ++k) {
    if (variant->royal(k)) continue;
    ValueRow row{variant->kind_name(k), variant->rules().pieces[std::size_t(k)].value};
    if (const auto at = std::find(columns.begin(), columns.end(), std::size_t(k)); at != columns.end()) {
      const std::size_t i = std::size_t(at - columns.begin());
      row.fitted = true;
      row.value = values[i];
      row.low = samples[i].empty() ? values[i] : percentile(samples[i], 0.025);
      row.high = samples[i].empty() ? values[i] : percentile(samples[i], 0.975);
    }
    const auto r = std::find_if(removal_kinds.begin(), removal_kinds.end(), [&](const Removal& x) { return x.kind == k; });
    if (r != removal_kinds.end()) {
      const match::Score& s = removal[std::size_t(r - removal_kinds.begin())];
      row.removal_games = s.games();
      row.elo = s.elo();
      row.elo_margin = s.elo_margin();
    }
    rows.push_back(row);
  }

  std::ostringstream out;
  out << "piece values from " << games.size() << " games (" << all.size()
      << " quiet positions), fitted to the results and scaled to the file's values; 95% intervals from "
      << settings.resamples << " resamples of the games\n";
  out << std::left << std::setw(16) << "kind" << std::right << std::setw(8) << "file" << std::setw(8) << "fitted"
      << std::setw(22) << "interval";
  if (settings.removal_games) out << "   without one (Elo, 95%)";
  out << "\n";
  for (const ValueRow& row : rows) {
    out << std::left << std::setw(16) << row.kind << std::right << std::setw(8) << fixed(row.file, 2);
    if (row.fitted)
      out << std::setw(8) << fixed(row.value, 2) << std::setw(22) << (fixed(row.low, 2) + " to " + fixed(row.high, 2));
    else
      out << std::setw(8) << "-" << std::setw(22) << "never out of balance";
    if (row.removal_games)
      out << "   " << fixed(row.elo, 0) << " +/- " << fixed(row.elo_margin, 0) << " (" << row.removal_games << " games)";
    out << "\n";
  }
  if (!settings.report_dir.empty()) {
    const ReportData data{.title = "Piece values of " + variant->rules().name + ": " + std::to_string(games.size()) + " games, " +
                                   budget_words(m.players[0]),
                          .summary = out.str(),
                          .games = seen_games,
                          .formations = nullptr,
                          .pairs = nullptr,
                          .values = rows};
    write_report(settings.report_dir, settings.report_script, *variant, data);
  }
  return out.str();
}

}  // namespace palace::lab
