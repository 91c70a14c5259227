// Inputs that once broke Palace under a fuzzer, and the repository's hostile inputs, replayed
// through the fuzz targets' bodies in the normal build. Under PALACE_SANITIZE the sanitizers
// watch the replay as they watched the fuzzer.
#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <map>
#include <set>
#include <sstream>
#include <string>

#include "fuzz_inputs.h"

namespace palace::fuzz {
namespace {

namespace fs = std::filesystem;

std::string read(const fs::path& path) {
  std::ifstream in(path, std::ios::binary);
  std::ostringstream text;
  text << in.rdbuf();
  return text.str();
}

// Replays every file of a folder (relative to the repository) through one target's body.
int replay(const std::string& folder, const Target& target) {
  int replayed = 0;
  const fs::path dir = fs::path(PALACE_SOURCE_DIR) / folder;
  if (!fs::is_directory(dir)) return 0;
  for (const auto& entry : fs::directory_iterator(dir)) {
    SCOPED_TRACE(entry.path().string());
    EXPECT_NO_THROW(target.run(read(entry.path())));
    ++replayed;
  }
  return replayed;
}

const Target& target(std::string_view name) {
  return *std::find_if(targets.begin(), targets.end(), [&](const Target& t) { return t.name == name; });
}

// The inputs fixed after a fuzzer found them, and the repository's own hostile inputs: every one
// must end in an answer or a palace::Error through the same body the fuzzer drives.
TEST(FuzzRegressions, HostileInputsEndInAnAnswerOrAnError) {
  int replayed = 0;
  for (const Target& t : targets) replayed += replay("tests/fuzz/regressions/" + std::string(t.name), t);
  replayed += replay("tests/loader/bad", target("rule_files"));
  replayed += replay("tests/hooks/scripts", target("hook_script"));
  replayed += replay("tests/rules/fixtures", target("rule_script"));
  EXPECT_GE(replayed, 40);  // the folders above hold more; a wrong path must not pass silently
}

// The repository's records through the record target, each read as it would be by its extension
// and by another (PGN; a PGN file as .gib): whole games are rewritten and read back, broken ones
// end in an Error.
TEST(FuzzRegressions, RecordsReadBackThroughTheRecordTarget) {
  const std::map<std::string, char> reader = {{".pgn", 'p'}, {".kif", 'a'}, {".ki2", 'a'}, {".csa", 'b'}, {".gib", 'g'}};
  std::set<char> read_by;
  for (const auto& entry : fs::directory_iterator(fs::path(PALACE_SOURCE_DIR) / "tests/records")) {
    const auto found = reader.find(entry.path().extension().string());
    if (found == reader.end()) continue;
    SCOPED_TRACE(entry.path().string());
    const std::string bytes = read(entry.path());
    EXPECT_NO_THROW(target("record").run(found->second + bytes));
    EXPECT_NO_THROW(target("record").run((found->second == 'p' ? 'g' : 'p') + bytes));
    read_by.insert(found->second);
  }
  EXPECT_EQ(read_by.size(), 4u);  // every reader had a file: a wrong path must not pass silently
}

}  // namespace
}  // namespace palace::fuzz
