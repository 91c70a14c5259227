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

namespace {

bool in(unsigned char c, unsigned lo, unsigned hi) { return c >= lo && c <= hi; }

// How each legacy encoding lays out its two-byte characters, and where its common ones lie: the
// symbols and the first level of characters, which everyday text is mostly made of.
struct Layout {
  const char* name;
  bool (*single)(unsigned char);  // a byte above ASCII that stands alone (half-width katakana)
  bool (*pair)(unsigned char, unsigned char);
  bool (*common)(unsigned char, unsigned char);
};

constexpr Layout Layouts[] = {
    {"gb18030", [](unsigned char) { return false; },
     [](unsigned char a, unsigned char b) { return in(a, 0x81, 0xFE) && in(b, 0x40, 0xFE) && b != 0x7F; },
     // GB2312's punctuation and full-width forms, and its level 1 (3755 characters)
     [](unsigned char a, unsigned char b) { return (in(a, 0xA1, 0xA3) || in(a, 0xB0, 0xD7)) && in(b, 0xA1, 0xFE); }},
    {"big5-hkscs", [](unsigned char) { return false; },
     [](unsigned char a, unsigned char b) { return in(a, 0x81, 0xFE) && (in(b, 0x40, 0x7E) || in(b, 0xA1, 0xFE)); },
     // punctuation and full-width forms, and level 1 (5401 characters, A440 to C67E)
     [](unsigned char a, unsigned char) { return in(a, 0xA1, 0xA3) || in(a, 0xA4, 0xC6); }},
    {"cp932", [](unsigned char a) { return in(a, 0xA1, 0xDF); },
     [](unsigned char a, unsigned char b) { return (in(a, 0x81, 0x9F) || in(a, 0xE0, 0xFC)) && in(b, 0x40, 0xFC) && b != 0x7F; },
     // punctuation, kana and JIS level 1 (88 to 98)
     [](unsigned char a, unsigned char) { return in(a, 0x81, 0x83) || in(a, 0x88, 0x98); }},
    {"euc-jp", [](unsigned char) { return false; },
     [](unsigned char a, unsigned char b) { return (in(a, 0xA1, 0xFE) || a == 0x8E) && in(b, 0xA1, 0xFE); },
     // JIS X 0208 as cp932's, in other bytes
     [](unsigned char a, unsigned char) { return in(a, 0xA1, 0xA5) || in(a, 0xB0, 0xCF); }},
    {"cp949", [](unsigned char) { return false; },
     [](unsigned char a, unsigned char b) { return in(a, 0x81, 0xFE) && in(b, 0x41, 0xFE); },
     // punctuation and the 2350 Hangul syllables of KS X 1001
     [](unsigned char a, unsigned char b) { return (in(a, 0xA1, 0xA3) || in(a, 0xB0, 0xC8)) && in(b, 0xA1, 0xFE); }},
};

// The share of `bytes`' characters above ASCII that fall among `encoding`'s common ones, in 1/1000.
int common_share(std::string_view bytes, const char* encoding) {
  const Layout* layout = nullptr;
  for (const Layout& l : Layouts)
    if (std::string_view(l.name) == encoding) layout = &l;
  if (!layout) return 0;
  int characters = 0, common = 0;
  for (std::size_t i = 0; i < bytes.size(); ++i) {
    const auto a = static_cast<unsigned char>(bytes[i]);
    if (a < 0x80) continue;
    ++characters;
    if (layout->single(a) || i + 1 == bytes.size()) continue;
    const auto b = static_cast<unsigned char>(bytes[i + 1]);
    if (!layout->pair(a, b)) continue;
    common += layout->common(a, b);
    ++i;
  }
  return characters ? common * 1000 / characters : 0;
}

}  // namespace

std::string utf8_text(std::string_view bytes, std::initializer_list<const char*> legacy) {
  constexpr std::string_view Bom = "\xEF\xBB\xBF";
  if (bytes.substr(0, Bom.size()) == Bom) bytes.remove_prefix(Bom.size());
  if (is_utf8(bytes)) return std::string(bytes);
  std::string best, out;
  int best_share = -1;
  std::size_t first_bad = 0, bad_byte = 0;
  for (const char* encoding : legacy) {
    if (!decode(bytes, encoding, out, bad_byte)) {
      if (encoding == *legacy.begin()) first_bad = bad_byte;
      continue;
    }
    const int share = common_share(bytes, encoding);
    if (share > best_share) best = std::move(out), best_share = share;
  }
  if (best_share >= 0) return best;
  std::string names = "UTF-8";
  std::size_t n = 0;
  for (const char* encoding : legacy) names += std::string(++n == legacy.size() ? " or " : ", ") + encoding;
  throw RecordError("not " + names + " text (byte " + std::to_string(first_bad) + ")");
}

}  // namespace palace
