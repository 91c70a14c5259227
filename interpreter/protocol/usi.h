// USI, the shogi GUIs' protocol (`palace usi`): UCI's shape with SFEN positions, shogi's square
// names ("7g7f", "P*5e"), the clocks named by sente (b) and gote (w), byoyomi, and `bestmove resign`
// when there is no move. `bestmove win` (an entering-king declaration) is never said: no variant
// declares a win that way.
#pragma once

#include "protocol/session.h"

namespace palace::protocol {

class UsiEngine : public Session {
 public:
  UsiEngine(SessionConfig config, Sender send) : Session(std::move(config), std::move(send), WireStyle::Usi) {}
  ~UsiEngine() override { finish_search(); }

 protected:
  bool dispatch(const std::string& command, std::istringstream& words) override;
  void complain(const std::string& why) override { say("info string " + why); }
  void answer(const Position& root, Move best) override;

 private:
  void identify();
  void set_option(std::istringstream& words);
};

}  // namespace palace::protocol
