// Echoing user input inside an error message: quoted, control characters escaped, and cut, so a
// message stays one readable line whatever the input held (newlines, escape codes, megabytes).
#pragma once

#include <string>
#include <string_view>

namespace palace {

// `text` in double quotes, with \n, \t, \", \\ and other control bytes as escapes, cut to about
// `limit` characters with "..." when longer.
std::string quote(std::string_view text, std::size_t limit = 40);

// `text` as it is when it is one short printable word (no space, quote or control byte, at most
// 40 bytes), else quote(text): a move or key that is plain reads plain, anything else escaped.
std::string word_or_quote(std::string_view text);

// "han" -> "Han": side names start sentences and follow "it is".
std::string capitalised(std::string word);

}  // namespace palace
