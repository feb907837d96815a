#include "wb/gtest_support.h"

#include <cstdlib>

namespace wb {

std::uint64_t testSeed() {
  if (const char* fixed = std::getenv("WB_SEED")) {
    return std::strtoull(fixed, nullptr, 10);
  }
  std::random_device entropy;
  return (static_cast<std::uint64_t>(entropy()) << 32) ^ entropy();
}

std::string seedNote(std::uint64_t seed) {
  return "random inputs from seed " + std::to_string(seed) + " (rerun with WB_SEED=" +
         std::to_string(seed) + ")";
}

}  // namespace wb
