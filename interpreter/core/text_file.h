// Reading a file a user named, whole, without trusting it: only a regular file is read (never a
// device, pipe or directory, which may never end), and only up to a size limit, so that loading
// memory and time stay bounded whatever path is given.
#pragma once

#include <cstddef>
#include <string>

#include "core/error.h"

namespace palace {

// Rule files, scripts and saved games are a few kilobytes; a megabyte is room to spare.
constexpr std::size_t MaxTextFileBytes = std::size_t(1) << 20;

// what() is "PATH: REASON"; reason() alone serves a caller that names the file its own way.
class FileError : public Error {
 public:
  FileError(const std::string& path, const std::string& reason) : Error(path + ": " + reason), reason_(reason) {}
  const std::string& reason() const { return reason_; }

 private:
  std::string reason_;
};

// The content of the regular file at `path`. Throws FileError when it does not exist, is not a
// regular file, is larger than `limit` bytes or cannot be read.
std::string read_text_file(const std::string& path, std::size_t limit = MaxTextFileBytes);

}  // namespace palace
