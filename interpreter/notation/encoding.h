// Record files come in the encodings of the programs that wrote them: UTF-8 (with or without a
// byte-order mark), or a legacy code page (Korean cp949 for .gib, Japanese Shift_JIS/cp932 for KIF
// and CSA). Decoded by the system's iconv.
#pragma once

#include <string>
#include <string_view>
#include <vector>

namespace palace {

// Whether `bytes` is well-formed UTF-8.
bool is_utf8(std::string_view bytes);

// The UTF-8 characters of `text`, one string each.
std::vector<std::string> utf8_characters(std::string_view text);

// `bytes` as UTF-8 without a byte-order mark: as they are when they already are UTF-8, else decoded
// from `legacy` (an iconv name, "cp932"), else from `other` where given (older Japanese files are
// EUC-JP). Throws RecordError naming the first byte that is none of them.
std::string utf8_text(std::string_view bytes, const char* legacy, const char* other = nullptr);

}  // namespace palace
