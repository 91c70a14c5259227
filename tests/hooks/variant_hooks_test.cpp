// Hooks as variants use them: load-time hooks tabulated into the move tables, runtime hooks asked
// per move, and a misbehaving script ending with one clear line naming the script and its line.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>

#include "hooks/lua_host.h"
#include "test_support.h"

namespace palace::test {
namespace {

std::string fixture(const std::string& name) { return source_path("tests/hooks/variants/" + name + ".yaml"); }
// Scripts are named from the variant file's folder.
std::string script() { return "../rule_scripts/hostile.lua"; }

std::string load_error(const std::string& name) {
  return rule_error_of([&] { load_variant(fixture(name)); });
}

TEST(VariantHooks, CannonRuleIsAskedOnceAndTabulated) {
  const auto v = load_variant(variant_path("janggi"));
  const Kind cannon = v->rules().kind_by_name("cannon"), horse = v->rules().kind_by_name("horse");
  EXPECT_FALSE(v->may_jump(cannon, cannon));
  EXPECT_TRUE(v->may_jump(cannon, horse));
  EXPECT_FALSE(v->may_capture(cannon, cannon));
  EXPECT_TRUE(v->may_capture(cannon, horse));
  EXPECT_FALSE(v->has_move_hook(cannon));
}

TEST(VariantHooks, InfiniteLoopEndsWithTheBudget) {
  EXPECT_EQ(load_error("loops"), fixture("loops") + ":7:17: " + script() + ":3: loops: instruction budget of 1000000 exceeded");
}

TEST(VariantHooks, MemoryBombEndsWithTheCap) {
  EXPECT_EQ(load_error("eats_memory"),
            fixture("eats_memory") + ":7:17: " + script() + ":8: eats_memory: memory cap of 16777216 bytes exceeded");
}

TEST(VariantHooks, RuntimeErrorNamesTheLine) {
  EXPECT_EQ(load_error("fails"), fixture("fails") + ":7:17: " + script() + ":12: fails: attempt to index a nil value (field 'nothing')");
}

TEST(VariantHooks, AnswerOfTheWrongType) {
  EXPECT_EQ(load_error("answers_a_number"),
            fixture("answers_a_number") + ":7:17: " + script() + ":15: answers_a_number: must return true or false, not integer");
}

TEST(VariantHooks, SyntaxErrorNamesTheScriptAndLine) {
  EXPECT_EQ(load_error("syntax_error"),
            "../rule_scripts/syntax_error.lua:3: ')' expected (to close '(' at line 2) near 'end'");
}

TEST(VariantHooks, RuntimeHookFiltersMovesWithTheBoardInView) {
  Position pos(load_variant(fixture("house_rules")));
  // Han's general is on its palace centre, so Cho's soldiers may only go forward.
  const auto moves = join(legal_move_texts(pos));
  for (const char* sideways : {"a7b7", "c7b7", "c7d7", "e7d7", "e7f7", "g7f7", "g7h7", "i7h7"})
    EXPECT_EQ(moves.find(sideways), std::string::npos) << sideways;
  for (const char* forward : {"a7a6", "c7c6", "e7e6", "g7g6", "i7i6"}) EXPECT_NE(moves.find(forward), std::string::npos) << forward;
  EXPECT_EQ(perft(pos, 1), 31u - 8u);
}

TEST(VariantHooks, RuntimeHookFailureLeavesThePositionAsItWas) {
  Position pos(load_variant(fixture("loops_at_runtime")));
  const std::string fen = pos.fen();
  const auto hash = pos.state().hash;
  MoveList list;
  try {
    generate_legal(pos, list);
    FAIL() << "the looping hook returned";
  } catch (const hooks::HookError& e) {
    EXPECT_EQ(std::string(e.what()), script() + ":20: loops_at_runtime: instruction budget of 1000000 exceeded");
  }
  EXPECT_EQ(pos.fen(), fen);
  EXPECT_EQ(pos.state().hash, hash);
}

// Lua cuts chunk names to 60 characters; a checkout or install path is often longer.
TEST(VariantHooks, ErrorsFromADeepFolderNameTheScriptOnce) {
  namespace fs = std::filesystem;
  const fs::path deep = fs::path(temp_path("")) / std::string(120, 'd') / "tests" / "hooks";
  ASSERT_GT(deep.string().size(), 150u);
  fs::create_directories(deep / "variants");
  fs::create_directories(deep / "rule_scripts");
  for (const char* name : {"fails", "syntax_error"}) {
    std::ofstream out(deep / "variants" / (std::string(name) + ".yaml"));
    for (const std::string& line : file_lines(fixture(name)))
      out << (line.rfind("import:", 0) == 0 ? "import: [" + variant_path("janggi") + "]" : line) << "\n";
  }
  for (const char* name : {"hostile.lua", "syntax_error.lua"})
    fs::copy_file(source_path("tests/hooks/rule_scripts/") + name, deep / "rule_scripts" / name,
                  fs::copy_options::overwrite_existing);
  const std::string fails = (deep / "variants" / "fails.yaml").string();
  EXPECT_EQ(rule_error_of([&] { load_variant(fails); }),
            fails + ":7:17: " + script() + ":12: fails: attempt to index a nil value (field 'nothing')");
  EXPECT_EQ(rule_error_of([&] { load_variant((deep / "variants" / "syntax_error.yaml").string()); }),
            "../rule_scripts/syntax_error.lua:3: ')' expected (to close '(' at line 2) near 'end'");
}

}  // namespace
}  // namespace palace::test
