// bug: chooses by shared memory alone: a kernel that does not spill still asks for L1, which buys it nothing
// expect: host
#include <stdexcept>

#include "config/config.cuh"

namespace wb::config {

cudaFuncCache keplerCachePreference(std::size_t sharedBytesPerSm, bool spillsRegisters) {
  constexpr std::size_t kKB = 1024;
  (void)spillsRegisters;
  if (sharedBytesPerSm > 48 * kKB) throw std::invalid_argument("more than 48 KB");
  if (sharedBytesPerSm <= 16 * kKB) return cudaFuncCachePreferL1;
  if (sharedBytesPerSm <= 32 * kKB) return cudaFuncCachePreferEqual;
  return cudaFuncCachePreferShared;
}

}  // namespace wb::config
