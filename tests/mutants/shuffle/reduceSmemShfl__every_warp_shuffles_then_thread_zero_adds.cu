// bug: reduceShfl's technique under this exercise's name: every warp adds its
// 32 values by shuffle first, then thread 0 adds the warp sums from shared
// memory; the listing still holds only five SHFL and two barriers
// expect: profile
// The static facts cannot tell it from the exercise (five shuffles, the
// contract's array, STS, LDS, two BAR). Nsight Compute can: each warp runs
// five shuffles, where the tree leaves them to warp 0 (1.25 per warp).
#include "shuffle/shuffle.cuh"

namespace wb::shuffle {

__global__ void reduceSmemShfl(int* g_idata, int* g_odata, unsigned int n) {
  __shared__ int smem[reduction::kReduceBlock];
  const unsigned int tid = threadIdx.x;
  const unsigned int idx = blockIdx.x * reduction::kReduceBlock + tid;

  int sum = idx < n ? g_idata[idx] : 0;
  for (int laneMask = kWarpSize / 2; laneMask > 0; laneMask /= 2) {
    sum += __shfl_xor_sync(0xffffffffu, sum, laneMask);
  }
  if (tid % kWarpSize == 0) smem[tid / kWarpSize] = sum;
  __syncthreads();
  if (tid == 0) {
    int total = 0;
    for (int w = 0; w < kWarpSums; ++w) total += smem[w];
    g_odata[blockIdx.x] = total;
  }
  __syncthreads();
}

}  // namespace wb::shuffle
