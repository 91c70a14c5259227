// The libFuzzer entry point of one target: tests/fuzz/CMakeLists.txt builds this file once per
// target, naming its body in PALACE_FUZZ_RUN. The test suite's glob compiles it too, to nothing.
#ifdef PALACE_FUZZ_RUN

#include <cstddef>
#include <cstdint>
#include <string_view>

#include "fuzz_inputs.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  PALACE_FUZZ_RUN(std::string_view(reinterpret_cast<const char*>(data), size));
  return 0;
}

#endif
