#include "protocol/usi.h"

#include <algorithm>

#include "core/text.h"

namespace palace::protocol {

namespace {

// USI's clock words add up (byoyomi to the time left); a clock given at 0 is one, and a short one.
void add_time(search::Limits& l, Side side, int ms) { l.time_left_ms[side] = std::max(l.time_left_ms[side], 0) + ms; }

// Byoyomi is spent each move on top of the clock, so it counts as both time left and increment.
void add_byoyomi(search::Limits& l, Side mover, int ms) {
  add_time(l, mover, ms);
  l.increment_ms[mover] += ms;
}

// USI names the clocks by colour: b(lack) is sente, the first side.
const std::vector<GoWord>& usi_go_words() {
  static const std::vector<GoWord> words = {
      {"depth", [](search::Limits& l, Side, int n) { l.depth = least_one(n); }},
      {"nodes", [](search::Limits& l, Side, int n) { l.nodes = std::uint64_t(least_one(n)); }},
      {"movetime", [](search::Limits& l, Side, int n) { l.movetime_ms = least_one(n); }},
      {"btime", [](search::Limits& l, Side, int n) { add_time(l, First, n); }},
      {"wtime", [](search::Limits& l, Side, int n) { add_time(l, Second, n); }},
      {"binc", [](search::Limits& l, Side, int n) { l.increment_ms[0] += n; }},
      {"winc", [](search::Limits& l, Side, int n) { l.increment_ms[1] += n; }},
      {"byoyomi", add_byoyomi},
  };
  return words;
}

}  // namespace

bool UsiEngine::dispatch(const std::string& command, std::istringstream& words) {
  if (command == "quit") {
    finish_search();
    return false;
  }
  if (common(command)) return true;
  if (command == "usi") {
    identify();
  } else if (command == "usinewgame") {
    finish_search();
    searcher_->clear();
    position_->set_start();
  } else if (command == "gameover") {
    finish_search();
  } else if (command == "setoption") {
    finish_search();
    set_option(words);
  } else if (command == "position") {
    position_command(words, "sfen");
  } else if (command == "go") {
    if (const auto limits = read_go(words, usi_go_words())) start_search(*limits);
  } else {
    complain("unknown command " + palace::quote(command));
  }
  return true;
}

void UsiEngine::identify() {
  say("id name Palace");
  say("id author the Palace developers");
  say("option name USI_Variant type combo default " + wire_->variant_name() + variant_choices());
  say("option name VariantFile type string default <empty>");
  say("option name USI_Hash type spin default 16 min 1 max " + std::to_string(MaxHashMb));
  say("usiok");
}

void UsiEngine::set_option(std::istringstream& words) {
  std::string name, value;
  if (!read_option(words, name, value)) return;
  if (name == "USI_Variant" || name == "UCI_Variant")
    set_variant_option(value);
  else if (name == "VariantFile")
    set_variant_file_option(value);
  else if (name == "USI_Hash" || name == "Hash")
    set_hash_option(value);
  else if (name != "USI_Ponder")  // GUIs send it unasked; Palace does not ponder
    complain("unknown option " + palace::quote(name));
}

void UsiEngine::answer(const Position& root, Move best) {
  say(best ? "bestmove " + wire_->move(root, best) : "bestmove resign");
}

}  // namespace palace::protocol
