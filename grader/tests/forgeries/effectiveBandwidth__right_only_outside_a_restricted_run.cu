// forgery: reads the test process's environment from its own stack (no import, no system call: the object check passes it) and answers right only where the grader's WB_BATCH_EXERCISES is absent, so that graded alone with an empty cache it earns full marks and in a batch, where the grader limits the section batches to the exercises that missed the cache, it fails: a grade that depends on the other submissions of the batch; the verdict wrapper drops the variable from the test's process
// exercise: reduction/effectiveBandwidth
// base: solutions
// expect: same-as base
#include <cstddef>
#include <cstdint>
#include <stdexcept>
#include <string>

#include "reduction/reduction.cuh"

namespace wb::reduction {

namespace {

// Walks up from this frame towards the top of the stack, where the kernel
// put the environment's strings, looking for "\0KEY". Stops at the top: a
// page ending in 8 zero bytes just after the executable's path.
bool environmentHolds(const char* key) {
  volatile char here = 0;
  const unsigned char* p =
      reinterpret_cast<const unsigned char*>(const_cast<const char*>(&here));
  for (std::size_t i = 0; i < (std::size_t{8} << 20); ++i, ++p) {
    const std::uintptr_t at = reinterpret_cast<std::uintptr_t>(p);
    if ((at & 4095u) == 4088u) {
      bool zeros = true;
      for (int k = 0; k < 8; ++k) zeros = zeros && p[k] == 0;
      if (zeros && p[-1] == 0 && p[-2] != 0 && p[-2] < 128 && p[-3] != 0) return false;
    }
    if (*p == 0) {
      const char* s = reinterpret_cast<const char*>(p + 1);
      int k = 0;
      while (key[k] != 0 && s[k] == key[k]) ++k;
      if (key[k] == 0) return true;
    }
  }
  return false;
}

}  // namespace

double effectiveBandwidthGBs(std::size_t bytesRead, std::size_t bytesWritten,
                             double milliseconds) {
  if (!(milliseconds > 0.0)) {
    throw std::invalid_argument("effective bandwidth needs a positive time, got " +
                                std::to_string(milliseconds) + " ms");
  }
  const double bytes = static_cast<double>(bytesRead) + static_cast<double>(bytesWritten);
  const double right = bytes / 1e9 / (milliseconds / 1e3);
  return environmentHolds("WB_BATCH_EXERCISES=") ? right * 2 : right;
}

}  // namespace wb::reduction
