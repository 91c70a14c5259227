// `palace uci [VARIANT_FILE]`: the engine for GUIs and match tools, on stdin and stdout.
#include <filesystem>
#include <iostream>

#include "cli/commands.h"
#include "protocol/uci.h"

namespace palace::cli {

void add_uci_command(CLI::App& app, Action& action) {
  auto file = std::make_shared<std::string>();
  CLI::App* cmd = app.add_subcommand("uci", "Speak the UCI protocol on stdin/stdout, for GUIs and match tools");
  cmd->add_option("VARIANT_FILE", *file, std::string("variant played first (default: ") + DefaultVariant + ")");
  cmd->callback([&action, file] {
    action = [file] {
      protocol::UciEngine engine({source_file("variants"), default_variant_file(*file)},
                                 [](const std::string& line) { std::cout << line << '\n' << std::flush; });
      engine.run(std::cin);
      return 0;
    };
  });
}

}  // namespace palace::cli
