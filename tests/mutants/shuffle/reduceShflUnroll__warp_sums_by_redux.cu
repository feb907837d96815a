// bug: each warp adds its 32 register sums with one REDUX (__reduce_add_sync)
// instead of five shuffles; only warp 0's last step, over the 4 warp sums,
// uses the butterfly
// expect: method
// needs: sm_80
// The answer is right and shuffles do run (20 per block: 1.25 per warp over
// the launch, each with all 32 lanes), so neither "needs SHFL" nor the
// shuffle counter sees it; the machine code shows the REDUX. REDUX exists
// from sm_80: a build for older GPUs compiles the reference's butterfly.
#include "shuffle/shuffle.cuh"

namespace wb::shuffle {
namespace {

__device__ int warpReduce(int value) {
  for (int laneMask = kWarpSize / 2; laneMask > 0; laneMask /= 2) {
    value += __shfl_xor_sync(0xffffffffu, value, laneMask);
  }
  return value;
}

}  // namespace

__global__ void reduceShflUnroll(int* g_idata, int* g_odata, unsigned int n) {
  __shared__ int smem[kWarpSums];
  constexpr unsigned int kBlock = reduction::kReduceBlock;
  const unsigned int tid = threadIdx.x;
  const unsigned int first = blockIdx.x * kBlock * reduction::kUnrollFactor + tid;
  const unsigned int lane = tid % kWarpSize;
  const unsigned int warp = tid / kWarpSize;

  int sum = 0;
#pragma unroll
  for (int k = 0; k < reduction::kUnrollFactor; ++k) {
    const unsigned int idx = first + k * kBlock;
    if (idx < n) sum += g_idata[idx];
  }

#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 800
  sum = __reduce_add_sync(0xffffffffu, sum);  // REDUX: the warp's sum, no shuffle
#else
  sum = warpReduce(sum);
#endif
  if (lane == 0) smem[warp] = sum;
  __syncthreads();

  if (warp == 0) {
    sum = lane < kWarpSums ? smem[lane] : 0;
    sum = warpReduce(sum);
    if (lane == 0) g_odata[blockIdx.x] = sum;
  }
}

}  // namespace wb::shuffle
