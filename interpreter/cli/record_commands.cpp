// Game records: `palace replay FILE... [--variant VARIANT_FILE]` checks them move by move and
// `palace convert FILE --to pgn|gib --notation N` rewrites them. PGN files and Kakao Janggi .gib files
// are read; each game is reported on its own, so one bad record never hides the others.
#include <iostream>
#include <memory>
#include <optional>

#include "loader/notation_rules.h"
#include "cli/commands.h"
#include "core/text.h"
#include "core/text_file.h"
#include "hooks/load_variant.h"
#include "notation/gib.h"
#include "notation/notation.h"
#include "notation/replay.h"

namespace palace::cli {

namespace {

// A long PGN collection runs to tens of megabytes; bounded all the same (core/text_file.h).
constexpr std::size_t MaxRecordBytes = std::size_t(64) << 20;

struct RecordFile {
  std::vector<GameRecord> games;
  bool gib = false;
};

bool has_extension(const std::string& path, const std::string& extension) {
  if (path.size() < extension.size()) return false;
  std::string tail = path.substr(path.size() - extension.size());
  for (char& c : tail) c = char(std::tolower(static_cast<unsigned char>(c)));
  return tail == extension;
}

// Throws FileError or RecordError when the file cannot be read as records at all.
RecordFile read_record_file(const std::string& path) {
  RecordFile file;
  file.gib = has_extension(path, ".gib");
  file.games = read_records(read_text_file(path, MaxRecordBytes), file.gib);
  return file;
}

// Where the games' variants come from: the --variant file, or each record's tags.
class VariantSource {
 public:
  explicit VariantSource(const std::string& forced)
      : catalog_(source_file("variants")), forced_(forced.empty() ? nullptr : load_variant(forced)) {}

  std::shared_ptr<const Variant> of(GameRecord& game, bool gib) {
    auto variant = forced_ ? forced_ : catalog_.find(game, gib ? GibVariant : StandardVariant);
    apply_formation_tags(game, variant);
    return variant;
  }

 private:
  VariantCatalog catalog_;
  std::shared_ptr<const Variant> forced_;
};

int run_replay(const std::vector<std::string>& paths, const std::string& variant_file) {
  VariantSource variants(variant_file);
  int total = 0, good = 0;
  for (const std::string& path : paths) {
    RecordFile file;
    try {
      file = read_record_file(path);
    } catch (const FileError& e) {
      ++total;
      std::cout << path << ": bad: " << e.reason() << "\n";
      continue;
    } catch (const RecordError& e) {
      ++total;
      std::cout << path << ": bad: " << e.what() << "\n";
      continue;
    }
    for (std::size_t i = 0; i < file.games.size(); ++i) {
      GameRecord& game = file.games[i];
      ++total;
      std::cout << path << " game " << i + 1 << " (line " << game.line << "): ";
      try {
        const Replay replay = replay_record(game, variants.of(game, file.gib));
        good += replay.good;
        std::cout << (replay.good ? "good: " : "bad: ") << replay.game.variant().rules().name << ", " << replay.verdict
                  << "\n";
      } catch (const Error& e) {
        std::cout << "bad: " << e.what() << "\n";
      }
    }
  }
  std::cout << total << (total == 1 ? " game, " : " games, ") << good << " good, " << total - good << " bad\n";
  return good == total ? 0 : 1;
}

int run_convert(const std::string& path, const std::string& to, const std::string& notation, const std::string& variant_file) {
  VariantSource variants(variant_file);
  RecordFile file = read_record_file(path);
  int failed = 0;
  bool first = true;
  for (std::size_t i = 0; i < file.games.size(); ++i) {
    GameRecord& game = file.games[i];
    const std::string where = path + " game " + std::to_string(i + 1) + " (line " + std::to_string(game.line) + ")";
    try {
      const Replay replay = replay_record(game, variants.of(game, file.gib));
      if (replay.game.history().size() != game.moves.size() || !game.problem.empty()) {
        std::cerr << "error: " << where << ": " << replay.verdict << "\n";
        ++failed;
        continue;
      }
      if (to == "gib") {
        std::cout << (first ? "" : "\n") << write_gib(game, replay);
        first = false;
        continue;
      }
      NotationStyle style = replay.game.variant().rules().notation.native;
      if (!notation.empty()) notation_style_by_name(notation, style);  // CLI11 has checked the word
      MoveNotation(replay.game.variant()).require(style);
      Position start(replay.game.variant_ptr());
      start.set_fen(replay.game.start_fen());
      std::cout << (first ? "" : "\n")
                << write_pgn(rewrite_record(game, replay, style), start.fullmove_number(), start.side_to_move() == 1);
      first = false;
    } catch (const Error& e) {
      std::cerr << "error: " << where << ": " << e.what() << "\n";
      ++failed;
    }
  }
  return failed ? BadInput : 0;
}

}  // namespace

void add_replay_command(CLI::App& app, Action& action) {
  auto files = std::make_shared<std::vector<std::string>>();
  auto variant = std::make_shared<std::string>();
  CLI::App* cmd = app.add_subcommand(
      "replay", "Check game records (PGN, .gib): every move legal, the result as the board has it; one line a game");
  cmd->add_option("FILE", *files, "record files")->required();
  cmd->add_option("--variant", *variant, "variant YAML file for every game, over the records' [Variant] tags");
  cmd->callback([&action, files, variant] { action = [files, variant] { return run_replay(*files, *variant); }; });
}

void add_convert_command(CLI::App& app, Action& action) {
  auto file = std::make_shared<std::string>();
  auto to = std::make_shared<std::string>("pgn");
  auto notation = std::make_shared<std::string>();
  auto variant = std::make_shared<std::string>();
  CLI::App* cmd = app.add_subcommand("convert", "Rewrite a game record (PGN, .gib) as PGN in a chosen notation, or as a .gib");
  cmd->add_option("FILE", *file, "record file")->required();
  cmd->add_option("--to", *to, "the format written: pgn, or gib (Kakao Janggi's, in the Korean notation)")
      ->check(CLI::IsMember({"pgn", "gib"}));
  cmd->add_option("--notation", *notation,
                  "san, wxf, janggi, korean, iccs, chinese, chinese-traditional or uci (default: the variant's own)")
      ->check(CLI::IsMember(notation_style_names()));
  cmd->add_option("--variant", *variant, "variant YAML file for every game, over the records' [Variant] tags");
  cmd->callback([&action, file, to, notation, variant] {
    action = [file, to, notation, variant] { return run_convert(*file, *to, *notation, *variant); };
  });
}

}  // namespace palace::cli
