// `palace play [VARIANT_FILE] [--ai SIDE]`: a game at the terminal, one command a line, against a
// person or the engine. The game goes to stdout in the order it happens, so a game piped in reads
// back as a transcript; refusals go to stderr, and a piped game with any exits with BadInput. The
// prompt is shown only when a person types.
#include <unistd.h>

#include <algorithm>
#include <cctype>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iomanip>
#include <iostream>
#include <memory>
#include <optional>
#include <sstream>

#include "cli/board_view.h"
#include "cli/commands.h"
#include "compiler/variant.h"
#include "core/text.h"
#include "core/text_file.h"
#include "game/explain.h"
#include "game/game.h"
#include "hooks/load_variant.h"
#include "loader/notation_rules.h"
#include "movetext/notation.h"
#include "search/search.h"

namespace palace::cli {

namespace {

constexpr const char* Help =
    "commands:\n"
    "  b10c8, e7e8q   play a move: from-point, to-point, and a promotion letter where one is due\n"
    "  Nf3, H2+3      or in any notation records use: SAN, WXF, Chinese (炮二平五), Janggi (P73-74, 73졸74)\n"
    "  pass           pass, where the variant allows it\n"
    "  claim          claim a draw the rules offer (threefold repetition, fifty moves)\n"
    "  undo           take back the last move\n"
    "  moves [POINT]  legal moves, of the piece on POINT or all of them\n"
    "  board          draw the board again\n"
    "  fen            the position as a FEN\n"
    "  save FILE      write the game to FILE: the FEN it started from, then its moves\n"
    "  load FILE      go on with the game saved in FILE\n"
    "  help           this list\n"
    "  quit           leave the game\n";

// The engine's side of the board, when the player asked for one.
struct Opponent {
  Side side;
  search::Limits limits;
  std::unique_ptr<search::Searcher> searcher;
};

class Session {
 public:
  Session(Game game, bool colour, std::optional<Opponent> opponent, NotationStyle style)
      : game_(std::move(game)), colour_(colour), opponent_(std::move(opponent)), style_(style) {}

  // Reads commands until the game ends, the player quits or the input ends.
  int run(std::istream& in, bool prompt) {
    std::cout << "Palace: " << game_.variant().rules().name << ". Moves look like " << game_.move_example()
              << "; type help for commands.\n";
    show();
    prompt_ = prompt;
    if (over() || (answer() && over())) return 0;
    for (std::string line;;) {
      if (prompt) std::cout << game_.variant().side_name(game_.side_to_move()) << "> " << std::flush;
      if (!std::getline(in, line)) {
        std::cout << (prompt ? "\n" : "") << "end of input: the game stops unfinished\n";
        return status();
      }
      std::istringstream words(line);
      std::string command, argument, extra;
      words >> command >> argument >> extra;
      if (command.empty()) continue;
      if (!extra.empty()) {
        refuse(quote(line) + ": too many words (type help for commands)");
        continue;
      }
      if (command == "quit" || command == "exit") {
        std::cout << "bye: the game stops unfinished\n";
        return status();
      }
      if (execute(command, argument) && (over() || (answer() && over()))) return status();
    }
  }

 private:
  // Returns whether the position changed.
  bool execute(const std::string& command, const std::string& argument) {
    if (command == "help") {
      std::cout << Help;
    } else if (command == "board") {
      show();
    } else if (command == "fen") {
      std::cout << game_.fen() << "\n";
    } else if (command == "moves") {
      list_moves(argument);
    } else if (command == "save") {
      save(argument);
    } else if (command == "load") {
      return load(argument);
    } else if (command == "undo") {
      return undo();
    } else if (command == "claim") {
      return claim();
    } else if (!argument.empty()) {
      refuse(quote(command + " " + argument) + ": unknown command (type help for commands)");
    } else {
      return play(command);
    }
    return false;
  }

  bool play(const std::string& move) {
    const std::string mover = capitalised(game_.variant().side_name(game_.side_to_move()));
    Position before = game_.position();
    const std::size_t plies = game_.history().size();
    MoveVerdict verdict;
    try {
      verdict = game_.play(move);
    } catch (const Error& e) {  // a rule hook that failed once the move was made
      take_back(plies);
      verdict = {false, e.what()};
    }
    if (!verdict.accepted) {
      refuse(word_or_quote(move) + ": " + verdict.reason);  // never the raw line: it may hold escape codes
      return false;
    }
    std::cout << mover << " plays " << shown(before, game_.history().back()) << "\n";
    show();
    return true;
  }

  // Undoes the moves a failed move left made, back to the game's first `plies` moves.
  void take_back(std::size_t plies) {
    while (game_.history().size() > plies && game_.undo()) {
    }
  }

  // Against the engine, its reply is taken back too, so that it is the player's turn again.
  bool undo() {
    if (game_.history().empty()) {
      refuse("nothing to undo");
      return false;
    }
    std::string taken = game_.history_texts().back();
    game_.undo();
    if (opponent_ && game_.side_to_move() == opponent_->side && !game_.history().empty()) {
      taken = game_.history_texts().back() + " " + taken;
      game_.undo();
    }
    std::cout << "took back " << taken << "\n";
    show();
    return true;
  }

  bool claim() {
    if (!game_.claim_draw()) {
      refuse("there is no draw to claim now");
      return false;
    }
    std::cout << capitalised(game_.variant().side_name(game_.side_to_move())) << " claims the draw\n";
    return true;
  }

  // The engine plays when it is its turn. Returns whether it moved.
  bool answer() {
    if (!opponent_ || game_.side_to_move() != opponent_->side || game_.game_state().finished()) return false;
    search::Report report;
    const std::string mover = capitalised(game_.variant().side_name(game_.side_to_move()));
    Position before = game_.position();
    const std::size_t plies = game_.history().size();
    Move best;
    try {
      best = opponent_->searcher->search(game_.position(), opponent_->limits, [&](const search::Report& r) { report = r; });
      if (best) game_.play(before.move_text(best));
    } catch (const Error& e) {  // a rule hook that failed: the player may undo, or save the game
      take_back(plies);
      refuse("the engine cannot move: " + std::string(e.what()));
      return false;
    }
    if (!best) return false;
    std::cout << mover << " plays " << shown(before, best) << " (" << evaluation(mover, report) << ")\n";
    show();
    return true;
  }

  // The engine's view of the game after its search, in words: "+0.35 for Han, depth 7".
  static std::string evaluation(const std::string& mover, const search::Report& r) {
    std::ostringstream text;
    if (r.mate_in > 0)
      text << mover << " mates in " << r.mate_in;
    else if (r.mate_in < 0)
      text << mover << " is mated in " << -r.mate_in;
    else
      text << (r.score_cp >= 0 ? "+" : "-") << std::abs(r.score_cp) / 100 << "." << std::setw(2) << std::setfill('0')
           << std::abs(r.score_cp) % 100 << " for " << mover;
    text << ", depth " << r.depth;
    return text.str();
  }

  void list_moves(const std::string& point) {
    std::vector<std::string> texts;
    if (point.empty()) {
      Position here = game_.position();
      for (const Move m : game_.legal_moves()) texts.push_back(shown(here, m));
      std::sort(texts.begin(), texts.end());
    } else {
      const BoardDef& board = game_.variant().board();
      const Point from = board.parse_point(point);
      if (from == NoPoint) {
        refuse(quote(point) + " is not a point of this board");
        return;
      }
      for (const Point to : game_.destinations(from)) texts.push_back(board.point_name(to));
      std::cout << board.point_name(from) << ": ";
    }
    if (texts.empty()) std::cout << "no legal moves";
    for (std::size_t i = 0; i < texts.size(); ++i) std::cout << (i ? " " : "") << texts[i];
    std::cout << "\n";
  }

  void save(const std::string& file) {
    if (file.empty()) return refuse("save needs a file name: save FILE");
    std::ofstream out(file);
    std::string moves;
    for (const std::string& move : game_.history_texts()) moves += (moves.empty() ? "" : " ") + move;
    if (!(out << game_.start_fen() << "\n" << moves << "\n") || !out.flush()) return refuse(file + ": cannot write the file");
    std::cout << "saved to " << file << "\n";
  }

  // The first line is the FEN the game started from, the second (if any) its moves; the game goes
  // on from there with its whole history. A bad file changes nothing.
  bool load(const std::string& file) {
    if (file.empty()) {
      refuse("load needs a file name: load FILE");
      return false;
    }
    try {
      std::istringstream text(read_text_file(file));
      std::string fen, moves;
      if (!std::getline(text, fen)) throw FenError("the file is empty");
      std::getline(text, moves);
      Game next(game_.variant_ptr());
      next.set_fen(fen);
      std::istringstream words(moves);
      for (std::string move; words >> move;)
        if (const MoveVerdict verdict = next.play(move); !verdict.accepted)
          throw FenError("move " + quote(move) + ": " + verdict.reason);
      game_ = std::move(next);
    } catch (const FileError& e) {
      refuse(e.what());
      return false;
    } catch (const FenError& e) {
      refuse(file + ": " + e.what());
      return false;
    }
    std::cout << "loaded " << file << "\n";
    show();
    return true;
  }

  // The board, then whose turn it is and whether that side is in check.
  void show() {
    std::cout << draw_board(game_.position(), colour_);
    const Side side = game_.side_to_move();
    const std::string name = capitalised(game_.variant().side_name(side));
    std::cout << name << " to move" << (game_.is_in_check(side) ? ": " + name + " is in check!" : "") << "\n";
    if (const Verdict& state = game_.game_state(); state.claimable != Termination::None)
      std::cout << name << " may claim a draw (" << state.claim_text() << "): type claim\n";
    else if (const std::string why = game_.explanation(); !why.empty())
      std::cout << capitalised(why) << "\n";
  }

  // Says how the game ended, if it has.
  bool over() const {
    const Verdict& state = game_.game_state();
    if (!state.finished()) return false;
    std::cout << "game over: " << game_.verdict() << "\n";
    return true;
  }

  // Bad input: said on stderr; a piped game with any ends with BadInput.
  void refuse(const std::string& message) {
    std::cout << std::flush;
    std::cerr << message << "\n";
    refused_ = true;
  }
  int status() const { return refused_ && !prompt_ ? BadInput : 0; }

  Game game_;
  bool colour_;
  // `m`, a move of `before`, in the notation the player chose.
  std::string shown(Position& before, Move m) const { return MoveNotation(game_.variant()).write(before, m, style_); }

  std::optional<Opponent> opponent_;
  NotationStyle style_;
  bool prompt_ = false;
  bool refused_ = false;
};

struct PlayOptions {
  std::string file, ai, notation = "uci";
  int movetime_ms = 0, depth = 0;
};

int run_play(const PlayOptions& o) {
  const char* no_colour = std::getenv("NO_COLOR");
  const bool colour = isatty(STDOUT_FILENO) && !(no_colour && *no_colour);
  const auto variant = load_variant(default_variant_file(o.file));
  std::optional<Opponent> opponent;
  if (!o.ai.empty()) {
    const auto side = variant->side_name(First) == o.ai ? 0 : variant->side_name(Second) == o.ai ? 1 : -1;
    if (side < 0) {
      std::cerr << "error: --ai: no side named " << quote(o.ai) << " (" << variant->side_name(First) << ", "
                << variant->side_name(Second) << ")\n";
      return BadInput;
    }
    search::Limits limits;
    limits.depth = o.depth;
    // Without a limit the engine thinks a second a move: quick enough to play against.
    limits.movetime_ms = o.movetime_ms || o.depth ? o.movetime_ms : 1000;
    opponent = Opponent{Side(side), limits, std::make_unique<search::Searcher>(variant)};
  }
  NotationStyle style = NotationStyle::Coordinates;
  notation_style_by_name(o.notation, style);  // CLI11 has checked the word
  MoveNotation(*variant).require(style);
  Session session(Game(variant), colour, std::move(opponent), style);
  return session.run(std::cin, isatty(STDIN_FILENO));
}

}  // namespace

std::string source_file(const std::string& relative) {
  std::error_code error;
  if (std::filesystem::exists(relative, error)) return relative;
  return std::string(PALACE_SOURCE_DIR) + "/" + relative;
}

std::string default_variant_file(const std::string& given) { return given.empty() ? source_file(DefaultVariant) : given; }

void add_play_command(CLI::App& app, Action& action) {
  auto o = std::make_shared<PlayOptions>();
  CLI::App* cmd =
      app.add_subcommand("play", "Play a game at the terminal, or from moves piped in one a line; type help for commands");
  cmd->add_option("VARIANT_FILE", o->file, std::string("variant YAML file (default: ") + DefaultVariant + ")");
  cmd->add_option("--ai", o->ai, "the side the engine plays, by the variant's name for it (han, black, ...)");
  cmd->add_option("--movetime", o->movetime_ms, "the engine's time per move in milliseconds (default 1000)")
      ->check(CLI::Range(1, 86'400'000));
  cmd->add_option("--depth", o->depth, "the engine's search depth in plies")->check(CLI::Range(1, 128));
  cmd->add_option("--notation", o->notation, "how moves are shown: uci (coordinates, the default), san, wxf, janggi, korean, iccs, chinese or chinese-traditional")
      ->check(CLI::IsMember(notation_style_names()));
  cmd->callback([&action, o] { action = [o] { return run_play(*o); }; });
}

}  // namespace palace::cli
