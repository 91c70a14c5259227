#include "lab/balance.h"

#include <algorithm>
#include <array>
#include <map>
#include <sstream>
#include <vector>

#include "core/text.h"
#include "lab/report.h"
#include "movegen/movegen.h"
#include "notation/replay.h"

namespace palace::lab {

namespace {

using match::fixed;

// How the games ended, by the record's words up to the points a count gives ("adjudicated by
// counting at the move limit, 73 to 72 points" is one way to end, whatever the points).
struct EndCount {
  int games = 0;
  int wins[SideCount] = {0, 0};
};

// The moves a player could choose from, summed over the positions of each third of the games.
struct Branching {
  std::array<double, 3> moves{};
  std::array<long, 3> positions{};
};

struct Tally {
  match::Score first;  // the first side's wins, draws and losses, whoever played it
  std::map<std::string, EndCount> ends;
  std::vector<ReportGame> games;
  Branching branching;
  match::PairScores pairs;
};

// The legal moves of each position of a replayed game before its last, by third of the game.
void count_choices(const Game& replayed, Branching& branching) {
  Position pos(replayed.variant_ptr());
  pos.set_fen(replayed.start_fen());
  const auto& moves = replayed.history();
  for (std::size_t i = 0; i < moves.size(); ++i) {
    MoveList legal;
    generate_legal(pos, legal);
    const std::size_t third = 3 * i / moves.size();
    branching.moves[third] += legal.size;
    branching.positions[third]++;
    pos.do_move(moves[i]);
  }
}

int quantile(std::vector<int> values, double q) {
  std::sort(values.begin(), values.end());
  return values[std::size_t(q * double(values.size() - 1) + 0.5)];
}

// Formations of one side that another of its formations does at least as well as against every
// formation of the other side, and better against one: on the scores seen, never worth choosing.
std::vector<std::string> dominated(const match::FormationNames& f, const match::PairScores& s, Side side) {
  const std::size_t mine = f.names[side].size(), theirs = f.names[opponent(side)].size();
  const auto score = [&](std::size_t own, std::size_t other) {
    const std::size_t i = side == First ? own * theirs + other : other * mine + own;
    const double first = s.points[i] / s.games[i];
    return side == First ? first : 1 - first;
  };
  std::vector<std::string> out;
  for (std::size_t a = 0; a < mine; ++a)
    for (std::size_t b = 0; b < mine; ++b) {
      if (a == b) continue;
      bool all = true, one = false;
      for (std::size_t o = 0; o < theirs && all; ++o) {
        all = score(b, o) >= score(a, o);
        one = one || score(b, o) > score(a, o);
      }
      if (all && one) {
        out.push_back(f.names[side][a] + " (by " + f.names[side][b] + ")");
        break;
      }
    }
  return out;
}

std::string summary(const BalanceSettings& settings, const Variant& variant, const Tally& t,
                    const match::FormationNames& formations, const std::string& early_stop) {
  std::vector<int> lengths;
  for (const ReportGame& g : t.games) lengths.push_back(g.length);
  const std::string first = capitalised(variant.side_name(First)), second = capitalised(variant.side_name(Second));
  const match::Score& s = t.first;
  std::ostringstream out;
  out << first << "'s score " << fixed(100 * s.ratio(), 1) << "%, Elo " << fixed(s.elo(), 1) << " +/- "
      << fixed(s.elo_margin(), 1) << " (95%), p " << fixed(s.p_value(), 3) << " against an even game: " << s.games()
      << " games, +" << s.wins << " =" << s.draws << " -" << s.losses << "\n";
  out << "draws " << fixed(100.0 * s.draws / s.games(), 1) << "%, decided " << fixed(100.0 * (s.wins + s.losses) / s.games(), 1)
      << "%\n";
  std::vector<std::pair<std::string, EndCount>> ends(t.ends.begin(), t.ends.end());
  std::stable_sort(ends.begin(), ends.end(), [](const auto& a, const auto& b) { return a.second.games > b.second.games; });
  out << "ends:";
  for (const auto& [why, n] : ends) {
    out << "\n  " << why << ": " << n.games;
    if (n.wins[First] + n.wins[Second])
      out << " (" << first << " " << n.wins[First] << ", " << second << " " << n.wins[Second] << ")";
  }
  out << "\nlength in plies from the set-up: median " << quantile(lengths, 0.5) << ", quartiles "
      << quantile(lengths, 0.25) << " to " << quantile(lengths, 0.75) << ", shortest " << quantile(lengths, 0)
      << ", longest " << quantile(lengths, 1) << "\n";
  out << "legal moves a position, by third of the game:";
  for (int i = 0; i < 3; ++i)
    out << " " << (t.branching.positions[i] ? fixed(t.branching.moves[i] / double(t.branching.positions[i]), 1) : "-");
  out << "\n";
  if (!early_stop.empty()) out << early_stop << "\n";
  if (settings.match.formations) {
    out << match::formation_table(variant, formations, t.pairs);
    for (Side side = First; side < SideCount; ++side) {
      const auto worse = dominated(formations, t.pairs, side);
      if (worse.empty()) continue;
      out << "dominated, " << variant.side_name(side) << ":";
      for (const auto& name : worse) out << " " << name;
      out << "\n";
    }
  }
  return out.str();
}

}  // namespace

std::optional<std::string> run_balance(const BalanceSettings& settings, const std::function<void(const std::string&)>& log) {
  match::MatchSettings m = settings.match;
  m.swap_colours = false;
  const bool sprt = settings.sprt_elo > 0 && !m.formations;
  const match::Sprt ahead{0, settings.sprt_elo};
  if (!settings.report_dir.empty()) make_report_folder(settings.report_dir);
  Tally tally;
  match::FormationNames formations;
  std::string early_stop;
  const auto variant = match::play_match(m, formations, [&](const match::PlayedGame& game) {
    const Variant& v = *game.job.variant;
    const Replay replay = replay_record(game.record, game.job.variant);
    const ReportGame seen = report_game(game.record, replay.game);
    tally.games.push_back(seen);
    (seen.points == 1 ? tally.first.wins : seen.points == 0 ? tally.first.losses : tally.first.draws)++;
    EndCount& end = tally.ends[seen.end];
    end.games++;
    if (seen.points != 0.5) end.wins[seen.points == 1 ? First : Second]++;
    if (game.job.group >= 0) {
      tally.pairs.points.resize(formations.pairs());
      tally.pairs.games.resize(formations.pairs());
      tally.pairs.points[std::size_t(game.job.group)] += seen.points;
      tally.pairs.games[std::size_t(game.job.group)]++;
    }
    count_choices(replay.game, tally.branching);
    const match::Score& s = tally.first;
    log("game " + std::to_string(game.index + 1) + ": " + *game.record.tag("Result") + " (" + *game.record.tag("Termination") + "), " +
        capitalised(v.side_name(First)) + " " + fixed(100 * s.ratio(), 1) + "% after " + std::to_string(s.games()));
    if (!sprt) return true;
    const match::Score mirrored{s.losses, s.draws, s.wins};
    const auto up = match::sprt_verdict(s, ahead), down = match::sprt_verdict(mirrored, ahead);
    if (up == match::SprtVerdict::H1) early_stop = capitalised(v.side_name(First)) + " is ahead";
    else if (down == match::SprtVerdict::H1) early_stop = capitalised(v.side_name(Second)) + " is ahead";
    else if (up == match::SprtVerdict::H0 && down == match::SprtVerdict::H0) early_stop = "the sides are even";
    else return true;
    early_stop = "stopped early: " + early_stop + " (SPRT of 0 against " + fixed(settings.sprt_elo, 0) + " Elo, alpha " +
                 fixed(ahead.alpha, 2) + ", beta " + fixed(ahead.beta, 2) + ", for each side: LLR " + fixed(s.llr(ahead), 2) +
                 " for " + v.side_name(First) + ", " + fixed(mirrored.llr(ahead), 2) + " for " + v.side_name(Second) + ", bounds " +
                 fixed(ahead.lower(), 2) + " and " + fixed(ahead.upper(), 2) + ")";
    return false;
  });
  if (!variant) return std::nullopt;
  std::string text = summary(settings, *variant, tally, formations, early_stop);
  if (!settings.report_dir.empty()) {
    ReportData data{.title = "Balance of " + variant->rules().name + ": " + std::to_string(tally.first.games()) + " games, " +
                             budget_words(m.players[0]),
                    .summary = text,
                    .games = tally.games,
                    .formations = m.formations ? &formations : nullptr,
                    .pairs = &tally.pairs,
                    .values = {}};
    write_report(settings.report_dir, settings.report_script, *variant, data);
  }
  return text;
}

}  // namespace palace::lab
