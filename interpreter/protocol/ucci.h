// UCCI, the Chinese Xiangqi GUIs' protocol (`palace ucci`): UCI's shape with ICCS moves ("h2e2",
// ranks from 0), the clock of the side to move (`go time T increment I`), `banmoves` to keep moves
// from the next search, `probe`, `nobestmove` when there is no move and `bye` on quit.
#pragma once

#include "protocol/session.h"

namespace palace::protocol {

class UcciEngine : public Session {
 public:
  UcciEngine(SessionConfig config, Sender send) : Session(std::move(config), std::move(send), WireStyle::Iccs) {}
  ~UcciEngine() override { finish_search(); }

 protected:
  bool dispatch(const std::string& command, std::istringstream& words) override;
  void complain(const std::string& why) override { say("info string " + why); }
  void answer(const Position& root, Move best) override;

 private:
  void identify();
  void set_option(std::istringstream& words);
  void ban(std::istringstream& words);

  std::vector<Move> banned_;  // kept from the next search; a new position clears them
};

}  // namespace palace::protocol
