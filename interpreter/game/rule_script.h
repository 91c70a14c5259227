// Scripted rule tests: a YAML file names a variant and a position, then lists cases, each a few
// expectations about a Game there (legal destinations, moves accepted or refused with their
// reason, check, the state of the game, the board). The format is tests/rules/README.md.
//
// A whole file is read and checked before any case runs, so a malformed file reports one error
// with its file:line:col and never half a set of results.
#pragma once

#include <string>
#include <vector>

#include "loader/config_tree.h"

namespace palace {

// One expectation that did not hold, at the line that states it.
struct CaseFailure {
  SourceMark mark;
  std::string message;  // "moves_from b10: missing c8, unexpected d9"
};

struct CaseResult {
  std::string name;
  SourceMark mark;  // the case's first line
  std::vector<CaseFailure> failures;
  bool passed() const { return failures.empty(); }
};

struct ScriptResult {
  std::vector<CaseResult> cases;  // in the file's order
  int passed() const;
  int failed() const;
};

// Loads the script at `path` and runs every case. Throws RuleError (file:line:col: key: message)
// when the file is malformed: unknown keys, points off the board, a FEN the variant rejects, a
// variant that does not load, a case that expects nothing.
ScriptResult run_rule_script(const std::string& path);

}  // namespace palace
