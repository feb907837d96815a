// bug: passes the size_t count to the int attribute unchecked: 4 GiB + 1 KB opts in to 1 KB
// expect: host
#include "config/config.cuh"

namespace wb::config {

cudaError_t optInDynamicShared(const void* kernel, std::size_t bytes) {
  return cudaFuncSetAttribute(kernel, cudaFuncAttributeMaxDynamicSharedMemorySize,
                              static_cast<int>(bytes));
}

}  // namespace wb::config
