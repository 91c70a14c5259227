// Helpers shared by the test suites: where things are, reading the reference vector files, and
// running the built `palace` executable as a user would.
#pragma once

#include <gtest/gtest.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <stdexcept>
#include <string>
#include <vector>

#include "compiler/variant.h"
#include "hooks/load_variant.h"
#include "loader/config_tree.h"
#include "movegen/movegen.h"
#include "position/position.h"

namespace palace::test {

// Whether this build runs under AddressSanitizer, whose shadow memory needs the whole address space.
#if defined(__SANITIZE_ADDRESS__)
inline constexpr bool UnderAddressSanitizer = true;
#else
inline constexpr bool UnderAddressSanitizer = false;
#endif

// A shell prefix that caps a command's address space at `kib`, so that a hostile input cannot take
// the machine down with the suite; none under AddressSanitizer, which cannot start under a cap and
// reports runaway allocations itself.
inline std::string address_space_cap(long kib) {
  return UnderAddressSanitizer ? "" : "ulimit -v " + std::to_string(kib) + " && ";
}

inline std::string source_path(const std::string& relative) { return std::string(PALACE_SOURCE_DIR) + "/" + relative; }
inline std::string variant_path(const std::string& name) { return source_path("variants/" + name + ".yaml"); }
inline std::string vectors_path(const std::string& file) { return std::string(PALACE_VECTORS_DIR) + "/" + file; }

// Lines of a file, comments (#) and blank lines left out.
inline std::vector<std::string> data_lines(const std::string& path) {
  std::ifstream in(path);
  std::vector<std::string> lines;
  for (std::string line; std::getline(in, line);)
    if (!line.empty() && line[0] != '#') lines.push_back(line);
  return lines;
}

inline std::string trim(const std::string& s) {
  const auto b = s.find_first_not_of(" \t\r");
  const auto e = s.find_last_not_of(" \t\r");
  return b == std::string::npos ? "" : s.substr(b, e - b + 1);
}

inline std::vector<std::string> split(const std::string& s, char sep) {
  std::vector<std::string> parts;
  std::stringstream in(s);
  for (std::string part; std::getline(in, part, sep);) parts.push_back(trim(part));
  return parts;
}

// A perft's leaf count, checking that the position is consistent after every make and unmake and
// that unmake restores the hash and the FEN; stops at the first failure.
inline std::uint64_t checked_perft(Position& pos, int depth) {
  if (depth == 0) return 1;
  MoveList list;
  generate_legal(pos, list);
  std::uint64_t nodes = 0;
  for (const Move m : list) {
    const std::uint64_t hash = pos.state().hash;
    const std::string fen = pos.fen();
    pos.do_move(m);
    EXPECT_TRUE(pos.is_consistent()) << pos.fen() << " after " << pos.move_text(m);
    nodes += checked_perft(pos, depth - 1);
    pos.undo_move();
    EXPECT_TRUE(pos.is_consistent()) << pos.fen() << " after undoing " << pos.move_text(m);
    EXPECT_EQ(pos.state().hash, hash) << pos.fen();
    EXPECT_EQ(pos.fen(), fen) << "after undoing " << pos.move_text(m);
    if (::testing::Test::HasFailure()) return nodes;
  }
  return nodes;
}

// The FenError text set_fen(fen) gives on `variant`'s set-up position, having checked that the
// failed call left the position as it was; "(accepted: FEN)" where the FEN is taken.
inline std::string fen_error_in(const std::shared_ptr<const Variant>& variant, const std::string& fen) {
  Position pos(variant);
  const std::string before = pos.fen();
  try {
    pos.set_fen(fen);
  } catch (const FenError& e) {
    EXPECT_EQ(pos.fen(), before);
    return e.what();
  }
  return "(accepted: " + pos.fen() + ")";
}

// The legal move of `pos` written `text` in coordinates, or a null Move where none is.
inline Move legal_move_named(Position& pos, const std::string& text) {
  MoveList list;
  generate_legal(pos, list);
  for (const Move m : list)
    if (pos.move_text(m) == text) return m;
  return Move();
}

// Plays the moves written in `moves`, space-separated; throws at one that is not legal.
inline void play_moves(Position& pos, const std::string& moves) {
  std::istringstream in(moves);
  for (std::string text; in >> text;) {
    const Move m = legal_move_named(pos, text);
    if (!m) throw std::invalid_argument(text + " is not legal in " + pos.fen());
    pos.do_move(m);
  }
}

// The set-up of `variant` after the moves written in `moves`.
inline Position after_moves(const std::shared_ptr<const Variant>& variant, const std::string& moves) {
  Position pos(variant);
  play_moves(pos, moves);
  return pos;
}

inline std::vector<std::string> legal_move_texts(Position& pos) {
  MoveList list;
  generate_legal(pos, list);
  std::vector<std::string> out;
  for (const Move m : list) out.push_back(pos.move_text(m));
  std::sort(out.begin(), out.end());
  return out;
}

// Test names from variant names: gtest allows no '-' in them.
struct VariantParamName {
  template <typename Info>
  std::string operator()(const Info& info) const {
    std::string name = info.param;
    std::replace(name.begin(), name.end(), '-', '_');
    return name;
  }
};

inline std::string join(const std::vector<std::string>& parts) {
  std::string out;
  for (const auto& p : parts) out += (out.empty() ? "" : " ") + p;
  return out;
}

// The message of the RuleError that f() throws, file:line:col and all, or "no error" if it returns.
template <typename F>
std::string rule_error_of(F&& f) {
  try {
    f();
  } catch (const RuleError& e) {
    return e.what();
  }
  return "no error";
}

// Every line of the file at `path`, as it is (data_lines leaves some out); none if it cannot be read.
inline std::vector<std::string> file_lines(const std::string& path) {
  std::ifstream in(path);
  std::vector<std::string> lines;
  for (std::string line; std::getline(in, line);) lines.push_back(line);
  return lines;
}

// How the names of this process's temporary files begin.
inline std::string temp_prefix() { return "palace_" + std::to_string(getpid()) + "_"; }

// A path in the temporary directory, named after the running test and its process: ctest runs
// tests side by side, and two builds' suites may run at once, so a name shared between tests or
// runs would let one overwrite another's file. A parameterised test's name holds a slash, which
// would stand for a folder that does not exist.
inline std::string temp_path(const std::string& name) {
  std::string test = testing::UnitTest::GetInstance()->current_test_info()->name();
  std::replace(test.begin(), test.end(), '/', '_');
  return testing::TempDir() + temp_prefix() + test + "_" + name;
}

// The path of a temporary variant file that imports variants/`base`.yaml and adds `sections`. It is
// temp_path("variant.yaml"), which tests of load errors name in the message they expect.
inline std::string overlay_path(const std::string& base, const std::string& sections) {
  const std::string path = temp_path("variant.yaml");
  std::ofstream(path) << "import: [" << variant_path(base) << "]\n" << sections;
  return path;
}

// Removes, once the suite has run, whatever temp_path named in this process, so that runs leave
// nothing behind in the temporary directory.
class TempPathCleanup : public testing::Environment {
 public:
  void TearDown() override {
    const std::string prefix = temp_prefix();
    std::vector<std::filesystem::path> ours;
    std::error_code ec;
    for (const auto& entry : std::filesystem::directory_iterator(testing::TempDir(), ec))
      if (entry.path().filename().string().rfind(prefix, 0) == 0) ours.push_back(entry.path());
    for (const auto& path : ours) std::filesystem::remove_all(path, ec);
  }
};
inline testing::Environment* const temp_path_cleanup = testing::AddGlobalTestEnvironment(new TempPathCleanup);

// `s` in single quotes for the shell (paths here hold none of their own). Appended piece by piece:
// GCC 12 warns falsely (-Wrestrict) on "'" + s + "'".
inline std::string shell_quoted(const std::string& s) {
  std::string q(1, '\'');
  q += s;
  q += '\'';
  return q;
}

struct PalaceRun {
  int status = -1;                 // exit status; -1 if palace did not start or did not exit normally
  std::string out;                 // what reached the pipe: standard output, unless `args` redirected
  std::vector<std::string> lines;  // `out` line by line
};

// `command` through the shell: what it printed and how it exited.
inline PalaceRun run_shell(const std::string& command) {
  PalaceRun run;
  FILE* pipe = popen(command.c_str(), "r");
  if (!pipe) return run;
  char buffer[4096];
  for (std::size_t n; (n = fread(buffer, 1, sizeof buffer, pipe)) > 0;) run.out.append(buffer, n);
  const int status = pclose(pipe);
  run.status = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
  std::istringstream text(run.out);
  for (std::string line; std::getline(text, line);) run.lines.push_back(line);
  return run;
}

// `palace ARGS` through the shell, in `directory`: by default the source directory, so that relative
// paths read as a user types them. `args` is shell text, so it may quote and redirect (2>&1, < file).
inline PalaceRun run_palace(const std::string& args, const std::string& directory = PALACE_SOURCE_DIR) {
  return run_shell("cd " + shell_quoted(directory) + " && " + shell_quoted(PALACE_BINARY) + " " + args);
}

}  // namespace palace::test
