// The UCI protocol: Palace's engine for chess GUIs and match tools (`palace uci`). The session
// (protocol/session.h) holds the game and the search; this dialect reads UCI's words.
#pragma once

#include "protocol/session.h"

namespace palace::protocol {

using UciConfig = SessionConfig;

class UciEngine : public Session {
 public:
  UciEngine(UciConfig config, Sender send) : Session(std::move(config), std::move(send), WireStyle::Uci) {}
  ~UciEngine() override { finish_search(); }

 protected:
  bool dispatch(const std::string& command, std::istringstream& words) override;
  void complain(const std::string& why) override { say("info string " + why); }
  void answer(const Position& root, Move best) override;

 private:
  void identify();
  void set_option(std::istringstream& words);
};

// `go` words of UCI and of USI, which share them but for whose clock is whose and byoyomi.
const std::vector<GoWord>& uci_go_words();

}  // namespace palace::protocol
