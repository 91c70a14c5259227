#include "core/text_file.h"

#include <filesystem>
#include <fstream>

namespace palace {

std::string read_text_file(const std::string& path, std::size_t limit) {
  namespace fs = std::filesystem;
  std::error_code error;
  const fs::file_status status = fs::status(path, error);  // follows links: /dev/stdin is a device
  if (status.type() == fs::file_type::not_found) throw FileError(path, "cannot open file");
  if (error) throw FileError(path, "cannot open file");
  if (status.type() == fs::file_type::directory) throw FileError(path, "cannot open file: it is a directory");
  if (status.type() != fs::file_type::regular) throw FileError(path, "cannot open file: not a regular file");
  const auto too_large = [&] {
    return FileError(path, "file is larger than the limit of " + std::to_string(limit) + " bytes");
  };
  if (fs::file_size(path, error) > limit && !error) throw too_large();

  std::ifstream in(path, std::ios::binary);
  if (!in) throw FileError(path, "cannot open file");
  // Counted while reading too, so a file that grew since it was measured is still refused.
  std::string text;
  char chunk[1 << 16];
  while (in.read(chunk, sizeof chunk) || in.gcount() > 0) {
    text.append(chunk, std::size_t(in.gcount()));
    if (text.size() > limit) throw too_large();
  }
  if (in.bad()) throw FileError(path, "cannot read file");
  return text;
}

}  // namespace palace
