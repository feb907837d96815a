// bug: the warp reduction stops at laneMask 2 (`laneMask > 1`), one butterfly
// step short: each lane ends with the sum of 16 lanes, not 32, so every
// block's sum misses half of its warps' values
// expect: tests
#include "shuffle/shuffle.cuh"

namespace wb::shuffle {
namespace {

__device__ int warpReduce(int value) {
  for (int laneMask = kWarpSize / 2; laneMask > 1; laneMask /= 2) {
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
  for (int k = 0; k < reduction::kUnrollFactor; ++k) {
    const unsigned int idx = first + k * kBlock;
    if (idx < n) sum += g_idata[idx];
  }
  sum = warpReduce(sum);
  if (lane == 0) smem[warp] = sum;
  __syncthreads();
  if (warp == 0) {
    sum = lane < kWarpSums ? smem[lane] : 0;
    sum = warpReduce(sum);
    if (lane == 0) g_odata[blockIdx.x] = sum;
  }
}

}  // namespace wb::shuffle
