// `palace uci|usi|ucci|xboard [VARIANT]`: the engine for GUIs and match tools, on stdin and stdout,
// in the protocol each family of GUIs speaks (docs/protocols.md).
#include <filesystem>
#include <iostream>

#include "cli/commands.h"
#include "protocol/cecp.h"
#include "protocol/ucci.h"
#include "protocol/uci.h"
#include "protocol/usi.h"

namespace palace::cli {

namespace {

// A variant file, or the name of one in variants/ ("shogi" for variants/shogi.yaml).
std::string variant_argument(const std::string& given, const std::string& fallback) {
  if (given.empty()) return source_file(fallback);
  if (std::filesystem::exists(given) || given.find('/') != std::string::npos || given.ends_with(".yaml")) return given;
  return source_file("variants/" + given + ".yaml");
}

template <class Engine>
void add_protocol(CLI::App& app, Action& action, const std::string& name, const std::string& description,
                  const std::string& fallback) {
  auto file = std::make_shared<std::string>();
  CLI::App* cmd = app.add_subcommand(name, description);
  cmd->add_option("VARIANT", *file, "variant file, or the name of one in variants/, played first (default: " + fallback + ")");
  cmd->callback([&action, file, fallback] {
    action = [file, fallback] {
      Engine engine({source_file("variants"), variant_argument(*file, fallback)},
                    [](const std::string& line) { std::cout << line << '\n' << std::flush; });
      engine.run(std::cin);
      return 0;
    };
  });
}

}  // namespace

void add_protocol_commands(CLI::App& app, Action& action) {
  add_protocol<protocol::UciEngine>(app, action, "uci", "Speak the UCI protocol on stdin/stdout, for GUIs and match tools",
                                    DefaultVariant);
  add_protocol<protocol::UsiEngine>(app, action, "usi", "Speak USI, the shogi GUIs' protocol, on stdin/stdout",
                                    "variants/shogi.yaml");
  add_protocol<protocol::UcciEngine>(app, action, "ucci", "Speak UCCI, the Xiangqi GUIs' protocol, on stdin/stdout",
                                     "variants/xiangqi.yaml");
  add_protocol<protocol::CecpEngine>(app, action, "xboard", "Speak CECP, the XBoard/WinBoard protocol, on stdin/stdout",
                                     "variants/chess.yaml");
  app.get_subcommand("xboard")->alias("cecp");
}

}  // namespace palace::cli
