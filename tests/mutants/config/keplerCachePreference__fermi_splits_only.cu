// bug: knows only Fermi's two splits: a spilling kernel that uses 16 to 32 KB gets PreferShared instead of Kepler's PreferEqual
// expect: host
#include <stdexcept>

#include "config/config.cuh"

namespace wb::config {

cudaFuncCache keplerCachePreference(std::size_t sharedBytesPerSm, bool spillsRegisters) {
  constexpr std::size_t kKB = 1024;
  if (sharedBytesPerSm > 48 * kKB) throw std::invalid_argument("more than 48 KB");
  if (!spillsRegisters) return cudaFuncCachePreferNone;
  if (sharedBytesPerSm <= 16 * kKB) return cudaFuncCachePreferL1;
  return cudaFuncCachePreferShared;
}

}  // namespace wb::config
