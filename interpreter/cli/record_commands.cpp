// Game records: `palace replay FILE... [--variant VARIANT_FILE]` checks them move by move and
// `palace convert FILE --to pgn|gib|kif|ki2|csa --notation N` rewrites them. PGN files, Kakao Janggi
// .gib files and shogi's KIF, KI2 and CSA files are read; each game is reported on its own, so one
// bad record never hides the others.
#include <iostream>
#include <memory>
#include <optional>

#include "cli/commands.h"
#include "core/text.h"
#include "core/text_file.h"
#include "hooks/load_variant.h"
#include "loader/notation_rules.h"
#include "notation/gib.h"
#include "notation/replay.h"

namespace palace::cli {

namespace {

// A long PGN collection runs to tens of megabytes; bounded all the same (core/text_file.h).
constexpr std::size_t MaxRecordBytes = std::size_t(64) << 20;

struct RecordFile {
  std::vector<GameRecord> games;
  const RecordFormat* format = nullptr;
};

// Throws FileError or RecordError when the file cannot be read as records at all.
RecordFile read_record_file(const std::string& path) {
  RecordFile file;
  const std::string bytes = read_text_file(path, MaxRecordBytes);
  file.format = &record_format(path, bytes);
  file.games = read_records(bytes, *file.format);
  return file;
}

// Where the games' variants come from: the --variant file, or each record's tags.
class VariantSource {
 public:
  explicit VariantSource(const std::string& forced)
      : catalog_(source_file("variants")), forced_(forced.empty() ? nullptr : load_variant(forced)) {}

  std::shared_ptr<const Variant> of(GameRecord& game, const RecordFormat& format) {
    auto variant = forced_ ? forced_ : catalog_.find(game, format.variant);
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
        const Replay replay = replay_record(game, variants.of(game, *file.format));
        good += replay.good;
        std::cout << (replay.good ? "good: " : "bad: ") << replay.game.variant().rules().name << ", " << replay.verdict
                  << "\n";
        for (const std::string& note : replay.notes)
          std::cout << path << " game " << i + 1 << " (line " << game.line << "): note: " << note << "\n";
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
  const RecordWriter& writer = *record_writer_named(to);  // CLI11 has checked the name
  RecordFile file = read_record_file(path);
  int failed = 0;
  bool first = true;
  for (std::size_t i = 0; i < file.games.size(); ++i) {
    GameRecord& game = file.games[i];
    const std::string where = path + " game " + std::to_string(i + 1) + " (line " + std::to_string(game.line) + ")";
    try {
      const Replay replay = replay_record(game, variants.of(game, *file.format));
      if (replay.game.history().size() != game.moves.size() || !game.problem.empty()) {
        std::cerr << "error: " << where << ": " << replay.verdict << "\n";
        ++failed;
        continue;
      }
      for (const std::string& note : replay.notes) std::cerr << "note: " << where << ": " << note << "\n";
      NotationStyle style = replay.game.variant().rules().notation.native;
      if (!notation.empty()) notation_style_by_name(notation, style);  // CLI11 has checked the word
      const std::string text = writer.write(game, replay.game, style);
      std::cout << (first ? "" : writer.between) << text;
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
      "replay", "Check game records (PGN, .gib, KIF, KI2, CSA): every move legal, the result as the board has it; one line a game");
  cmd->add_option("FILE", *files, "record files")->required();
  cmd->add_option("--variant", *variant, "variant YAML file for every game, over the records' [Variant] tags");
  cmd->callback([&action, files, variant] { action = [files, variant] { return run_replay(*files, *variant); }; });
}

void add_convert_command(CLI::App& app, Action& action) {
  auto file = std::make_shared<std::string>();
  auto to = std::make_shared<std::string>("pgn");
  auto notation = std::make_shared<std::string>();
  auto variant = std::make_shared<std::string>();
  CLI::App* cmd = app.add_subcommand(
      "convert", "Rewrite a game record (PGN, .gib, KIF, KI2, CSA) as PGN in a chosen notation, or as .gib, KIF, KI2 or CSA");
  cmd->add_option("FILE", *file, "record file")->required();
  cmd->add_option("--to", *to, "the format written: pgn, gib (Kakao Janggi's), kif, ki2 or csa")
      ->check(CLI::IsMember(record_writer_names()));
  cmd->add_option("--notation", *notation,
                  "san, wxf, janggi, korean, iccs, chinese, chinese-traditional or uci (default: the variant's own)")
      ->check(CLI::IsMember(notation_style_names()));
  cmd->add_option("--variant", *variant, "variant YAML file for every game, over the records' [Variant] tags");
  cmd->callback([&action, file, to, notation, variant] {
    action = [file, to, notation, variant] { return run_convert(*file, *to, *notation, *variant); };
  });
}

}  // namespace palace::cli
