// The rule language's version and what changed from the language before it: keys that moved or
// were renamed and words respelled. One table serves both the loader, whose error for an old key
// names the new one, and `palace migrate`, which rewrites an old file to the current language.
#pragma once

#include <string>

#include "loader/config_tree.h"

namespace palace {

// The `language:` a file declares; the only version there is.
constexpr int LanguageVersion = 1;

// Throws naming the new key when `node`'s key is one the older language had (`rules.check_limit`
// is now `ends.checks_given`); returns otherwise.
void reject_old_key(const ConfigNode& node);

// `text`, a rule file written in the older language (or partly so), rewritten to the current one:
// keys moved to their new sections and renamed, words respelled, and `language: 1` added. Comments
// and layout are kept, except inside an inline map (`rules: {a: 1}`) that loses keys, which is
// written anew. `display_name` names the file in errors.
std::string migrate_rule_text(const std::string& text, const std::string& display_name);

}  // namespace palace
