// Record files come in the encodings of the programs that wrote them: UTF-8 (with or without a
// byte-order mark), or a legacy code page (Korean cp949 for .gib, Japanese Shift_JIS/cp932 or
// EUC-JP for KIF and CSA, Chinese GBK or Big5 for Xiangqi PGN). Decoded by the system's iconv.
#pragma once

#include <initializer_list>
#include <string>
#include <string_view>
#include <vector>

namespace palace {

// Whether `bytes` is well-formed UTF-8.
bool is_utf8(std::string_view bytes);

// The UTF-8 characters of `text`, one string each.
std::vector<std::string> utf8_characters(std::string_view text);

// `bytes` as UTF-8 without a byte-order mark: as they are when they already are UTF-8, else decoded
// from the one of `legacy` (iconv names: "gb18030", "big5-hkscs", "cp932", "euc-jp", "cp949") that
// reads them and whose common characters they fall in most often, the earlier one on a tie. A Big5
// record decodes as GBK too, into rare characters: the byte statistics tell them apart. Throws
// RecordError naming the first byte that the first encoding cannot read, when none reads them all.
std::string utf8_text(std::string_view bytes, std::initializer_list<const char*> legacy);

}  // namespace palace
