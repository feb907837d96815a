// bug: counts 1 KB as 1000 bytes: a spilling kernel that uses 16,001 to 16,384 bytes loses the split with the most L1, and 48,001 to 49,152 bytes are refused
// expect: host
#include <stdexcept>

#include "config/config.cuh"

namespace wb::config {

cudaFuncCache keplerCachePreference(std::size_t sharedBytesPerSm, bool spillsRegisters) {
  constexpr std::size_t kKB = 1000;
  if (sharedBytesPerSm > 48 * kKB) throw std::invalid_argument("more than 48 KB");
  if (!spillsRegisters) return cudaFuncCachePreferNone;
  if (sharedBytesPerSm <= 16 * kKB) return cudaFuncCachePreferL1;
  if (sharedBytesPerSm <= 32 * kKB) return cudaFuncCachePreferEqual;
  return cudaFuncCachePreferShared;
}

}  // namespace wb::config
