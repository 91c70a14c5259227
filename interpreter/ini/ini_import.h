// A reference-style variants.ini turned into Palace rule files, one a section (`palace import-ini`,
// rules/README.md "Importing a variants.ini"). A section whose parent is a section before it in the
// file is read with that parent's keys merged under its own; one whose parent is one of the
// reference's built-in variants imports the shipped file playing it (its `uci: {variant: NAME}`)
// and writes only what the section's keys change. A key Palace has no construct for refuses its
// section in one line, and the other sections convert on.
#pragma once

#include <functional>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "ini/ini_file.h"
#include "loader/rule_set.h"

namespace palace {

// A shipped variant file: the path an `import:` names it by, and its rules.
struct ShippedVariant {
  std::string import_path;
  RuleSet rules;
  bool has_engine = false;  // it has an `engine:` section, which a board of another size leaves out
};
// The shipped file whose wire name is `name`, or nothing.
using ShippedLookup = std::function<std::optional<ShippedVariant>(const std::string& name)>;

// A lookup in `files` (wire name: variant file), loading the file's rules when asked; `import_path`
// gives the path an `import:` names a file by.
ShippedLookup shipped_files(std::map<std::string, std::string> files,
                            std::function<std::string(const std::string& file)> import_path);

struct ImportedSection {
  std::string name;
  int line = 0;         // of its header
  std::string yaml;     // the rule file; empty when refused
  std::string refusal;  // "FILE:LINE: [NAME] KEY = VALUE: why"; empty when converted
};

// The refusal of a converted section whose rule file does not load, `why` the loader's message.
std::string load_refusal(const IniFile& file, const ImportedSection& section, const std::string& why);

// Every section of `file`, or those `wanted` names (a name no section has is refused), in file order.
std::vector<ImportedSection> import_ini(const IniFile& file, const std::vector<std::string>& wanted,
                                        const ShippedLookup& shipped);

}  // namespace palace
