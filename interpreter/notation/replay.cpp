#include "notation/replay.h"

#include <algorithm>
#include <cctype>
#include <filesystem>

#include "core/text.h"
#include "hooks/load_variant.h"
#include "loader/rule_set.h"
#include "notation/gib.h"
#include "notation/notation.h"
#include "position/position.h"

namespace palace {

namespace {

bool same_word(const std::string& a, const std::string& b) {
  return a.size() == b.size() && std::equal(a.begin(), a.end(), b.begin(), [](char x, char y) {
           return std::tolower(static_cast<unsigned char>(x)) == std::tolower(static_cast<unsigned char>(y));
         });
}

// ICCS writes Xiangqi moves as file letter and rank digit from 0, red's side first: "H2-E2".
std::string from_iccs(const std::string& move) {
  const bool iccs = move.size() == 5 && std::isalpha(static_cast<unsigned char>(move[0])) &&
                    std::isdigit(static_cast<unsigned char>(move[1])) && move[2] == '-' &&
                    std::isalpha(static_cast<unsigned char>(move[3])) && std::isdigit(static_cast<unsigned char>(move[4]));
  if (!iccs) return move;
  auto square = [](char file, char rank) {
    return std::string(1, char(std::tolower(static_cast<unsigned char>(file)))) + std::to_string(rank - '0' + 1);
  };
  return square(move[0], move[1]) + square(move[3], move[4]);
}

}  // namespace

VariantCatalog::VariantCatalog(std::string folder) : folder_(std::move(folder)) {}

std::shared_ptr<const Variant> VariantCatalog::find(const GameRecord& record, const std::string& fallback) {
  const std::string* tagged = record.tag("Variant");
  if (!tagged || tagged->empty()) tagged = record.tag("Game");
  const std::string name = tagged && !tagged->empty() ? *tagged : fallback;
  if (!scanned_) {
    scanned_ = true;
    std::vector<std::string> paths;
    std::error_code ec;
    for (const auto& entry : std::filesystem::directory_iterator(folder_, ec))
      if (entry.path().extension() == ".yaml") paths.push_back(entry.path().string());
    std::sort(paths.begin(), paths.end());
    for (const std::string& path : paths) {
      try {
        const RuleSet rules = load_rules(path);
        std::vector<std::string> names = {rules.name};
        if (!rules.uci.variant.empty()) names.push_back(rules.uci.variant);
        names.insert(names.end(), rules.notation.pgn_names.begin(), rules.notation.pgn_names.end());
        files_.emplace_back(path, std::move(names));
      } catch (const Error&) {
        // A broken variant file is `palace validate`'s to report; it names no record's game here.
      }
    }
  }
  const std::pair<std::string, std::vector<std::string>>* best = nullptr;
  for (const auto& file : files_) {
    if (same_word(file.second.front(), name)) {
      best = &file;
      break;
    }
    if (!best && std::any_of(file.second.begin(), file.second.end(), [&](const std::string& n) { return same_word(n, name); }))
      best = &file;
  }
  if (!best) throw RecordError("unknown variant " + quote(name) + " (give one with --variant)");
  auto& variant = loaded_[best->first];
  if (!variant) variant = load_variant(best->first);
  return variant;
}

std::string result_token(const Termination& state) {
  if (state.kind == Termination::Kind::Draw) return "1/2-1/2";
  if (state.kind == Termination::Kind::Win) return state.winner == 0 ? "1-0" : "0-1";
  return "*";
}

std::vector<GameRecord> read_records(std::string_view bytes, bool gib) {
  if (!gib && !is_utf8(bytes)) throw RecordError("not UTF-8 text (a .gib file may be cp949)");
  std::vector<GameRecord> games = gib ? read_gib(bytes) : read_pgn(bytes);
  if (games.empty()) throw RecordError("no game in it");
  return games;
}

Replay replay_record(const GameRecord& record, std::shared_ptr<const Variant> variant) {
  Replay replay(std::move(variant));
  Game& game = replay.game;
  if (const std::string* fen = record.tag("FEN")) {
    try {
      game.set_fen(*fen);
    } catch (const Error& e) {
      replay.verdict = std::string("bad [FEN]: ") + e.what();
      return replay;
    }
  }
  const std::string* format = record.tag("Format");
  const bool iccs = format && same_word(*format, "ICCS");
  for (std::size_t i = 0; i < record.moves.size(); ++i) {
    const std::string& text = record.moves[i];
    const int number = game.position().fullmove_number();
    const std::string side = game.variant().side_name(game.side_to_move());
    const MoveVerdict verdict = game.play(iccs ? from_iccs(text) : text);
    if (!verdict.accepted) {
      replay.verdict = "move " + std::to_string(number) + " (" + side + ") " + quote(text) + ": " + verdict.reason;
      return replay;
    }
  }
  const std::size_t plies = record.moves.size();
  const std::string played = std::to_string(plies) + (plies == 1 ? " ply" : " plies");
  if (!record.problem.empty()) {
    replay.verdict = played + ", then unreadable: " + record.problem;
    return replay;
  }
  const Termination& state = game.game_state();
  if (!state.finished()) {
    replay.good = true;
    replay.verdict = played + ", " + record.result + (record.result == "*" ? "" : " (not decided on the board)");
    return replay;
  }
  const std::string expected = result_token(state);
  replay.good = record.result == expected || record.result == "*";
  replay.verdict = played + ", " + record.result + (replay.good ? "" : " recorded but the board says " + expected) +
                   ": " + game.verdict();
  return replay;
}

GameRecord rewrite_record(const GameRecord& record, const Replay& replay, NotationStyle style) {
  const Game& game = replay.game;
  const Variant& variant = game.variant();
  GameRecord out;
  out.result = record.result;
  for (const auto& [name, value] : record.tags)
    if (!same_word(name, "FEN") && !same_word(name, "SetUp") && !same_word(name, "Format") &&
        !same_word(name, "Variant") && !same_word(name, "Game"))
      out.set_tag(name, value);
  const NotationRules& notation = variant.rules().notation;
  // PGN without a [Variant] tag is standard chess (StandardVariant), so only other games need one.
  if (std::none_of(notation.pgn_names.begin(), notation.pgn_names.end(),
                   [](const std::string& n) { return same_word(n, StandardVariant); }))
    out.set_tag("Variant", variant.rules().name);
  if (style == NotationStyle::Wxf) out.set_tag("Format", "WXF");
  if (game.game_state().finished() && !out.tag("Termination")) out.set_tag("Termination", game.game_state().reason_text());
  Position start(game.variant_ptr());
  if (game.start_fen() != start.fen()) {
    out.set_tag("SetUp", "1");
    out.set_tag("FEN", game.start_fen());
  }
  start.set_fen(game.start_fen());
  const MoveNotation writer(variant);
  for (const Move m : game.history()) {
    out.moves.push_back(writer.write(start, m, style));
    start.do_move(m);
  }
  return out;
}

}  // namespace palace
