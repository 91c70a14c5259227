#include "core/text.h"

#include <algorithm>
#include <cctype>
#include <cstdio>

namespace palace {

std::string quote(std::string_view text, std::size_t limit) {
  std::string out = "\"";
  std::size_t shown = 0;
  for (const char c : text) {
    if (shown == limit) {
      out += "...";
      break;
    }
    ++shown;
    const auto byte = static_cast<unsigned char>(c);
    switch (c) {
      case '\n': out += "\\n"; break;
      case '\t': out += "\\t"; break;
      case '\r': out += "\\r"; break;
      case '"': out += "\\\""; break;
      case '\\': out += "\\\\"; break;
      default:
        if (byte < 0x20 || byte == 0x7F) {
          char escape[8];
          std::snprintf(escape, sizeof escape, "\\x%02X", byte);
          out += escape;
        } else {
          out += c;
        }
    }
  }
  return out + "\"";
}

std::string word_or_quote(std::string_view text) {
  const bool plain = !text.empty() && text.size() <= 40 && std::all_of(text.begin(), text.end(), [](char c) {
    const auto byte = static_cast<unsigned char>(c);
    return byte > 0x20 && byte != 0x7F && c != '"';
  });
  return plain ? std::string(text) : quote(text);
}

std::string capitalised(std::string word) {
  if (!word.empty()) word[0] = char(std::toupper(static_cast<unsigned char>(word[0])));
  return word;
}

}  // namespace palace
