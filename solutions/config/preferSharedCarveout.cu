// Book 5.1: the carveout. On Volta and newer the L1 cache and shared memory
// are one array per SM; a kernel states what share of it it would like as
// shared memory, in percent. The runtime takes it as a hint, remembered with
// the kernel and used when the kernel is launched (and by the occupancy API).
#include "config/config.cuh"

namespace wb::config {

cudaError_t preferSharedCarveout(const void* kernel, int percent) {
  // -1 (cudaSharedmemCarveoutDefault) withdraws the preference; 0 asks for
  // the most L1, 100 for the most shared memory.
  if (percent < cudaSharedmemCarveoutDefault || percent > cudaSharedmemCarveoutMaxShared) {
    return cudaErrorInvalidValue;
  }
  return cudaFuncSetAttribute(kernel, cudaFuncAttributePreferredSharedMemoryCarveout, percent);
}

}  // namespace wb::config
