#include "wb/cuda_check.h"
#include "wb/launch_marker.h"

namespace wb {

// The parameter keeps the marker's index in the launch, where a reader of
// the tool's raw report can see it; the body does nothing.
__global__ void wbRunnerKernelBoundary(int index) { (void)index; }

void launchMarker(int index) {
  wbRunnerKernelBoundary<<<1, 1>>>(index);
  WB_CUDA(cudaGetLastError());
}

}  // namespace wb
