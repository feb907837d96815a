// bug: checks the count but never sets cudaFuncAttributeMaxDynamicSharedMemorySize, so a launch above 48 KB fails
// expect: tests
#include <climits>

#include "config/config.cuh"

namespace wb::config {

cudaError_t optInDynamicShared(const void* kernel, std::size_t bytes) {
  (void)kernel;
  if (bytes > static_cast<std::size_t>(INT_MAX)) return cudaErrorInvalidValue;
  return cudaSuccess;
}

}  // namespace wb::config
