// CECP, the XBoard/WinBoard protocol (`palace xboard`): the engine keeps the game itself, the GUI
// sends the opponent's moves (`usermove`) and the engine answers `move M` whenever its side is to
// move, unless in force mode. Moves in XBoard's coordinates ("e2e4", "P@e4"; ranks from 0 on a board
// of ten ranks); variants by their XBoard names (`uci: {xboard: NAME}`, else the UCI name). Bad
// input is answered "Error (WHY): COMMAND", an illegal move "Illegal move (WHY): MOVE".
#pragma once

#include "protocol/session.h"

namespace palace::protocol {

class CecpEngine : public Session {
 public:
  CecpEngine(SessionConfig config, Sender send) : Session(std::move(config), std::move(send), WireStyle::XBoard) {}
  ~CecpEngine() override { drop_search(); }

 protected:
  bool dispatch(const std::string& command, std::istringstream& words) override;
  void complain(const std::string& why) override;
  void refuse_overlong(const std::string& start, const std::string& why) override;
  void answer(const Position& root, Move best) override;
  void report(const Position& root, const search::Report& report) override;

 private:
  bool game_command(const std::string& command, std::istringstream& words);
  bool clock_command(const std::string& command, std::istringstream& words);
  void new_game();
  void user_move(const std::string& text);
  void take_back(int plies);
  void think();
  void drop_search();  // ends a search without playing its move

  std::mutex line_mutex_;          // a failing search complains from its own thread
  std::string line_;               // the command being answered, for the error form
  bool force_ = false;             // moves are only recorded, the engine plays neither side
  Side engine_side_ = Second;      // the side the engine plays: the second after `new`
  std::atomic<bool> discard_ = false;  // the running search's move is not to be played
  std::atomic<bool> post_ = false;  // thinking output, read by the search thread
  int depth_ = 0;                  // sd
  int move_ms_ = 0;                // st
  int moves_per_session_ = 0;      // level's first number, 0: the whole game
  int increment_ms_ = 0;           // level's third
  int base_ms_ = 0;                // level's second, until `time` says otherwise
  int clock_ms_[SideCount] = {0, 0};  // time and otim, by side
};

}  // namespace palace::protocol
