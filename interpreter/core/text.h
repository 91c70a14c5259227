// Echoing user input inside an error message: quoted, control characters escaped, and cut, so a
// message stays one readable line whatever the input held (newlines, escape codes, megabytes).
#pragma once

#include <string>
#include <string_view>
#include <vector>

namespace palace {

// `text` in double quotes, with \n, \t, \", \\ and other control bytes as escapes, and characters
// that reorder or hide text (U+202E and its kin, C1 controls) as \uXXXX; cut to `limit`
// characters (never inside one) with "..." when longer.
std::string quote(std::string_view text, std::size_t limit = 40);

// Whether `text` holds a control byte (NUL, ESC, a newline...) or a character that reorders or
// hides the text around it: such a text cannot be printed as it is.
bool has_hidden_characters(std::string_view text);

// `text` as it is when it is one short printable word (no space, quote or control byte, at most
// 40 bytes), else quote(text): a move or key that is plain reads plain, anything else escaped.
std::string word_or_quote(std::string_view text);

// "han" -> "Han": side names start sentences and follow "it is".
std::string capitalised(std::string word);

// {"a", "b", "c"} and "or" -> "a, b or c", as a sentence lists them.
std::string listed(const std::vector<std::string>& words, std::string_view last);

}  // namespace palace
