// Exercise keplerCachePreference (book section 5.1), solved. A kernel that
// spills registers gets the split with the most L1 that still holds its
// shared memory; one that does not gains nothing from L1 and leaves the
// default. The contract is in chapters/config/config.cuh.
#include <stdexcept>

#include "config/config.cuh"

namespace wb::config {

cudaFuncCache keplerCachePreference(std::size_t sharedBytesPerSm, bool spillsRegisters) {
  constexpr std::size_t kKB = 1024;
  if (sharedBytesPerSm > 48 * kKB) {
    throw std::invalid_argument(
        "no split of a Kepler SM's 64 KB holds more than 48 KB of shared memory");
  }
  if (!spillsRegisters) return cudaFuncCachePreferNone;
  if (sharedBytesPerSm <= 16 * kKB) return cudaFuncCachePreferL1;
  if (sharedBytesPerSm <= 32 * kKB) return cudaFuncCachePreferEqual;
  return cudaFuncCachePreferShared;
}

}  // namespace wb::config
