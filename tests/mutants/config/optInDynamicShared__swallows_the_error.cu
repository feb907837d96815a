// bug: ignores what cudaFuncSetAttribute returns, so a size the device cannot give looks accepted
// expect: tests
#include <climits>

#include "config/config.cuh"

namespace wb::config {

cudaError_t optInDynamicShared(const void* kernel, std::size_t bytes) {
  if (bytes > static_cast<std::size_t>(INT_MAX)) return cudaErrorInvalidValue;
  (void)cudaFuncSetAttribute(kernel, cudaFuncAttributeMaxDynamicSharedMemorySize,
                             static_cast<int>(bytes));
  return cudaSuccess;
}

}  // namespace wb::config
