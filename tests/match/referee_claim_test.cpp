// The referee makes the claims the rules offer: engines speak none, and an arbiter declares a
// repetition drawn where the rules let a player claim it.
#include <gtest/gtest.h>

#include "game/game.h"
#include "hooks/load_variant.h"
#include "match/referee.h"
#include "test_support.h"

namespace palace::test {
namespace {

// A player that plays its moves in turn, as the referee's wire notation writes them.
class Scripted : public match::Player {
  static match::PlayerSpec named(std::string name) {
    match::PlayerSpec spec;
    spec.name = std::move(name);
    return spec;
  }

 public:
  Scripted(std::string name, std::vector<std::string> moves) : Player(named(std::move(name))), moves_(std::move(moves)) {}
  void new_game() override { next_ = 0; }
  match::Answer think(const Game&, const std::string&, const match::Clocks&) override {
    if (next_ == moves_.size()) return {"", "ran out of moves"};
    return {moves_[next_++], ""};
  }

 private:
  std::vector<std::string> moves_;
  std::size_t next_ = 0;
};

TEST(Referee, ClaimsTheRepetitionDrawTheRulesOffer) {
  const auto variant = load_variant(variant_path("chess"));
  Scripted white("white", {"g1f3", "f3g1", "g1f3", "f3g1"});
  Scripted black("black", {"g8f6", "f6g8", "g8f6", "f6g8"});
  match::Player* const players[SideCount] = {&white, &black};
  const match::GameRecord game = match::play_game(variant, Position(variant).fen(), players, {});
  EXPECT_EQ(game.moves.size(), 8u);
  EXPECT_EQ(game.result(), "1/2-1/2");
  EXPECT_EQ(game.termination, "repetition");
}

// A move the board allows but the game's history refuses loses its mover, as any illegal move does;
// the referee once asked again for ever, the game not going on. Here the king's third move back and
// forth in a row, under a shuttle rule of three.
TEST(Referee, AMoveTheHistoryRefusesLosesTheGame) {
  const auto variant = load_variant(overlay_path("chess", "ends:\n  repetition: {shuttle: 3}\n"));
  Scripted white("white", {"a1b1", "b1a1", "a1b1"});
  Scripted black("black", {"h8g6", "g6e5"});
  match::Player* const players[SideCount] = {&white, &black};
  const match::GameRecord game = match::play_game(variant, "7n/8/8/8/8/3k4/2r4P/K7 w - - 0 1", players, {});
  EXPECT_EQ(game.moves.size(), 4u);
  EXPECT_EQ(game.result(), "0-1");
  EXPECT_EQ(game.termination,
            "white made an illegal move: \"a1b1\": the king may not move back and forth between a1 and b1 3 times in a row");
}

}  // namespace
}  // namespace palace::test
