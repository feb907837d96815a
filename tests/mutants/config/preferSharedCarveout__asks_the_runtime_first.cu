// bug: passes every percent to the runtime and refuses the bad ones afterwards: the contract says a percent outside [-1, 100] is refused without calling the runtime (the runtime may accept a value the contract refuses, or apply it before the refusal)
// expect: host
#include "config/config.cuh"

namespace wb::config {

cudaError_t preferSharedCarveout(const void* kernel, int percent) {
  const cudaError_t err =
      cudaFuncSetAttribute(kernel, cudaFuncAttributePreferredSharedMemoryCarveout, percent);
  if (percent < cudaSharedmemCarveoutDefault || percent > cudaSharedmemCarveoutMaxShared) {
    return cudaErrorInvalidValue;
  }
  return err;
}

}  // namespace wb::config
