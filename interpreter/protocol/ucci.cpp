#include "protocol/ucci.h"

#include "core/text.h"

namespace palace::protocol {

namespace {

// UCCI's clock is the mover's own, and the opponent's is told apart as opp...
const std::vector<GoWord>& ucci_go_words() {
  static const std::vector<GoWord> words = {
      {"depth", [](search::Limits& l, Side, int n) { l.depth = least_one(n); }},
      {"nodes", [](search::Limits& l, Side, int n) { l.nodes = std::uint64_t(least_one(n)); }},
      {"time", [](search::Limits& l, Side us, int n) { l.time_left_ms[us] = n; }},
      {"increment", [](search::Limits& l, Side us, int n) { l.increment_ms[us] = n; }},
      {"movestogo", [](search::Limits& l, Side, int n) { l.moves_to_go = n; }},
      {"opptime", [](search::Limits& l, Side us, int n) { l.time_left_ms[opponent(us)] = n; }},
      {"oppincrement", [](search::Limits& l, Side us, int n) { l.increment_ms[opponent(us)] = n; }},
      {"oppmovestogo", [](search::Limits&, Side, int) {}},  // the time manager plans the mover's clock only
      {"draw", nullptr},  // a draw offer: Palace plays on
  };
  return words;
}

}  // namespace

bool UcciEngine::dispatch(const std::string& command, std::istringstream& words) {
  if (command == "quit") {
    finish_search();
    say("bye");
    return false;
  }
  if (common(command)) return true;
  if (command == "ucci") {
    identify();
  } else if (command == "setoption") {
    finish_search();
    set_option(words);
  } else if (command == "position") {
    banned_.clear();
    position_command(words, "fen");
  } else if (command == "banmoves") {
    ban(words);
  } else if (command == "probe") {
    // Palace keeps no opening book, and its table is the search's own: nothing is known to show.
    say("pophash");
  } else if (command == "go") {
    if (auto limits = read_go(words, ucci_go_words())) {
      limits->banned = banned_;
      start_search(*limits);
    }
  } else {
    complain("unknown command " + palace::quote(command));
  }
  return true;
}

void UcciEngine::identify() {
  say("id name Palace");
  say("id author the Palace developers");
  say("option variant type combo default " + wire_->variant_name() + variant_choices());
  say("option variantfile type string default <empty>");
  say("option hashsize type spin min 1 max " + std::to_string(MaxHashMb) + " default 16");
  say("ucciok");
}

// UCCI's `setoption NAME VALUE`, or UCI's `setoption name NAME value VALUE` as some GUIs send it.
void UcciEngine::set_option(std::istringstream& words) {
  std::string name, value;
  const auto start = words.tellg();
  words >> name;
  if (name == "name") {
    words.seekg(start);
    if (!read_option(words, name, value)) return;
  } else {
    value = rest_of(words);
  }
  if (name == "variant" || name == "UCI_Variant")
    set_variant_option(value);
  else if (name == "variantfile" || name == "VariantFile")
    set_variant_file_option(value);
  else if (name == "hashsize" || name == "Hash")
    set_hash_option(value);
  else if (name != "usebook" && name != "ponder" && name != "newgame")
    complain("unknown option " + palace::quote(name));
  if (name == "newgame") {
    searcher_->clear();
    position_->set_start();
  }
}

// banmoves M...: every move must be legal here, or none is banned.
void UcciEngine::ban(std::istringstream& words) {
  std::vector<Move> moves;
  for (std::string word; words >> word;) {
    std::string why;
    const Move m = wire_->parse_move(*position_, word, why);
    if (!m) return complain("banmoves unchanged: " + why);
    moves.push_back(m);
  }
  banned_ = std::move(moves);
}

void UcciEngine::answer(const Position& root, Move best) {
  say(best ? "bestmove " + wire_->move(root, best) : "nobestmove");
}

}  // namespace palace::protocol
