// `palace status`: play moves from a position and report check and the state of the game.
#include <iostream>
#include <memory>
#include <sstream>
#include <vector>

#include "cli/commands.h"
#include "compiler/variant.h"
#include "core/text.h"
#include "game/game.h"
#include "hooks/load_variant.h"

namespace palace::cli {

namespace {

struct StatusOptions {
  PositionOptions position;
  std::vector<std::string> moves;
};

int run_status(const StatusOptions& o) {
  Game game(load_variant(o.position.file));
  if (o.position.fen) game.set_fen(*o.position.fen);
  // Moves may come as separate arguments or as one quoted, space-separated list.
  int number = 0;
  for (const std::string& arg : o.moves) {
    std::istringstream words(arg);
    for (std::string move; words >> move;) {
      ++number;
      const MoveVerdict verdict = game.play(move);
      if (!verdict.accepted) {
        std::cerr << "error: move " << number << " " << quote(move) << ": " << verdict.reason << "\n";
        return BadInput;
      }
    }
  }
  const Side to_move = game.side_to_move();
  std::cout << "fen: " << game.fen() << "\n"
            << "to move: " << game.variant().side_name(to_move) << "\n"
            << "in check: " << (game.is_in_check(to_move) ? "yes" : "no") << "\n";
  if (game.game_state().claimable != Termination::None) std::cout << "claimable: " << game.game_state().claim_text() << "\n";
  if (const std::string why = game.explanation(); !why.empty()) std::cout << "repetition: " << why << "\n";
  std::cout << game.game_state().str(game.variant()) << "\n";
  return 0;
}

}  // namespace

void add_status_command(CLI::App& app, Action& action) {
  auto o = std::make_shared<StatusOptions>();
  CLI::App* cmd = app.add_subcommand("status", "Play moves, then print check and the game's state; the state is the last line");
  add_position_options(*cmd, o->position);
  cmd->add_option("--moves", o->moves, "moves to play first, in any notation, e.g. b10c8 b1c3 pass or Hc8 Hc3");
  cmd->callback([&action, o] { action = [o] { return run_status(*o); }; });
}

}  // namespace palace::cli
