#include "server/random_id.h"

#include <mutex>
#include <random>

namespace palace::server {

std::string random_hex(std::size_t digits) {
  static std::mutex mutex;
  static std::mt19937_64 engine{std::random_device{}()};
  const std::lock_guard lock(mutex);
  std::string text;
  while (text.size() < digits) text += "0123456789abcdef"[engine() % 16];
  return text;
}

}  // namespace palace::server
