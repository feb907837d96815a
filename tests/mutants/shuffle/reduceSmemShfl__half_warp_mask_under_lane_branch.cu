// bug: warp 0 narrows to the lanes below 16 before the shuffles, as
// reduceSmem's tail narrows to the lanes below each stride, and gives the
// shuffles those 16 lanes' mask: every shuffle is well formed, but the sums
// the upper half-warp holds are never added
// expect: tests
// With the mask 0x0000ffff and laneMask 8, 4, 2, 1 each lane's partner is
// inside the mask, so nothing is undefined and no sanitizer objects: the
// block's sum lacks smem[16, 32) and smem[48, 64), which the size sweep sees
// as soon as a block has more than 16 elements.
#include "shuffle/shuffle.cuh"

namespace wb::shuffle {

__global__ void reduceSmemShfl(int* g_idata, int* g_odata, unsigned int n) {
  __shared__ int smem[reduction::kReduceBlock];
  const unsigned int tid = threadIdx.x;
  const unsigned int idx = blockIdx.x * reduction::kReduceBlock + tid;

  smem[tid] = idx < n ? g_idata[idx] : 0;
  __syncthreads();
  if (tid < 64) smem[tid] += smem[tid + 64];
  __syncthreads();

  constexpr unsigned int kLowerHalf = 0x0000ffffu;
  if (tid < kWarpSize / 2) {
    int sum = smem[tid] + smem[tid + kWarpSize];
    for (int laneMask = kWarpSize / 4; laneMask > 0; laneMask /= 2) {
      sum += __shfl_xor_sync(kLowerHalf, sum, laneMask);
    }
    if (tid == 0) g_odata[blockIdx.x] = sum;
  }
}

}  // namespace wb::shuffle
