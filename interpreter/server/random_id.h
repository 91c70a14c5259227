// Names the server makes up for games, uploads and scratch folders: hex digits from the operating
// system's random source, drawn afresh for each name, so that no name tells anything about another
// (issue 53: a generator seeded once with 32 bits gave every later id away from one).
#pragma once

#include <cstddef>
#include <string>

namespace palace::server {

// The fewest digits a name has: 128 bits.
constexpr std::size_t RandomIdDigits = 32;

// `digits` hex digits (lower case) from getrandom(2); safe from any thread. Throws Error when the
// system has no randomness to give.
std::string random_hex(std::size_t digits = RandomIdDigits);

}  // namespace palace::server
