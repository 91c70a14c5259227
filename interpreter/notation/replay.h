// Checking a game record: each move replayed with the variant's rules through the game layer, so a
// refusal comes with the game layer's reason, and the recorded result compared with how the final
// position stands. Also which variant file a record is for, from its [Variant] or [Game] tag, and
// the formats a replayed game is written back in.
#pragma once

#include <array>
#include <map>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "core/error.h"
#include "game/game.h"
#include "loader/notation_rules.h"
#include "notation/pgn.h"

namespace palace {

// What a PGN without a [Variant] tag is, by the PGN standard.
inline constexpr const char* StandardVariant = "Standard";

// A record that names no variant Palace knows, or a file that holds no readable record.
class RecordError : public Error {
 public:
  using Error::Error;
};

// The variant files of a folder, found by the names records give them: a file's `name`, its UCI
// name and its `notation: pgn:` names, compared without case; the file named exactly wins.
class VariantCatalog {
 public:
  explicit VariantCatalog(std::string folder);

  // The variant `record` is for; `fallback` names it when the record has no [Variant] or [Game]
  // tag ("Standard" for PGN, where no tag means chess). Throws RecordError for an unknown name.
  std::shared_ptr<const Variant> find(const GameRecord& record, const std::string& fallback);

 private:
  std::string folder_;
  std::vector<std::pair<std::string, std::vector<std::string>>> files_;  // path, names it answers to
  std::map<std::string, std::shared_ptr<const Variant>> loaded_;
  bool scanned_ = false;
};

struct Replay {
  explicit Replay(std::shared_ptr<const Variant> variant) : game(std::move(variant)) {}
  Game game;               // as far as the record could be played
  bool good = false;       // every move legal on the board and the result agrees with it
  std::string verdict;     // "62 moves, 1-0: checkmate" or the first problem
  // Where a rule of the game's history would have ended the game or refused a move and the record
  // goes on (a record is what an arbiter allowed, so the game is not bad for it): "move 28 (red)
  // "h9g9": black wins: perpetual chase (...); the game went on".
  std::vector<std::string> notes;
};

// A record file format: how its bytes are read, and which variant a game without a [Variant] tag
// is for (a variant answering to that name, as VariantCatalog finds it).
struct RecordFormat {
  const char* name;                         // "pgn", "gib", "kif", "csa"
  std::array<const char*, 4> extensions;    // ".kif", ".kifu", ".ki2", ".ki2u"; null where fewer
  const char* variant;                      // StandardVariant, GibVariant, ...
  std::vector<GameRecord> (*read)(std::string_view bytes);
};

// The format of the file at `path` by its extension; a file with another extension by what its
// `bytes` hold where that is unmistakable (a CSA move list, a KIF move table), else PGN.
const RecordFormat& record_format(const std::string& path, std::string_view bytes);
const RecordFormat* record_format_named(std::string_view name);

// The games of a record file's bytes in `format`. Throws RecordError when they hold no game or are
// not text of their kind.
std::vector<GameRecord> read_records(std::string_view bytes, const RecordFormat& format);

// Plays `record` from its [FEN] (or the set-up). Moves may be in any notation MoveNotation reads,
// in ICCS ("h2e2", "H2-E2") where the variant allows it and [Format "ICCS"] or a move naming rank 0
// says the record uses it, or in the notation its [Format] tag names: KIF and KI2 ("７六歩(77)",
// "▲同歩"), CSA ("+7776FU"); a KIF or CSA record's start position is read once its variant is known.
// A move the board allows is played past a ruling of the game's history (Game::play_on), with a note.
Replay replay_record(const GameRecord& record, std::shared_ptr<const Variant> variant);

// The result a finished game gives, as PGN writes it: "1-0", "0-1", "1/2-1/2"; "*" if unfinished.
std::string result_token(const Verdict& state);

// `record`'s game rewritten: moves in `style`, the variant's tags ([Variant], [FEN]/[SetUp],
// [Format] for WXF and ICCS), the original's other tags kept.
GameRecord rewrite_record(const GameRecord& record, const Game& game, NotationStyle style);

// A format a replayed game is written in, beside the readers above, so that every front end writes
// the same text: `record`'s tags and result with `game`'s moves. PGN writes the moves in `style`
// (throws Error where the variant has no such notation); the others in their own.
struct RecordWriter {
  const char* name;     // "pgn", "gib", "kif", "ki2", "csa"
  std::string (*write)(const GameRecord& record, const Game& game, NotationStyle style);
  const char* between;  // what stands between two games in one file: "/\n" in CSA, else "\n"
  const char* extension;  // of a file it writes: UTF-8 KIF is ".kifu"
  // Whether the format is one the game's players keep their records in: PGN every game's, the
  // Japanese formats where every piece has its names in them, .gib where moves are numeric.
  bool (*keeps)(const NotationRules& notation);
};
const RecordWriter* record_writer_named(std::string_view name);
std::vector<std::string> record_writer_names();
// The formats `variant`'s players keep records in, PGN first.
std::vector<std::string> record_formats_of(const Variant& variant);

}  // namespace palace
