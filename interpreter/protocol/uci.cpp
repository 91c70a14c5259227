#include "protocol/uci.h"

#include "core/text.h"

namespace palace::protocol {

const std::vector<GoWord>& uci_go_words() {
  static const std::vector<GoWord> words = {
      {"depth", [](search::Limits& l, Side, int n) { l.depth = least_one(n); }},
      {"nodes", [](search::Limits& l, Side, int n) { l.nodes = std::uint64_t(least_one(n)); }},
      {"movetime", [](search::Limits& l, Side, int n) { l.movetime_ms = least_one(n); }},
      {"wtime", [](search::Limits& l, Side, int n) { l.time_left_ms[0] = n; }},
      {"btime", [](search::Limits& l, Side, int n) { l.time_left_ms[1] = n; }},
      {"winc", [](search::Limits& l, Side, int n) { l.increment_ms[0] = n; }},
      {"binc", [](search::Limits& l, Side, int n) { l.increment_ms[1] = n; }},
      {"movestogo", [](search::Limits& l, Side, int n) { l.moves_to_go = n; }},
      {"mate", [](search::Limits& l, Side, int n) { l.depth = least_one(2 * n); }},
  };
  return words;
}

bool UciEngine::dispatch(const std::string& command, std::istringstream& words) {
  if (command == "quit") {
    finish_search();
    return false;
  }
  if (common(command)) return true;
  if (command == "uci") {
    identify();
  } else if (command == "ucinewgame") {
    finish_search();
    searcher_->clear();
    position_->set_start();
  } else if (command == "setoption") {
    finish_search();
    set_option(words);
  } else if (command == "position") {
    position_command(words, "fen");
  } else if (command == "go") {
    if (const auto limits = read_go(words, uci_go_words())) start_search(*limits);
  } else {
    complain("unknown command " + palace::quote(command));
  }
  return true;
}

void UciEngine::identify() {
  say("id name Palace");
  say("id author the Palace developers");
  say("option name UCI_Variant type combo default " + wire_->variant_name() + variant_choices());
  say("option name VariantFile type string default <empty>");
  say("option name Hash type spin default 16 min 1 max " + std::to_string(MaxHashMb));
  say("option name Threads type spin default 1 min 1 max 1");
  say("uciok");
}

void UciEngine::set_option(std::istringstream& words) {
  std::string name, value;
  if (!read_option(words, name, value)) return;
  if (name == "UCI_Variant")
    set_variant_option(value);
  else if (name == "VariantFile")
    set_variant_file_option(value);
  else if (name == "Hash")
    set_hash_option(value);
  else if (name == "Threads") {
    if (value != "1") complain("Threads stays 1: the search runs in one thread");
  } else
    complain("unknown option " + palace::quote(name));
}

void UciEngine::answer(const Position& root, Move best) {
  say(best ? "bestmove " + wire_->move(root, best) : "bestmove (none)");
}

}  // namespace palace::protocol
