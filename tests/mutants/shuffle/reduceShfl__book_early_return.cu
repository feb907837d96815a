// bug: the book's reduceShfl keeps its reductions' `if (idx >= n) return;`:
// in a short last block the lanes past the end leave before the shuffles
// and the barrier, so the full-mask shuffles name lanes that have exited,
// and warp 0 adds warp sums that warps with no element left never wrote
// expect: tests
#include "shuffle/shuffle.cuh"

namespace wb::shuffle {
namespace {

__device__ int sumOverWarp(int value) {
  for (int laneMask = kWarpSize / 2; laneMask > 0; laneMask /= 2) {
    value += __shfl_xor_sync(0xffffffffu, value, laneMask);
  }
  return value;
}

}  // namespace

__global__ void reduceShfl(int* g_idata, int* g_odata, unsigned int n) {
  __shared__ int smem[kWarpSums];
  const unsigned int tid = threadIdx.x;
  const unsigned int idx = blockIdx.x * reduction::kReduceBlock + tid;
  const unsigned int lane = tid % kWarpSize;
  const unsigned int warp = tid / kWarpSize;
  if (idx >= n) return;

  int sum = sumOverWarp(g_idata[idx]);
  if (lane == 0) smem[warp] = sum;
  __syncthreads();

  if (warp == 0) {
    sum = sumOverWarp(lane < kWarpSums ? smem[lane] : 0);
    if (lane == 0) g_odata[blockIdx.x] = sum;
  }
}

}  // namespace wb::shuffle
