// bug: returns PreferShared for more than 48 KB, which no split of a Kepler SM holds, instead of refusing it
// expect: host
#include <stdexcept>

#include "config/config.cuh"

namespace wb::config {

cudaFuncCache keplerCachePreference(std::size_t sharedBytesPerSm, bool spillsRegisters) {
  constexpr std::size_t kKB = 1024;
  if (!spillsRegisters) return cudaFuncCachePreferNone;
  if (sharedBytesPerSm <= 16 * kKB) return cudaFuncCachePreferL1;
  if (sharedBytesPerSm <= 32 * kKB) return cudaFuncCachePreferEqual;
  return cudaFuncCachePreferShared;
}

}  // namespace wb::config
