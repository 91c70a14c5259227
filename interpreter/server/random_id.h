// Names the server makes up for games and uploads: random hex digits, hard to guess, safe in a
// path and a URL.
#pragma once

#include <cstddef>
#include <string>

namespace palace::server {

std::string random_hex(std::size_t digits);  // safe from any thread

}  // namespace palace::server
