// bug: each warp adds its 32 values with one REDUX (__reduce_add_sync)
// instead of five shuffles down; only warp 0's last step, over the 4 warp
// sums, shifts down
// expect: method
// needs: sm_80
// The answer is right and shuffles down do run, in warp 0, so neither "needs
// SHFL" nor "needs SHFL.DOWN" sees it; the machine code shows the REDUX.
// REDUX exists from sm_80: a build for older GPUs compiles the shuffles.
#include "shuffle/shuffle.cuh"

namespace wb::shuffle {
namespace {

__device__ int warpReduceDown(int value) {
  for (int offset = kWarpSize / 2; offset > 0; offset /= 2) {
    value += __shfl_down_sync(0xffffffffu, value, offset);
  }
  return value;
}

}  // namespace

__global__ void reduceShflDown(int* g_idata, int* g_odata, unsigned int n) {
  __shared__ int smem[kWarpSums];
  const unsigned int tid = threadIdx.x;
  const unsigned int idx = blockIdx.x * reduction::kReduceBlock + tid;
  const unsigned int lane = tid % kWarpSize;
  const unsigned int warp = tid / kWarpSize;

  int sum = idx < n ? g_idata[idx] : 0;
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 800
  sum = __reduce_add_sync(0xffffffffu, sum);  // REDUX: the warp's sum, no shuffle
#else
  sum = warpReduceDown(sum);
#endif
  if (lane == 0) smem[warp] = sum;
  __syncthreads();

  if (warp == 0) {
    sum = lane < kWarpSums ? smem[lane] : 0;
    sum = warpReduceDown(sum);
    if (lane == 0) g_odata[blockIdx.x] = sum;
  }
}

}  // namespace wb::shuffle
