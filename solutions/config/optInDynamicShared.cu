// Book 5.1: more than 48 KB. A launch may ask for more than 48 KB of dynamic
// shared memory only after the kernel has opted in to that amount; without
// it the launch fails with cudaErrorInvalidValue.
#include <climits>

#include "config/config.cuh"

namespace wb::config {

cudaError_t optInDynamicShared(const void* kernel, std::size_t bytes) {
  // The attribute is an int: a larger count would be cut to some other
  // number, and the kernel opted in to that instead.
  if (bytes > static_cast<std::size_t>(INT_MAX)) {
    return cudaErrorInvalidValue;
  }
  return cudaFuncSetAttribute(kernel, cudaFuncAttributeMaxDynamicSharedMemorySize,
                              static_cast<int>(bytes));
}

}  // namespace wb::config
