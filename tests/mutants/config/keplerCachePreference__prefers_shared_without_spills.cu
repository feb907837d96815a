// bug: asks for PreferShared for a kernel that does not spill, where the default split already gives shared memory the most and no preference is the answer
// expect: host
#include <stdexcept>

#include "config/config.cuh"

namespace wb::config {

cudaFuncCache keplerCachePreference(std::size_t sharedBytesPerSm, bool spillsRegisters) {
  constexpr std::size_t kKB = 1024;
  if (sharedBytesPerSm > 48 * kKB) throw std::invalid_argument("more than 48 KB");
  if (!spillsRegisters) return cudaFuncCachePreferShared;
  if (sharedBytesPerSm <= 16 * kKB) return cudaFuncCachePreferL1;
  if (sharedBytesPerSm <= 32 * kKB) return cudaFuncCachePreferEqual;
  return cudaFuncCachePreferShared;
}

}  // namespace wb::config
