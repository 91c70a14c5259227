#include "notation/gib.h"

#include <algorithm>
#include <array>
#include <cctype>
#include <map>

#include "core/text.h"
#include "game/explain.h"
#include "loader/rule_set.h"
#include "movegen/movegen.h"
#include "movetext/notation.h"
#include "notation/encoding.h"
#include "notation/replay.h"
#include "position/position.h"

namespace palace {

namespace {

// The .gib tags that have a PGN name; the formation tags per side, Kakao's name first.
constexpr std::pair<const char*, const char*> TagNames[] = {
    {"대회명", "Event"}, {"대국장소", "Site"}, {"대국일자", "Date"}, {"회전", "Round"},
    {"초대국자", "White"}, {"한대국자", "Black"},
};
constexpr const char* FormationTags[SideCount][2] = {{"초차림", "초포진"}, {"한차림", "한포진"}};
constexpr const char* ResultTag = "대국결과";
constexpr const char* BoardTag = "판";
constexpr const char* PliesTag = "총수";

// How a .gib's result words name the sides (the format is Janggi's: Cho moves first), and how the
// result reads in English.
constexpr const char* SideWords[SideCount][2] = {{"초", "楚"}, {"한", "漢"}};
constexpr const char* SideNames[SideCount] = {"Cho", "Han"};
// How the game was won, the first match counting: "한 시간승", "楚 불계승", "한승(5.5점)".
constexpr std::pair<const char*, const char*> HowWon[] = {
    {"시간", " on time"},       {"기권", " by resignation"}, {"불계", " by resignation"},
    {"점수", " on points"},     {"외통", " by checkmate"},   {"장군승", " by checkmate"},
    {"완승", " outright"},      {"접속", " by disconnection"}, {"점", " on points"},
};
constexpr const char* DrawWord = "무승부";
constexpr const char* WinWord = "승";
constexpr const char* LossWord = "패";
constexpr std::pair<const char*, const char*> HowDrawn[] = {{"빅장", " by bikjang"}, {"동의", " by agreement"}};

bool has(const std::string& text, const char* word) { return text.find(word) != std::string::npos; }

// The result a .gib states in words, as a PGN result and in English: "한 시간승" is 0-1, "Han wins
// on time"; "초 접속 끊김 패" is 0-1, "Cho loses by disconnection"; "무승부(빅장)" a draw by bikjang.
std::pair<std::string, std::string> result_of(std::string words) {
  while (!words.empty() && std::isspace(static_cast<unsigned char>(words.front()))) words.erase(0, 1);
  if (has(words, DrawWord)) {
    std::string text = "draw";
    for (const auto& [word, how] : HowDrawn)
      if (has(words, word)) text += how;
    return {"1/2-1/2", text};
  }
  int side = -1;
  for (int s = 0; s < SideCount && side < 0; ++s)
    for (const char* word : SideWords[s])
      if (words.rfind(word, 0) == 0) side = s;
  const bool won = has(words, WinWord), lost = !won && has(words, LossWord);
  if (side < 0 || (!won && !lost)) return {"*", ""};
  std::string how;
  for (const auto& [word, english] : HowWon)
    if (how.empty() && has(words, word)) how = english;
  const int winner = lost ? 1 - side : side;
  return {winner == 0 ? "1-0" : "0-1", std::string(SideNames[side]) + (lost ? " loses" : " wins") + how};
}

// The kind a Korean name or letter names in the notation, or NoKind.
Kind kind_named(const NotationRules& notation, const std::string& name) {
  for (std::size_t k = 0; k < notation.names.size(); ++k)
    if (notation.names[k][0] == name || notation.names[k][1] == name ||
        (name.size() == 1 && notation.letters[k] == name[0]))
      return Kind(k);
  for (const auto& [also, k] : notation.also_names)
    if (also == name) return k;
  return NoKind;
}

// Kakao's later files follow each move with a number in angle brackets ("<12>"): not a move.
bool is_annotation(const std::string& token) {
  return token.size() > 2 && token.front() == '<' && token.back() == '>' &&
         std::all_of(token.begin() + 1, token.end() - 1, [](char c) { return std::isdigit(static_cast<unsigned char>(c)); });
}

// A FEN board row from its points, '.' for an empty one: "..k......" is "2k6".
std::string fen_row(const std::string& cells) {
  std::string out;
  int empty = 0;
  for (const char c : cells) {
    if (c == '.') {
      ++empty;
      continue;
    }
    if (empty) out += std::to_string(empty);
    empty = 0;
    out += c;
  }
  if (empty) out += std::to_string(empty);
  return out;
}

// A FEN whose board field has `pieces` put on their points.
std::string with_pieces(const std::string& fen, const BoardDef& board, const std::map<Point, char>& pieces) {
  const std::size_t space = fen.find(' ');
  std::vector<std::string> grid(1);
  int count = 0;
  for (const char c : fen.substr(0, space)) {
    if (std::isdigit(static_cast<unsigned char>(c))) {
      count = count * 10 + (c - '0');
      continue;
    }
    grid.back().append(std::size_t(count), '.');
    count = 0;
    if (c == '/')
      grid.emplace_back();
    else
      grid.back() += c;
  }
  grid.back().append(std::size_t(count), '.');
  for (const auto& [s, c] : pieces) grid[std::size_t(board.ranks - 1 - board.rank_of(s))][std::size_t(board.file_of(s))] = c;
  std::string out;
  for (const std::string& cells : grid) {
    if (!out.empty()) out += '/';
    out += fen_row(cells);
  }
  return out + fen.substr(space);
}

}  // namespace

std::string gib_text(std::string_view bytes) {
  // Some writers pad files and part games with DOS's end-of-file byte and 0xff, which is a byte of
  // neither UTF-8 nor cp949 text: dropped, they part nothing else.
  std::string in;
  for (const char c : bytes)
    if (c != '\x1a' && c != '\xff') in += c;
  return utf8_text(in, {"cp949"});
}

std::vector<GameRecord> read_gib(std::string_view bytes) {
  std::vector<GameRecord> games = read_pgn(gib_text(bytes));
  for (GameRecord& game : games) {
    for (auto& [name, value] : game.tags)
      for (const auto& [gib, pgn] : TagNames)
        if (name == gib) name = pgn;
    if (const std::string* words = game.tag(ResultTag)) {
      auto [result, ending] = result_of(*words);
      if (game.result == "*") game.result = result;
      game.ending = ending;
    }
    game.moves.erase(std::remove_if(game.moves.begin(), game.moves.end(), is_annotation), game.moves.end());
  }
  return games;
}

namespace {

// The start position with each side's formation squares holding `kinds[side]` (none where empty).
std::string formation_fen(const std::shared_ptr<const Variant>& variant, const std::array<std::vector<Kind>, SideCount>& kinds) {
  const RuleSet& rules = variant->rules();
  std::map<Point, char> pieces;
  for (int s = 0; s < SideCount; ++s)
    for (std::size_t i = 0; i < kinds[s].size() && i < rules.formation_squares[s].size(); ++i) {
      const char letter = rules.pieces[std::size_t(kinds[s][i])].letter;
      pieces[rules.formation_squares[s][i]] =
          rules.sides[s].upper_case ? letter : char(std::tolower(static_cast<unsigned char>(letter)));
    }
  const std::string start = Position(variant).fen();
  return pieces.empty() ? start : with_pieces(start, rules.board, pieces);
}

}  // namespace

void apply_formation_tags(GameRecord& record, const std::shared_ptr<const Variant>& variant) {
  if (record.tag("FEN")) return;
  const RuleSet& rules = variant->rules();
  // Handicap games draw their board ([판 "차마상사1사상마차/.../車馬象3馬象車 한 접장기"]), but the
  // drawings of the files at hand do not agree with their own moves: refused, not guessed at.
  if (record.tag(BoardTag))
    throw RecordError("[" + std::string(BoardTag) + "]: a board drawing is not read (give a [FEN])");
  std::array<std::vector<Kind>, SideCount> kinds;
  for (int s = 0; s < SideCount; ++s) {
    const std::string tag = capitalised(rules.sides[s].name) + "Formation";
    const std::string* given = record.tag(tag);
    for (const char* gib : FormationTags[s])
      if (!given) given = record.tag(gib);
    if (!given) continue;
    // A formation by Palace's name, or by its pieces from file to file as a .gib spells it.
    std::vector<Kind> spelled;
    for (const std::string& c : utf8_characters(*given)) spelled.push_back(kind_named(rules.notation, c));
    std::string found;
    if (!rules.formation_squares[s].empty())
      for (const auto& [name, listed] : rules.formations)
        if (name == *given || listed == spelled) found = name, kinds[s] = listed;
    if (found.empty()) {
      std::string known;
      for (const auto& [name, listed] : rules.formations) known += (known.empty() ? "" : ", ") + name;
      throw RecordError("[" + (record.tag(tag) ? tag : std::string(FormationTags[s][0])) + " " + quote(*given) +
                        "] is none of " + rules.name + "'s formations" + (known.empty() ? "" : " (" + known + ")"));
    }
    record.set_tag(tag, found);
  }
  const std::string fen = formation_fen(variant, kinds);
  if (fen == Position(variant).fen()) return;
  record.set_tag("SetUp", "1");
  record.set_tag("FEN", fen);
}

namespace {

// The .gib words for a PGN result, where the record kept none of its own.
std::string result_words(const std::string& result) {
  if (result == "1-0") return std::string(SideWords[0][0]) + " " + WinWord;
  if (result == "0-1") return std::string(SideWords[1][0]) + " " + WinWord;
  if (result == "1/2-1/2") return DrawWord;
  return "";
}

// The move as Kakao writes it: "66마78졸장군", a pass as the notation's pass word.
std::string gib_move(Position& pos, Move m, const MoveNotation& writer) {
  const NotationRules& notation = pos.variant().rules().notation;
  if (m.is_pass()) return notation.pass_names.empty() ? "pass" : notation.pass_names.front();
  std::string text = writer.write(pos, m, NotationStyle::Korean);
  const Piece victim = pos.at(m.to());
  if (victim != NoPiece) {
    const std::string& name = notation.names[std::size_t(kind_of(victim))][opponent(pos.side_to_move())];
    text += name.empty() ? std::string(1, notation.letters[std::size_t(kind_of(victim))]) : name;
  }
  pos.do_move(m);
  if (in_check(pos) && !notation.check_words.empty()) text += notation.check_words.front();
  pos.undo_move();
  return text;
}

}  // namespace

std::string write_gib(const GameRecord& record, const Game& game) {
  const auto variant = game.variant_ptr();
  const RuleSet& rules = variant->rules();
  std::string out;
  auto put_tag = [&](const std::string& name, const std::string& value) { out += "[" + name + " \"" + value + "\"]\n"; };
  for (const auto& [gib, pgn] : TagNames)
    if (const std::string* value = record.tag(pgn)) put_tag(gib, *value);

  // The formations the start position holds, each spelled in the side's piece names.
  Position start(variant);
  start.set_fen(game.start_fen());
  std::array<std::vector<Kind>, SideCount> kinds;
  for (int s = 0; s < SideCount; ++s) {
    std::string spelled;
    for (const Point sq : rules.formation_squares[s]) {
      const Piece p = start.at(sq);
      if (p == NoPiece || side_of(p) != s) {
        kinds[s].clear();
        break;
      }
      kinds[s].push_back(kind_of(p));
      spelled += rules.notation.names[std::size_t(kind_of(p))][s];
    }
    if (!kinds[s].empty()) put_tag(FormationTags[s][0], spelled);
  }
  if (formation_fen(variant, kinds) != game.start_fen()) put_tag("FEN", game.start_fen());
  put_tag(PliesTag, std::to_string(game.history().size()));
  const std::string* words = record.tag(ResultTag);
  const std::string result = words ? *words : result_words(record.result);
  if (!result.empty()) put_tag(ResultTag, result);
  out += "\n";

  const MoveNotation writer(*variant);
  std::string line;
  int ply = 0;
  for (const Move m : game.history()) {
    const std::string word = std::to_string(++ply) + ". " + gib_move(start, m, writer);
    start.do_move(m);
    line += (line.empty() ? "" : " ") + word;
    if (ply % 6 == 0) {
      out += line + "\n";
      line.clear();
    }
  }
  if (!line.empty()) out += line + "\n";
  return out;
}

}  // namespace palace
