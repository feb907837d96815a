// bug: sets the percentage as cudaFuncAttributeMaxDynamicSharedMemorySize instead of the preferred carveout
// expect: tests
#include "config/config.cuh"

namespace wb::config {

cudaError_t preferSharedCarveout(const void* kernel, int percent) {
  if (percent < -1 || percent > 100) return cudaErrorInvalidValue;
  return cudaFuncSetAttribute(kernel, cudaFuncAttributeMaxDynamicSharedMemorySize, percent);
}

}  // namespace wb::config
