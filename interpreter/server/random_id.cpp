#include "server/random_id.h"

#include <sys/random.h>

#include <cerrno>
#include <cstring>
#include <vector>

#include "core/error.h"

namespace palace::server {

std::string random_hex(std::size_t digits) {
  std::vector<unsigned char> bytes((digits + 1) / 2);
  for (std::size_t got = 0; got < bytes.size();) {
    const ssize_t n = ::getrandom(bytes.data() + got, bytes.size() - got, 0);
    if (n < 0 && errno == EINTR) continue;
    if (n < 0) throw Error(std::string("no random source for an id: ") + std::strerror(errno));
    got += std::size_t(n);
  }
  std::string text;
  for (const unsigned char b : bytes) {
    text += "0123456789abcdef"[b >> 4];
    text += "0123456789abcdef"[b & 15];
  }
  text.resize(digits);
  return text;
}

}  // namespace palace::server
