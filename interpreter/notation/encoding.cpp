#include "notation/encoding.h"

#include <iconv.h>

#include "notation/replay.h"

namespace palace {

bool is_utf8(std::string_view s) {
  for (std::size_t i = 0; i < s.size();) {
    const auto c = static_cast<unsigned char>(s[i]);
    const int extra = c < 0x80 ? 0 : (c >> 5) == 6 ? 1 : (c >> 4) == 14 ? 2 : (c >> 3) == 30 ? 3 : -1;
    if (extra < 0 || i + std::size_t(extra) >= s.size() + (extra == 0)) return false;
    for (int k = 1; k <= extra; ++k)
      if ((static_cast<unsigned char>(s[i + std::size_t(k)]) >> 6) != 2) return false;
    i += std::size_t(extra) + 1;
  }
  return true;
}

std::vector<std::string> utf8_characters(std::string_view text) {
  std::vector<std::string> out;
  for (std::size_t i = 0; i < text.size();) {
    std::size_t n = 1;
    while (i + n < text.size() && (static_cast<unsigned char>(text[i + n]) >> 6) == 2) ++n;
    out.emplace_back(text.substr(i, n));
    i += n;
  }
  return out;
}

namespace {

// `in` decoded from `encoding` into `out`; false, with the 1-based position of the first byte that
// is not of it, where it cannot be.
bool decode(std::string_view in, const char* encoding, std::string& out, std::size_t& bad_byte) {
  iconv_t cd = iconv_open("UTF-8", encoding);
  if (cd == iconv_t(-1)) throw RecordError(std::string("this system cannot decode ") + encoding);
  std::string source(in);
  out.assign(in.size() * 3 + 16, '\0');
  char* src = source.data();
  char* dst = out.data();
  std::size_t src_left = source.size(), dst_left = out.size();
  const std::size_t done = iconv(cd, &src, &src_left, &dst, &dst_left);
  iconv_close(cd);
  bad_byte = source.size() - src_left + 1;
  out.resize(out.size() - dst_left);
  return done != std::size_t(-1) && src_left == 0;
}

}  // namespace

std::string utf8_text(std::string_view bytes, const char* legacy, const char* other) {
  constexpr std::string_view Bom = "\xEF\xBB\xBF";
  if (bytes.substr(0, Bom.size()) == Bom) bytes.remove_prefix(Bom.size());
  if (is_utf8(bytes)) return std::string(bytes);
  std::string out;
  std::size_t bad_byte = 0, ignored = 0;
  if (decode(bytes, legacy, out, bad_byte) || (other && decode(bytes, other, out, ignored))) return out;
  throw RecordError(std::string("not UTF-8") + (other ? ", " : " or ") + legacy + (other ? std::string(" or ") + other : "") +
                    " text (byte " + std::to_string(bad_byte) + ")");
}

}  // namespace palace
