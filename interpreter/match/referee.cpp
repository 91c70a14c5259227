#include "match/referee.h"

#include <sstream>

#include "core/text.h"
#include "game/evaluator.h"
#include "movetext/notation.h"
#include "notation/pgn.h"
#include "notation/wire.h"

namespace palace::match {

std::string GameRecord::result() const {
  if (!finished) return "*";
  if (!winner) return "1/2-1/2";
  return *winner == 0 ? "1-0" : "0-1";
}

namespace {

void lose(GameRecord& record, Side loser, const std::string& reason) {
  record.finished = true;
  record.winner = opponent(loser);
  record.termination = record.names[loser] + " " + reason;
}

// The move limit reached: counting decides where the variant counts, else it is a draw.
void adjudicate(GameRecord& record, const Position& pos) {
  if (!pos.variant().ends().get<Counting>().on) {
    record.finished = true;
    record.termination = "adjudicated: move limit";
    return;
  }
  const double a = points(pos, First), b = points(pos, Second);
  std::ostringstream text;
  text << "adjudicated by counting at the move limit, " << std::max(a, b) << " to " << std::min(a, b) << " points";
  record.termination = text.str();
  record.finished = true;
  if (a != b) record.winner = Side(a > b ? 0 : 1);
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
    // Engines speak no claims, so the referee makes the one the rules offer, as an arbiter declares
    // a repetition drawn: the search scores a claimable draw as one too.
    game.claim_draw();
    if (const Verdict& state = game.game_state(); state.finished()) {
      record.finished = true;
      record.winner = state.winner;
      record.termination = state.reason_text(game.variant());
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
    // A move the board allows may still be one the game's history refuses (a perpetual carried
    // on): the game does not go on with it, so its mover loses as for any illegal move.
    const std::string text = game.position().move_text(m);
    if (const MoveVerdict played = game.play(text); !played.accepted) {
      lose(record, mover, "made an illegal move: " + palace::quote(answer.move) + ": " + played.reason);
      return record;
    }
    record.moves.push_back(text);
  }
}

std::string pgn(const GameRecord& game, const std::shared_ptr<const Variant>& variant, int round) {
  palace::GameRecord record;
  record.set_tag("Event", "palace match");
  record.set_tag("Round", std::to_string(round));
  record.set_tag("White", game.names[0]);
  record.set_tag("Black", game.names[1]);
  record.result = game.result();
  record.set_tag("Variant", variant->rules().name);
  record.set_tag("SetUp", "1");
  record.set_tag("FEN", game.start_fen);
  record.set_tag("Termination", game.termination);
  record.set_tag("PlyCount", std::to_string(game.moves.size()));
  // The moves in the variant's own notation, as its players read records.
  const MoveNotation notation(*variant);
  const NotationStyle style = notation.native();
  if (style == NotationStyle::Wxf) record.set_tag("Format", "WXF");
  Position pos(variant);
  pos.set_fen(game.start_fen);
  const int first_move = pos.fullmove_number();
  const bool second_side_first = pos.side_to_move() == 1;
  for (const std::string& text : game.moves) {
    std::string why;
    const Move m = notation.read(pos, text, why);
    record.moves.push_back(notation.write(pos, m, style));
    pos.do_move(m);
  }
  return write_pgn(record, first_move, second_side_first) + "\n";
}

}  // namespace palace::match
