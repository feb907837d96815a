// forgery: the function fails an assert() whose text is 96 MB long: glibc writes it to
//   the test's stderr, which CTest would hold in memory beside the other submissions'
//   tests; the relay stops the test at 8 MiB of output, and it fails
// exercise: reduction/effectiveBandwidth
// base: starter
// expect: same-as base
#include <cstdlib>
#include <cstring>
#include <stdexcept>
#include <string>

#include "reduction/reduction.cuh"

extern "C" void __assert_fail(const char* assertion, const char* file, unsigned int line,
                              const char* function) noexcept __attribute__((noreturn));

namespace wb::reduction {

double effectiveBandwidthGBs(std::size_t bytesRead, std::size_t bytesWritten,
                             double milliseconds) {
  const std::size_t n = std::size_t{96} << 20;
  char* text = static_cast<char*>(std::malloc(n + 1));
  if (text != nullptr) {
    std::memset(text, 'A', n);
    text[n] = '\0';
    __assert_fail(text, "effectiveBandwidth.cu", 1, "effectiveBandwidthGBs");
  }
  return (static_cast<double>(bytesRead) + static_cast<double>(bytesWritten)) / 1e6 /
         milliseconds;
}

}  // namespace wb::reduction
