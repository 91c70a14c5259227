#include "core/text.h"

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

}  // namespace palace
