// `palace test FILE...`: runs scripted rule tests (tests/rules/README.md). A failing case is one
// line, file:line:col first, so editors and CI logs jump to it; the totals are the last line.
#include <iostream>
#include <memory>
#include <vector>

#include "cli/commands.h"
#include "game/rule_script.h"
#include "hooks/lua_host.h"

namespace palace::cli {

namespace {

// "FILE:LINE:COL: NAME: first failure; line N: next failure", each failure at its own line.
void print_failure(const CaseResult& c) {
  const SourceMark& first = c.failures.front().mark;
  std::cout << first.str() << ": " << c.name << ": " << c.failures.front().message;
  for (std::size_t i = 1; i < c.failures.size(); ++i) {
    std::cout << "; ";
    if (c.failures[i].mark.line != first.line) std::cout << "line " << c.failures[i].mark.line << ": ";
    std::cout << c.failures[i].message;
  }
  std::cout << "\n";
}

int run_tests(const std::vector<std::string>& files) {
  int passed = 0, failed = 0;
  bool malformed = false;
  // A malformed file is reported and skipped, so that one typo does not hide the other files' results.
  for (const std::string& file : files) {
    ScriptResult result;
    auto report = [&malformed](const std::exception& e) {
      std::cerr << "error: " << e.what() << "\n";
      malformed = true;
    };
    try {
      result = run_rule_script(file);
    } catch (const RuleError& e) {
      report(e);
      continue;
    } catch (const hooks::HookError& e) {  // a variant's Lua hook failing as it loads
      report(e);
      continue;
    }
    for (const CaseResult& c : result.cases)
      if (!c.passed()) print_failure(c);
    passed += result.passed();
    failed += result.failed();
  }
  std::cout << passed << " passed, " << failed << " failed\n";
  if (malformed) return BadInput;
  return failed == 0 ? 0 : 1;
}

}  // namespace

void add_test_command(CLI::App& app, Action& action) {
  auto files = std::make_shared<std::vector<std::string>>();
  CLI::App* cmd = app.add_subcommand(
      "test",
      "Run scripted rule tests: one line per failing case, then 'N passed, M failed'; exit 1 if any failed, 2 if a file is malformed");
  cmd->add_option("FILE", *files, "scripted rule test YAML files (format: tests/rules/README.md)")->required();
  cmd->callback([&action, files] { action = [files] { return run_tests(*files); }; });
}

}  // namespace palace::cli
