#include "match/referee.h"

#include <sstream>

#include "game/evaluator.h"
#include "notation/wire.h"

namespace palace::match {

std::string GameRecord::result() const {
  if (kind == Termination::Kind::Draw) return "1/2-1/2";
  if (kind == Termination::Kind::Unfinished) return "*";
  return winner == 0 ? "1-0" : "0-1";
}

namespace {

void lose(GameRecord& record, Side loser, const std::string& reason) {
  record.kind = Termination::Kind::Win;
  record.winner = opponent(loser);
  record.termination = record.names[loser] + " " + reason;
}

// The move limit reached: counting decides where the variant counts, else it is a draw.
void adjudicate(GameRecord& record, const Position& pos) {
  if (!pos.variant().game_rules().counting) {
    record.kind = Termination::Kind::Draw;
    record.termination = "adjudicated: move limit";
    return;
  }
  const double a = points(pos, 0), b = points(pos, 1);
  std::ostringstream text;
  text << "adjudicated by counting at the move limit, " << std::max(a, b) << " to " << std::min(a, b) << " points";
  record.termination = text.str();
  if (a == b) {
    record.kind = Termination::Kind::Draw;
  } else {
    record.kind = Termination::Kind::Win;
    record.winner = a > b ? 0 : 1;
  }
}

}  // namespace

GameRecord play_game(const std::shared_ptr<const Variant>& variant, const std::string& start_fen,
                     Player* const players[SideCount], const RefereeSettings& settings) {
  GameRecord record;
  record.start_fen = start_fen;
  for (int s = 0; s < SideCount; ++s) {
    record.names[s] = players[s]->name();
    players[s]->new_game();
  }
  Game game(variant);
  game.set_fen(start_fen);
  const WireNotation wire(*variant);
  Clocks clocks;
  for (int s = 0; s < SideCount; ++s) {
    clocks.left_ms[s] = settings.clock.base_ms;
    clocks.increment_ms[s] = settings.clock.increment_ms;
  }
  for (;;) {
    if (const Termination& state = game.game_state(); state.finished()) {
      record.kind = state.kind;
      record.winner = state.winner;
      record.termination = state.reason_text();
      return record;
    }
    if (settings.max_plies && int(game.history().size()) >= settings.max_plies) {
      adjudicate(record, game.position());
      return record;
    }
    const Side mover = game.side_to_move();
    const Answer answer = players[mover]->think(game, start_fen, clocks);
    if (!answer.failure.empty()) {
      lose(record, mover, answer.failure);
      return record;
    }
    if (settings.clock.base_ms) {
      if (answer.used_ms > clocks.left_ms[mover]) {
        lose(record, mover, "lost on time (" + std::to_string(answer.used_ms) + " ms used, " +
                                std::to_string(clocks.left_ms[mover]) + " ms left)");
        return record;
      }
      clocks.left_ms[mover] += clocks.increment_ms[mover] - answer.used_ms;
    }
    Position pos = game.position();
    std::string why;
    const Move m = wire.parse_move(pos, answer.move, why);
    if (!m) {
      lose(record, mover, "made an illegal move: " + why);
      return record;
    }
    record.moves.push_back(game.position().move_text(m));
    game.play(record.moves.back());
  }
}

std::string pgn(const GameRecord& game, const Variant& variant, int round) {
  std::ostringstream out;
  // PGN strings escape only the quote and the backslash.
  auto tag = [&](const std::string& name, const std::string& value) {
    out << "[" << name << " \"";
    for (const char c : value) out << (c == '"' || c == '\\' ? "\\" : "") << c;
    out << "\"]\n";
  };
  tag("Event", "palace match");
  tag("Round", std::to_string(round));
  tag("White", game.names[0]);
  tag("Black", game.names[1]);
  tag("Result", game.result());
  tag("Variant", variant.rules().name);
  tag("SetUp", "1");
  tag("FEN", game.start_fen);
  tag("Termination", game.termination);
  tag("PlyCount", std::to_string(game.moves.size()));
  out << "\n";
  // Move numbers continue the FEN's: its side to move and full-move fields.
  std::istringstream fields(game.start_fen);
  std::string board, side, rights, ghost, quiet;
  int number = 1;
  fields >> board >> side >> rights >> ghost >> quiet >> number;
  std::string line;
  auto word = [&](const std::string& w) {
    if (!line.empty() && line.size() + 1 + w.size() > 79) {
      out << line << "\n";
      line.clear();
    }
    line += (line.empty() ? "" : " ") + w;
  };
  const bool second_starts = side == "b";
  for (std::size_t i = 0; i < game.moves.size(); ++i) {
    const bool first_side = (i % 2 == 0) != second_starts;
    if (first_side) word(std::to_string(number) + ".");
    else if (i == 0) word(std::to_string(number) + "...");
    word(game.moves[i]);
    if (!first_side) ++number;
  }
  word(game.result());
  out << line << "\n\n";
  return out.str();
}

}  // namespace palace::match
