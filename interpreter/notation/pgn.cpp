#include "notation/pgn.h"

#include <algorithm>
#include <cctype>
#include <unordered_map>

namespace palace {

namespace {

constexpr const char* SevenTagRoster[] = {"Event", "Site", "Date", "Round", "White", "Black", "Result"};

bool same_word(std::string_view a, std::string_view b) {
  return a.size() == b.size() && std::equal(a.begin(), a.end(), b.begin(), [](char x, char y) {
           return std::tolower(static_cast<unsigned char>(x)) == std::tolower(static_cast<unsigned char>(y));
         });
}

bool is_space(char c) { return std::isspace(static_cast<unsigned char>(c)); }

// A tag's name: letters, digits and '_', as PGN says, and any byte of a UTF-8 character, for the
// names Korean and Japanese records carry.
bool is_tag_name_char(char c) {
  return std::isalnum(static_cast<unsigned char>(c)) || c == '_' || static_cast<unsigned char>(c) >= 0x80;
}

// Walks a PGN text one token at a time, counting lines for the messages.
class PgnReader {
 public:
  explicit PgnReader(std::string_view text) : text_(text) {}

  std::vector<GameRecord> run() {
    std::vector<GameRecord> games;
    GameRecord game;
    bool in_movetext = false, started = false, ended = false;  // ended: a result closed the last game
    auto start = [&] {
      if (started) return;
      game.line = line_, game.begin = at_;
      started = true;
    };
    auto finish = [&] {
      if (started) games.push_back(std::move(game));
      game = GameRecord();
      tag_at_.clear();
      started = in_movetext = false;
    };
    while (skip_space(), at_ < text_.size()) {
      const char c = text_[at_];
      if (c == '%' && (at_ == 0 || text_[at_ - 1] == '\n')) {  // an escaped line
        skip_line();
        continue;
      }
      if (c == '[') {
        ended = false;
        if (in_movetext) finish();
        start();
        read_tag(game);  // on a bad tag the game's moves are still its own, though none is read
        continue;
      }
      // After a result, text up to the next tag that opens with no move number is a footer, not a
      // game: xqbase's tools end their files with a rule of "=" and their web address.
      if (ended && !started && !std::isdigit(static_cast<unsigned char>(c))) {
        skip_line();
        continue;
      }
      start();
      in_movetext = true;
      const int opened = line_;
      if (c == '{') {
        if (!skip_until('}')) game.problem = "line " + std::to_string(opened) + ": a comment { is never closed";
        continue;
      }
      if (c == ';') {
        skip_line();
        continue;
      }
      if (c == '(') {
        if (!skip_variation()) game.problem = "line " + std::to_string(opened) + ": a variation ( is never closed";
        continue;
      }
      if (c == ')' || c == '}') {
        game.problem = "line " + std::to_string(line_) + ": " + std::string(1, c) + " closes nothing";
        ++at_;
        continue;
      }
      std::string token = read_token();
      if (token.empty()) continue;
      if (token[0] == '$') continue;  // a NAG
      if (is_result_token(token)) {
        game.result = token;
        game.terminated = true;
        finish();
        ended = true;
        continue;
      }
      // Move numbers: "12.", "12...", or glued to the move as "12.e4".
      std::size_t digits = 0;
      while (digits < token.size() && std::isdigit(static_cast<unsigned char>(token[digits]))) ++digits;
      if (digits > 0 && digits < token.size() && token[digits] == '.') {
        std::size_t dots = digits;
        while (dots < token.size() && token[dots] == '.') ++dots;
        token.erase(0, dots);
        if (token.empty()) continue;
      }
      if (game.problem.empty()) game.moves.push_back(token);
    }
    finish();
    for (std::size_t g = 0; g < games.size(); ++g) games[g].end = g + 1 < games.size() ? games[g + 1].begin : text_.size();
    return games;
  }

 private:
  void skip_space() {
    while (at_ < text_.size() && is_space(text_[at_])) advance();
  }
  void advance() {
    if (text_[at_] == '\n') ++line_;
    ++at_;
  }
  void skip_line() {
    while (at_ < text_.size() && text_[at_] != '\n') ++at_;
  }
  bool skip_until(char close) {
    while (at_ < text_.size() && text_[at_] != close) advance();
    if (at_ == text_.size()) return false;
    ++at_;
    return true;
  }
  bool skip_variation() {
    int depth = 0;
    while (at_ < text_.size()) {
      const char c = text_[at_];
      if (c == '{') {
        if (!skip_until('}')) return false;
        continue;
      }
      if (c == ';') {
        skip_line();
        continue;
      }
      advance();
      if (c == '(') ++depth;
      if (c == ')' && --depth == 0) return true;
    }
    return false;
  }
  std::string read_token() {
    const std::size_t start = at_;
    while (at_ < text_.size() && !is_space(text_[at_]) && std::string_view("[]{}();").find(text_[at_]) == std::string_view::npos)
      ++at_;
    if (at_ == start) ++at_;  // a stray delimiter
    return std::string(text_.substr(start, at_ - start));
  }
  // `[Name "value"]`, with \" and \\ escapes in the value.
  void read_tag(GameRecord& game) {
    const int line = line_;
    ++at_;
    skip_space();
    std::string name;
    while (at_ < text_.size() && is_tag_name_char(text_[at_])) name += text_[at_++];
    skip_space();
    std::string value;
    bool closed = false;
    if (at_ < text_.size() && text_[at_] == '"') {
      const std::size_t opened = at_ + 1;
      for (++at_; at_ < text_.size() && text_[at_] != '"' && text_[at_] != '\n'; ++at_) {
        if (text_[at_] == '\\' && at_ + 1 < text_.size()) ++at_;
        value += text_[at_];
      }
      if (at_ < text_.size() && text_[at_] == '"') {
        ++at_;
        skip_space();
        closed = at_ < text_.size() && text_[at_] == ']';
        if (closed) ++at_;
      }
      // Quotes left unescaped inside the value (`[Event ""Huangshan Cup" 2002"]`, as some
      // collections write): the value runs to the last `"]` of its line.
      const std::size_t line_end = std::min(text_.find('\n', opened), text_.size());
      const std::size_t last = text_.substr(0, line_end).rfind("\"]");
      if (!closed && last != std::string_view::npos && last >= opened) {
        value = std::string(text_.substr(opened, last - opened));
        at_ = last + 2;
        closed = true;
      }
    }
    if (name.empty() || !closed) {
      game.problem = "line " + std::to_string(line) + ": a tag is not [Name \"value\"]";
      skip_line();
      return;
    }
    if (same_word(name, "Result")) game.result = value;
    // As GameRecord::set_tag, a name met again (in any case) replacing its value, but found in a
    // map: a game of 80,000 tags would otherwise cost 3 billion comparisons.
    std::string key = name;
    for (char& c : key) c = char(std::tolower(static_cast<unsigned char>(c)));
    const auto [at, added] = tag_at_.emplace(std::move(key), game.tags.size());
    if (added)
      game.tags.emplace_back(name, std::move(value));
    else
      game.tags[at->second].second = std::move(value);
  }

  std::unordered_map<std::string, std::size_t> tag_at_;  // the current game's tags by lower-case name

  std::string_view text_;
  std::size_t at_ = 0;
  int line_ = 1;
};

// `[Name "value"]` and a newline, the value escaped. A name read from another format (a CSA `$KEY:`,
// a KIF header) may hold what a PGN name cannot: each such byte becomes '_', and a tag with no
// name is left out, so that what is written reads back. Appended piece by piece: GCC 12 warns
// falsely (-Wrestrict) on "[" + name + ...
void put_tag(std::string& out, const std::string& name, const std::string& value) {
  if (name.empty()) return;
  out += '[';
  for (const char c : name) out += is_tag_name_char(c) ? c : '_';
  out += " \"";
  for (const char c : value) {
    if (c == '"' || c == '\\') out += '\\';
    out += c == '\n' ? ' ' : c;
  }
  out += "\"]\n";
}

}  // namespace

const std::string* GameRecord::tag(std::string_view name) const {
  for (const auto& [n, v] : tags)
    if (same_word(n, name)) return &v;
  return nullptr;
}

void GameRecord::set_tag(const std::string& name, const std::string& value) {
  for (auto& [n, v] : tags)
    if (same_word(n, name)) {
      v = value;
      return;
    }
  tags.emplace_back(name, value);
}

bool is_result_token(std::string_view token) {
  return token == "1-0" || token == "0-1" || token == "1/2-1/2" || token == "*";
}

std::vector<GameRecord> read_pgn(std::string_view text) { return PgnReader(text).run(); }

std::string write_pgn(const GameRecord& game, int first_move, bool second_side_first) {
  // A result PGN cannot say (a tag's "2-0") would read back as a move: it is written as unknown.
  const std::string result = is_result_token(game.result) ? game.result : "*";
  std::string out;
  for (const char* name : SevenTagRoster) {
    const std::string* value = game.tag(name);
    const std::string shown = same_word(name, "Result") ? result : value ? *value : "?";
    put_tag(out, name, shown);
  }
  for (const auto& tag : game.tags)
    if (std::none_of(std::begin(SevenTagRoster), std::end(SevenTagRoster), [&](const char* r) { return same_word(r, tag.first); }))
      put_tag(out, tag.first, tag.second);
  out += "\n";

  std::string line;
  auto put = [&](const std::string& word) {
    if (!line.empty() && line.size() + 1 + word.size() > 80) {
      out += line + "\n";
      line.clear();
    }
    line += (line.empty() ? "" : " ") + word;
  };
  int number = first_move;
  for (std::size_t i = 0; i < game.moves.size(); ++i) {
    const bool second = (i % 2 == 1) != second_side_first;
    if (!second) put(std::to_string(number) + ".");
    if (second && i == 0) put(std::to_string(number) + "...");
    put(game.moves[i]);
    if (second) ++number;
  }
  put(result);
  return out + line + "\n";
}

}  // namespace palace
