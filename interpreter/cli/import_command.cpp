// `palace import-ini FILE [SECTION...] [--out DIR]`: a reference-style variants.ini turned into
// Palace rule files, one a section (interpreter/ini/). Each file written is loaded and compiled
// before it counts as converted.
#include <filesystem>
#include <fstream>
#include <iostream>
#include <memory>

#include "cli/commands.h"
#include "core/text_file.h"
#include "hooks/load_variant.h"
#include "ini/ini_import.h"
#include "notation/wire.h"

namespace palace::cli {

namespace fs = std::filesystem;

namespace {

struct ImportOptions {
  std::string file;
  std::vector<std::string> sections;
  std::string out = ".";
};

// Refusals go to stderr, one a line; each file written to stdout; the counts last. Exit 0 when a
// section converted, 1 when none did, 2 (BadInput) when the file cannot be read at all.
int run_import(const ImportOptions& o) {
  const IniFile ini = read_ini(read_text_file(o.file), fs::path(o.file).filename().string());
  fs::create_directories(o.out);
  const fs::path out = fs::absolute(o.out);
  std::map<std::string, std::string> shipped;
  for (const WireEntry& e : wire_catalogue(source_file("variants"))) shipped.emplace(e.name, e.file);
  const ShippedLookup lookup = shipped_files(std::move(shipped), [&](const std::string& file) {
    return fs::absolute(file).lexically_normal().lexically_relative(out).string();
  });
  int converted = 0, refused = 0;
  for (const ImportedSection& s : import_ini(ini, o.sections, lookup)) {
    std::string refusal = s.refusal;
    const fs::path path = out / (s.name + ".yaml");
    if (refusal.empty()) {
      std::ofstream(path) << s.yaml;
      try {
        load_variant(path.string());
      } catch (const Error& e) {
        refusal = load_refusal(ini, s, e.what());
        fs::remove(path);
      }
    }
    if (refusal.empty()) {
      ++converted;
      std::cout << "wrote " << (fs::path(o.out) / (s.name + ".yaml")).string() << "\n";
    } else {
      ++refused;
      std::cerr << refusal << "\n";
    }
  }
  std::cout << converted + refused << " sections, " << converted << " converted, " << refused << " refused\n";
  return converted ? 0 : 1;
}

}  // namespace

void add_import_command(CLI::App& app, Action& action) {
  auto o = std::make_shared<ImportOptions>();
  CLI::App* cmd = app.add_subcommand("import-ini", "Turn a reference-style variants.ini into Palace rule files, one a section");
  cmd->add_option("FILE", o->file, "the variants.ini")->required();
  cmd->add_option("SECTION", o->sections, "sections to convert (default: all)");
  cmd->add_option("--out", o->out, "folder the files are written to (default: the current one)");
  cmd->callback([o, &action] { action = [o] { return run_import(*o); }; });
}

}  // namespace palace::cli
