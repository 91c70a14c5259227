// The base of every error Palace reports to a user: what() is always one line, ready for a log,
// a terminal or an HTTP answer. Each stage derives its own type so callers can tell them apart.
#pragma once

#include <stdexcept>
#include <string>

namespace palace {

class Error : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

}  // namespace palace
