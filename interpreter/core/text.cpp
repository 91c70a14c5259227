#include "core/text.h"

#include <algorithm>
#include <cctype>
#include <cstdio>

namespace palace {

namespace {

bool is_continuation(unsigned char byte) { return (byte & 0xC0) == 0x80; }

// The code point of the well-formed UTF-8 sequence of 2 to 4 bytes at `text[at]`, or -1.
long code_point_at(std::string_view text, std::size_t at, std::size_t& length) {
  const auto lead = static_cast<unsigned char>(text[at]);
  length = lead >= 0xF0 ? 4 : lead >= 0xE0 ? 3 : lead >= 0xC0 ? 2 : 1;
  if (length == 1 || at + length > text.size()) return -1;
  long point = lead & (0x3F >> (length - 1));
  for (std::size_t i = 1; i < length; ++i) {
    const auto byte = static_cast<unsigned char>(text[at + i]);
    if (!is_continuation(byte)) return -1;
    point = point << 6 | (byte & 0x3F);
  }
  return point;
}

// The characters that reorder or hide the text around them (bidirectional overrides, embeddings,
// isolates and marks) and the C1 controls: printed raw, they make a message say what it does not.
bool is_hidden(long point) {
  return (point >= 0x80 && point <= 0x9F) || point == 0x061C || point == 0x200E || point == 0x200F ||
         (point >= 0x202A && point <= 0x202E) || (point >= 0x2066 && point <= 0x2069);
}

}  // namespace

bool has_hidden_characters(std::string_view text) {
  for (std::size_t at = 0; at < text.size(); ++at) {
    const auto byte = static_cast<unsigned char>(text[at]);
    std::size_t length = 1;
    if (byte < 0x20 || byte == 0x7F || (byte >= 0xC0 && is_hidden(code_point_at(text, at, length)))) return true;
  }
  return false;
}

std::string quote(std::string_view text, std::size_t limit) {
  std::string out = "\"";
  std::size_t shown = 0;
  std::size_t rest = 0;  // continuation bytes still to come of the character begun
  for (std::size_t at = 0; at < text.size(); ++at) {
    const char c = text[at];
    const auto byte = static_cast<unsigned char>(c);
    // Characters are counted, not bytes, so that the cut never falls inside one.
    if (rest > 0 && is_continuation(byte)) {
      out += c;
      --rest;
      continue;
    }
    rest = byte >= 0xF0 ? 3 : byte >= 0xE0 ? 2 : byte >= 0xC0 ? 1 : 0;
    if (shown == limit) {
      out += "...";
      break;
    }
    ++shown;
    std::size_t length = 1;
    if (const long point = byte >= 0xC0 ? code_point_at(text, at, length) : -1; is_hidden(point)) {
      char escape[12];
      std::snprintf(escape, sizeof escape, "\\u%04lX", point);
      out += escape;
      at += length - 1;
      rest = 0;
      continue;
    }
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
  }) && !has_hidden_characters(text);
  return plain ? std::string(text) : quote(text);
}

std::string capitalised(std::string word) {
  if (!word.empty()) word[0] = char(std::toupper(static_cast<unsigned char>(word[0])));
  return word;
}

std::string listed(const std::vector<std::string>& words, std::string_view last) {
  std::string out;
  for (std::size_t i = 0; i < words.size(); ++i) {
    if (i + 1 == words.size() && i > 0) {
      out += ' ';
      out += last;
      out += ' ';
    } else if (i > 0) {
      out += ", ";
    }
    out += words[i];
  }
  return out;
}

}  // namespace palace
