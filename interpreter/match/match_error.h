// A match that cannot be set up as asked: a player spec, an openings file, an engine that does not
// start. One line, like every Palace error.
#pragma once

#include "core/error.h"

namespace palace::match {

class MatchError : public Error {
 public:
  using Error::Error;
};

}  // namespace palace::match
