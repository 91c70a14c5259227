#include "notation/replay.h"

#include <algorithm>
#include <cctype>
#include <filesystem>

#include "core/text.h"
#include "hooks/load_variant.h"
#include "loader/rule_set.h"
#include "movetext/iccs.h"
#include "movetext/notation.h"
#include "notation/csa.h"
#include "notation/encoding.h"
#include "notation/gib.h"
#include "notation/kif.h"
#include "position/position.h"

namespace palace {

namespace {

bool same_word(const std::string& a, const std::string& b) {
  return a.size() == b.size() && std::equal(a.begin(), a.end(), b.begin(), [](char x, char y) {
           return std::tolower(static_cast<unsigned char>(x)) == std::tolower(static_cast<unsigned char>(y));
         });
}

// A record is in ICCS where its variant allows it and its [Format] tag says so, or a move of it
// names rank 0, which Palace's coordinates never do.
bool uses_iccs(const GameRecord& record, const Variant& variant) {
  if (!variant.rules().notation.iccs) return false;
  const std::string* format = record.tag("Format");
  if (format && same_word(*format, "ICCS")) return true;
  return std::any_of(record.moves.begin(), record.moves.end(),
                     [&](const std::string& move) { return iccs_names_rank_zero(variant.board(), move); });
}

// A record's [FEN] as Palace reads it: some writers (xqbase's) name the first side to move by its
// initial ("... r - - 0 1" for red) rather than "w".
std::string record_fen(const std::string& fen, const Variant& variant) {
  const std::size_t side = fen.find(' ');
  const std::string& first = variant.side_name(First);
  if (side == std::string::npos || side + 2 > fen.size() || first.empty() || (side + 2 < fen.size() && fen[side + 2] != ' '))
    return fen;
  const char given = fen[side + 1];
  if (given == 'w' || given == 'b' || std::tolower(static_cast<unsigned char>(given)) != std::tolower(static_cast<unsigned char>(first[0])))
    return fen;
  std::string out = fen;
  out[side + 1] = 'w';
  return out;
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

std::string result_token(const Verdict& state) {
  if (state.winner) return *state.winner == 0 ? "1-0" : "0-1";
  if (state.finished()) return "1/2-1/2";
  return "*";
}

namespace {

// UTF-8, or GBK as Chinese Xiangqi programs (xqbase's tools, 象棋巫师) write it, which GB18030 reads,
// or Big5 as Taiwanese and Hong Kong ones do, or Shift_JIS.
std::vector<GameRecord> read_pgn_bytes(std::string_view bytes) {
  std::string text;
  try {
    text = utf8_text(bytes, {"gb18030", "big5-hkscs", "cp932"});
  } catch (const RecordError&) {
    throw RecordError("not UTF-8, GB18030, Big5 or Shift_JIS text (a .gib file may be cp949)");
  }
  return read_pgn(text);
}

// PGN first: what a file is read as when nothing says otherwise.
const RecordFormat RecordFormats[] = {
    {"pgn", {".pgn"}, StandardVariant, read_pgn_bytes},
    {"gib", {".gib"}, GibVariant, read_gib},
    {"kif", {".kif", ".kifu", ".ki2", ".ki2u"}, "kif", read_kif},
    {"csa", {".csa"}, "csa", read_csa},
};

bool has_extension(const std::string& path, const char* extension) {
  const std::size_t n = std::char_traits<char>::length(extension);
  return path.size() >= n && same_word(path.substr(path.size() - n), extension);
}

// A CSA file has a line that is a move ("+7776FU") or its start ("PI", "P1-KY..."); a KIF file its
// move table's heading or KI2's side marks. Neither occurs in a PGN.
const RecordFormat* format_by_content(std::string_view bytes) {
  std::string text;
  try {
    text = utf8_text(bytes, {"cp932", "euc-jp", "gb18030", "big5-hkscs"});
  } catch (const RecordError&) {
    return nullptr;
  }
  auto has_line = [&](const char* head) { return text.rfind(head, 0) == 0 || text.find(std::string("\n") + head) != std::string::npos; };
  if (has_line("PI") || has_line("P1-") || has_line("P1 ") || has_line("+7776") || has_line("+2726"))
    return record_format_named("csa");
  if (text.find("手数----") != std::string::npos || has_line("▲")) return record_format_named("kif");
  return nullptr;
}

}  // namespace

const RecordFormat* record_format_named(std::string_view name) {
  for (const RecordFormat& format : RecordFormats)
    if (name == format.name) return &format;
  return nullptr;
}

const RecordFormat& record_format(const std::string& path, std::string_view bytes) {
  for (const RecordFormat& format : RecordFormats)
    for (const char* extension : format.extensions)
      if (extension && has_extension(path, extension)) return format;
  const RecordFormat* found = format_by_content(bytes);
  return found ? *found : RecordFormats[0];
}

std::vector<GameRecord> read_records(std::string_view bytes, const RecordFormat& format) {
  std::vector<GameRecord> games = format.read(bytes);
  if (games.empty()) throw RecordError("no game in it");
  return games;
}

namespace {

// Notations a record's [Format] tag may name, which MoveNotation does not read as they are: how a
// move is read (into Palace's coordinates, "" and `why` where it names none) and, where the format
// gives its start position in its own way, the FEN it starts from ("" for the set-up).
struct MoveFormat {
  const char* name;
  std::string (*read)(const Game& game, const std::string& text, std::string& why);
  std::string (*start)(const GameRecord& record, const std::shared_ptr<const Variant>& variant);
};

template <Move (*Read)(const Game&, std::string_view, std::string&)>
std::string move_text(const Game& game, const std::string& text, std::string& why) {
  const Move m = Read(game, text, why);
  return m ? game.position().move_text(m) : "";
}

const MoveFormat MoveFormats[] = {
    {"KIF", move_text<kif_move>, kif_start},
    {"CSA", move_text<csa_move>, csa_start},
};

const MoveFormat* move_format(const GameRecord& record) {
  const std::string* format = record.tag("Format");
  if (!format) return nullptr;
  for (const MoveFormat& f : MoveFormats)
    if (same_word(*format, f.name)) return &f;
  return nullptr;
}

// The rulings a replay goes past, as its notes, each where it fell. The same ruling falling again
// within a move, as the players keep on (a piece still going back and forth), is that one point.
class Rulings {
 public:
  explicit Rulings(std::vector<std::string>& notes) : notes_(notes) {}

  // `ruling` fell at `ply` and the record went on; `note` tells where and what.
  void passed(std::size_t ply, const std::string& ruling, const std::string& note) {
    if (ruling != last_ || ply > at_ + 2) notes_.push_back(note + "; the game went on");
    last_ = ruling;
    at_ = ply;
  }

 private:
  std::vector<std::string>& notes_;
  std::string last_;
  std::size_t at_ = 0;
};

// Tags that hold a start position in a format's own terms: the [FEN] says it once replayed.
bool is_start_tag(const std::string& name) { return name == "KifBoard" || name == "KifTurn" || name == "CsaPosition"; }

}  // namespace

Replay replay_record(const GameRecord& record, std::shared_ptr<const Variant> variant) {
  Replay replay(std::move(variant));
  Game& game = replay.game;
  const MoveFormat* format = move_format(record);
  if (const std::string* fen = record.tag("FEN")) {
    try {
      game.set_fen(record_fen(*fen, game.variant()));
    } catch (const Error& e) {
      replay.verdict = std::string("bad [FEN]: ") + e.what();
      return replay;
    }
  } else if (format && format->start) {
    try {
      const std::string fen = format->start(record, game.variant_ptr());
      if (!fen.empty()) game.set_fen(fen);
    } catch (const Error& e) {
      replay.verdict = std::string("bad start position: ") + e.what();
      return replay;
    }
  }
  const bool iccs = uses_iccs(record, game.variant());
  Rulings rulings(replay.notes);
  std::string last_move = "the start position";  // where the last move played stands: "move 28 (red) "h9g9""
  for (std::size_t i = 0; i < record.moves.size(); ++i) {
    const std::string& text = record.moves[i];
    const std::string where = "move " + std::to_string(game.position().fullmove_number()) + " (" +
                              game.variant().side_name(game.side_to_move()) + ") " + quote(text);
    // The ruling that ended the game, should the record go past it: told where it fell. A move the
    // rules refused ends the game by its refusal once played on, which its own note told.
    const bool over = game.game_state().finished();
    const bool noted = game.game_state().refused;
    const std::string ending = over ? game.game_state().str(game.variant()) : "";
    const std::string ruled = over ? last_move + ": " + game.verdict() : "";
    MoveVerdict verdict;
    std::string move = text;
    if (iccs) {
      if (std::string coordinates = iccs_to_coordinates(game.variant().board(), text); !coordinates.empty()) move = coordinates;
    } else if (format) {
      move = format->read(game, text, verdict.reason);
    }
    if (!move.empty()) verdict = game.play(move);
    if (!verdict.accepted && !move.empty()) {
      const std::string refusal = verdict.reason;
      verdict = game.play_on(move);  // where the board refuses the move too, its reason stands
      if (verdict.accepted && !noted) rulings.passed(i, over ? ending : refusal, over ? ruled : where + ": " + refusal);
    }
    if (!verdict.accepted) {
      replay.verdict = where + ": " + verdict.reason;
      return replay;
    }
    last_move = where;
  }
  const std::size_t plies = record.moves.size();
  const std::string played = std::to_string(plies) + (plies == 1 ? " ply" : " plies");
  if (!record.problem.empty()) {
    replay.verdict = played + ", then unreadable: " + record.problem;
    return replay;
  }
  const Verdict& state = game.game_state();
  // How the record says it ended, where it says so, beside what the board says.
  const std::string stated = record.ending.empty() ? "" : " (" + record.ending + ")";
  if (!state.finished()) {
    replay.good = true;
    const std::string undecided = record.result == "*" ? "" : "not decided on the board";
    replay.verdict = played + ", " + record.result +
                     (stated.empty() ? (undecided.empty() ? "" : " (" + undecided + ")")
                                     : " (" + record.ending + (undecided.empty() ? "" : "; " + undecided) + ")");
    return replay;
  }
  const std::string expected = result_token(state);
  replay.good = record.result == expected || record.result == "*";
  replay.verdict = played + ", " + record.result + stated +
                   (replay.good ? "" : " recorded but the board says " + expected) + ": " + game.verdict();
  return replay;
}

GameRecord rewrite_record(const GameRecord& record, const Game& game, NotationStyle style) {
  const Variant& variant = game.variant();
  GameRecord out;
  out.result = record.result;
  for (const auto& [name, value] : record.tags)
    if (!same_word(name, "FEN") && !same_word(name, "SetUp") && !same_word(name, "Format") &&
        !same_word(name, "Variant") && !same_word(name, "Game") && !is_start_tag(name))
      out.set_tag(name, value);
  const NotationRules& notation = variant.rules().notation;
  // PGN without a [Variant] tag is standard chess (StandardVariant), so only other games need one.
  if (std::none_of(notation.pgn_names.begin(), notation.pgn_names.end(),
                   [](const std::string& n) { return same_word(n, StandardVariant); }))
    out.set_tag("Variant", variant.rules().name);
  if (style == NotationStyle::Wxf) out.set_tag("Format", "WXF");
  if (style == NotationStyle::Iccs) out.set_tag("Format", "ICCS");
  if (game.game_state().finished() && !out.tag("Termination")) out.set_tag("Termination", game.game_state().reason_text(variant));
  if (!record.ending.empty() && !out.tag("Termination")) out.set_tag("Termination", record.ending);
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

namespace {

std::string pgn_text(const GameRecord& record, const Game& game, NotationStyle style) {
  MoveNotation(game.variant()).require(style);
  Position start(game.variant_ptr());
  start.set_fen(game.start_fen());
  return write_pgn(rewrite_record(record, game, style), start.fullmove_number(), start.side_to_move() == 1);
}

template <class Names>
bool every_kind_named(const Names& names) {
  return !names.empty() && std::none_of(names.begin(), names.end(), [](const auto& n) { return n.empty(); });
}

bool numeric_moves(const NotationRules& n) { return n.native == NotationStyle::Janggi || n.native == NotationStyle::Korean; }
bool kif_names(const NotationRules& n) { return every_kind_named(n.kif_names); }

const RecordWriter RecordWriters[] = {
    {"pgn", pgn_text, "\n", ".pgn", [](const NotationRules&) { return true; }},
    {"gib", [](const GameRecord& r, const Game& g, NotationStyle) { return write_gib(r, g); }, "\n", ".gib", numeric_moves},
    {"kif", [](const GameRecord& r, const Game& g, NotationStyle) { return write_kif(r, g, false); }, "\n", ".kifu", kif_names},
    {"ki2", [](const GameRecord& r, const Game& g, NotationStyle) { return write_kif(r, g, true); }, "\n", ".ki2u", kif_names},
    {"csa", [](const GameRecord& r, const Game& g, NotationStyle) { return write_csa(r, g); }, "/\n", ".csa",
     [](const NotationRules& n) { return every_kind_named(n.csa_names); }},
};

}  // namespace

const RecordWriter* record_writer_named(std::string_view name) {
  for (const RecordWriter& writer : RecordWriters)
    if (name == writer.name) return &writer;
  return nullptr;
}

std::vector<std::string> record_writer_names() {
  std::vector<std::string> names;
  for (const RecordWriter& writer : RecordWriters) names.emplace_back(writer.name);
  return names;
}

std::vector<std::string> record_formats_of(const Variant& variant) {
  std::vector<std::string> names;
  for (const RecordWriter& writer : RecordWriters)
    if (writer.keeps(variant.rules().notation)) names.emplace_back(writer.name);
  return names;
}

}  // namespace palace
