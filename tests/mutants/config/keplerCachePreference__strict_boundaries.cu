// bug: compares with < instead of <=: a spilling kernel that uses exactly 16 KB or 32 KB gets the next split, with less L1 than it could have
// expect: host
#include <stdexcept>

#include "config/config.cuh"

namespace wb::config {

cudaFuncCache keplerCachePreference(std::size_t sharedBytesPerSm, bool spillsRegisters) {
  constexpr std::size_t kKB = 1024;
  if (sharedBytesPerSm > 48 * kKB) throw std::invalid_argument("more than 48 KB");
  if (!spillsRegisters) return cudaFuncCachePreferNone;
  if (sharedBytesPerSm < 16 * kKB) return cudaFuncCachePreferL1;
  if (sharedBytesPerSm < 32 * kKB) return cudaFuncCachePreferEqual;
  return cudaFuncCachePreferShared;
}

}  // namespace wb::config
