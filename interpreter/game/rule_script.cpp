#include "game/rule_script.h"

#include <algorithm>
#include <filesystem>
#include <functional>
#include <memory>
#include <optional>
#include <sstream>

#include "compiler/variant.h"
#include "core/text.h"
#include "game/game.h"
#include "hooks/load_variant.h"

namespace palace {

namespace {

// What one expectation says about the game at the case's position: "" when it holds, otherwise
// what differed. A check that tries a move tries it on a copy, so checks never see each other.
using Check = std::function<std::string(const Game&)>;

struct Expectation {
  SourceMark mark;
  Check check;
};

struct MoveText {
  std::string text;
  SourceMark mark;
};

struct Case {
  std::string name;
  SourceMark mark;
  std::optional<std::string> fen;  // replaces the file's position, moves and all
  std::vector<MoveText> moves;
  std::vector<Expectation> expectations;
};

struct Script {
  std::vector<std::shared_ptr<const Variant>> variants;  // every case runs in each
  std::string fen;  // empty: the variant's set-up
  std::vector<MoveText> moves;
  std::vector<Case> cases;
};

// A list may be written as a YAML list, as one space-separated string, or as both.
std::vector<std::pair<std::string, SourceMark>> words(const ConfigNode& node) {
  std::vector<std::pair<std::string, SourceMark>> out;
  for (const ConfigNode* item : node.items()) {
    std::istringstream in(item->as_string());
    for (std::string word; in >> word;) out.emplace_back(word, item->mark());
  }
  return out;
}

std::vector<MoveText> read_moves(const ConfigNode& node) {
  std::vector<MoveText> out;
  for (auto& [text, mark] : words(node)) out.push_back({text, mark});
  return out;
}

// Entries that may be one map or a list of maps.
std::vector<const ConfigNode*> maps(const ConfigNode& node) {
  if (node.is_map()) return {&node};
  std::vector<const ConfigNode*> out = node.items();
  for (const ConfigNode* item : out)
    if (!item->is_map()) item->fail("expected a map");
  return out;
}

std::string joined(const std::vector<std::string>& words) {
  if (words.empty()) return "nothing";
  std::string out;
  for (const std::string& w : words) out += (out.empty() ? "" : " ") + w;
  return out;
}

// "" when `got` holds exactly the words of `expected`; otherwise the difference alone, as a whole
// position's legal moves are too many to print twice.
std::string compare_sets(std::vector<std::string> expected, std::vector<std::string> got) {
  std::sort(expected.begin(), expected.end());
  std::sort(got.begin(), got.end());
  if (expected == got) return "";
  std::vector<std::string> missing, unexpected;
  std::set_difference(expected.begin(), expected.end(), got.begin(), got.end(), std::back_inserter(missing));
  std::set_difference(got.begin(), got.end(), expected.begin(), expected.end(), std::back_inserter(unexpected));
  std::string difference;
  if (!missing.empty()) difference += "missing " + joined(missing);
  if (!unexpected.empty()) difference += (difference.empty() ? "" : ", ") + ("unexpected " + joined(unexpected));
  return difference;
}


class ScriptReader {
 public:
  explicit ScriptReader(const std::string& path) : path_(path) {}

  Script read() {
    const ConfigNode root = ConfigNode::load_file(path_);
    root.expect_keys({"variant", "description", "fen", "moves", "cases"});
    Script script;
    for (const ConfigNode* file : root.at("variant").items()) script.variants.push_back(load_variant_of(*file));
    if (script.variants.empty()) root.at("variant").fail("expected a variant file or a list of them");
    variants_ = script.variants;
    if (const ConfigNode* fen = root.find("fen")) script.fen = checked_fen(*fen);
    if (const ConfigNode* moves = root.find("moves")) script.moves = read_moves(*moves);
    const ConfigNode& cases = root.at("cases");
    if (!cases.is_sequence() || cases.items().empty()) cases.fail("expected a list of cases");
    for (const ConfigNode* c : cases.items()) script.cases.push_back(read_case(*c));
    return script;
  }

 private:
  // Relative to the script, as a rule file's imports are.
  std::shared_ptr<const Variant> load_variant_of(const ConfigNode& node) const {
    namespace fs = std::filesystem;
    const fs::path file = (fs::path(path_).parent_path() / node.as_string()).lexically_normal();
    std::error_code error;
    if (!fs::is_regular_file(file, error)) node.fail("no such file " + quote(file.string(), 200));
    return load_variant(file.string());
  }

  std::string checked_fen(const ConfigNode& node) const {
    const std::string& fen = node.as_string();
    for (const auto& variant : variants_) {
      try {
        Position(variant).set_fen(fen);
      } catch (const FenError& e) {
        node.fail(e.what());
      }
    }
    return fen;
  }

  // The point's name as the boards write it ("b10"); each variant's board reads it at run time.
  std::string square(const std::string& text, const ConfigNode& node) const {
    for (const auto& variant : variants_)
      if (variant->board().parse_point(text) == NoPoint) node.fail(quote(text) + " is not a point of the board");
    return variants_.front()->board().point_name(variants_.front()->board().parse_point(text));
  }

  Case read_case(const ConfigNode& node) const {
    node.expect_keys({"name", "fen", "moves", "moves_from", "legal_moves", "accepted", "refused", "in_check", "state", "board",
                     "claimable"});
    Case c;
    c.name = node.at("name").as_string();
    c.mark = node.mark();
    if (const ConfigNode* fen = node.find("fen")) c.fen = checked_fen(*fen);
    if (const ConfigNode* moves = node.find("moves")) c.moves = read_moves(*moves);
    for (const auto& [key, value] : node.entries()) {
      if (key == "moves_from") {
        for (const ConfigNode* entry : maps(value)) c.expectations.push_back(moves_from(*entry));
      } else if (key == "legal_moves") {
        c.expectations.push_back(legal_moves(value));
      } else if (key == "accepted") {
        for (const auto& [move, mark] : words(value)) c.expectations.push_back(accepted(move, mark));
      } else if (key == "refused") {
        for (const ConfigNode* entry : maps(value)) c.expectations.push_back(refused(*entry));
      } else if (key == "in_check") {
        c.expectations.push_back(in_check(value));
      } else if (key == "state") {
        c.expectations.push_back(state(value));
      } else if (key == "board") {
        c.expectations.push_back(board_is(value));
      } else if (key == "claimable") {
        c.expectations.push_back(claimable(value));
      }
    }
    // A case that expects nothing cannot fail.
    if (c.expectations.empty()) node.fail("a case must expect something (moves_from, accepted, refused, ...)");
    return c;
  }

  Expectation moves_from(const ConfigNode& node) const {
    // Rule tests written before language 1 said `square:`; the language says point.
    if (const ConfigNode* old = node.find("square")) old->fail("language 1 writes this as `point`");
    node.expect_keys({"point", "exactly"});
    const std::string from = square(node.at("point").as_string(), node.at("point"));
    std::vector<std::string> expected;
    for (const auto& [text, mark] : words(node.at("exactly"))) {
      const std::string name = square(text, node.at("exactly"));
      if (std::find(expected.begin(), expected.end(), name) != expected.end()) node.at("exactly").fail(name + " is listed twice");
      expected.push_back(name);
    }
    const std::string label = "moves_from " + from + ": ";
    return {node.mark(), [from, expected, label](const Game& game) {
              const BoardDef& board = game.variant().board();
              std::vector<std::string> got;
              for (const Point to : game.destinations(board.parse_point(from))) got.push_back(board.point_name(to));
              const std::string difference = compare_sets(expected, got);
              return difference.empty() ? "" : label + difference;
            }};
  }

  Expectation legal_moves(const ConfigNode& node) const {
    std::vector<std::string> expected;
    for (const auto& [text, mark] : words(node)) expected.push_back(text);
    return {node.mark(), [expected](const Game& game) {
              std::vector<std::string> got;
              for (const Move m : game.legal_moves()) got.push_back(game.position().move_text(m));
              const std::string difference = compare_sets(expected, got);
              return difference.empty() ? "" : "legal_moves: " + difference;
            }};
  }

  static Expectation accepted(const std::string& move, const SourceMark& mark) {
    return {mark, [move](const Game& game) {
              Game trial = game;
              const MoveVerdict verdict = trial.play(move);
              return verdict.accepted ? "" : "accepted " + move + ": refused: " + verdict.reason;
            }};
  }

  static Expectation refused(const ConfigNode& node) {
    node.expect_keys({"move", "reason"});
    const std::string move = node.at("move").as_string();
    const std::string reason = node.at("reason").as_string();
    return {node.mark(), [move, reason](const Game& game) -> std::string {
              Game trial = game;
              const MoveVerdict verdict = trial.play(move);
              if (verdict.accepted) return "refused " + move + ": it was accepted";
              if (verdict.reason != reason)
                return "refused " + move + ": reason " + quote(verdict.reason, 200) + ", expected " + quote(reason, 200);
              if (trial.fen() != game.fen()) return "refused " + move + ": the refusal changed the position to " + trial.fen();
              return "";
            }};
  }

  static Expectation in_check(const ConfigNode& node) {
    const bool expected = node.as_bool();
    return {node.mark(), [expected](const Game& game) {
              const bool got = game.is_in_check(game.side_to_move());
              if (got == expected) return std::string();
              return "in_check: expected " + std::string(expected ? "true" : "false") + ", got " + (got ? "true" : "false");
            }};
  }

  static Expectation state(const ConfigNode& node) {
    const std::string expected = node.as_string();
    return {node.mark(), [expected](const Game& game) {
              const std::string got = game.game_state().str(game.variant());
              return got == expected ? "" : "state: expected " + quote(expected, 200) + ", got " + quote(got, 200);
            }};
  }

  // The draw the side to move may claim, as `palace status` prints it after "claimable: ", or none.
  static Expectation claimable(const ConfigNode& node) {
    const std::string expected = node.as_string();
    return {node.mark(), [expected](const Game& game) {
              const Verdict& state = game.game_state();
              const std::string got = state.claimable == Termination::None ? "none" : state.claim_text();
              return got == expected ? "" : "claimable: expected " + quote(expected, 200) + ", got " + quote(got, 200);
            }};
  }

  // The FEN's first field: where the pieces stand, without the counters.
  static Expectation board_is(const ConfigNode& node) {
    const std::string expected = node.as_string();
    return {node.mark(), [expected](const Game& game) {
              const std::string fen = game.fen();
              const std::string got = fen.substr(0, fen.find(' '));
              return got == expected ? "" : "board: expected " + expected + ", got " + got;
            }};
  }

  std::string path_;
  std::vector<std::shared_ptr<const Variant>> variants_;
};

// Plays `moves`; the first refusal becomes the case's failure, as the position it was meant to
// reach does not exist.
std::optional<CaseFailure> play(Game& game, const std::vector<MoveText>& moves) {
  for (std::size_t i = 0; i < moves.size(); ++i) {
    const MoveVerdict verdict = game.play(moves[i].text);
    if (verdict.accepted) continue;
    const std::string number = std::to_string(i + 1);
    return CaseFailure{moves[i].mark, "moves: move " + number + " " + quote(moves[i].text) + " refused: " + verdict.reason};
  }
  return std::nullopt;
}

// The file's position in one variant: its FEN, then its moves, or why those could not be played.
struct Start {
  Game game;
  std::optional<CaseFailure> failure;
};

Start file_start(const Script& script, const std::shared_ptr<const Variant>& variant) {
  Start start{Game(variant), std::nullopt};
  if (!script.fen.empty()) start.game.set_fen(script.fen);
  start.failure = play(start.game, script.moves);
  return start;
}

CaseResult run_case(const Case& c, const Start& start, const std::string& suffix) {
  CaseResult result{c.name + suffix, c.mark, {}};
  Game game = start.game;
  std::optional<CaseFailure> failure = start.failure;
  if (c.fen) {
    game = Game(game.position().variant_ptr());
    game.set_fen(*c.fen);
    failure.reset();
  }
  if (!failure) failure = play(game, c.moves);
  if (failure) {
    result.failures.push_back(*failure);
    return result;
  }
  for (const Expectation& e : c.expectations)
    if (std::string message = e.check(game); !message.empty()) result.failures.push_back({e.mark, std::move(message)});
  return result;
}

}  // namespace

int ScriptResult::passed() const {
  return int(std::count_if(cases.begin(), cases.end(), [](const CaseResult& c) { return c.passed(); }));
}

int ScriptResult::failed() const { return int(cases.size()) - passed(); }

ScriptResult run_rule_script(const std::string& path) {
  const Script script = ScriptReader(path).read();
  std::vector<Start> starts;
  for (const auto& variant : script.variants) starts.push_back(file_start(script, variant));
  ScriptResult result;
  // Case by case, so that one rule's results in every variant stand together.
  for (const Case& c : script.cases) {
    for (const Start& start : starts) {
      const std::string suffix = starts.size() > 1 ? " [" + start.game.variant().rules().name + "]" : "";
      result.cases.push_back(run_case(c, start, suffix));
    }
  }
  return result;
}

}  // namespace palace
