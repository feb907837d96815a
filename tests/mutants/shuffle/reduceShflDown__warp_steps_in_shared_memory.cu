// bug: reduces each warp through shared memory (reduceSmem's tail) instead
// of by shuffle: the right answer, without the technique
// expect: method
// The steps of reduceSmem in a shared array with __syncwarp() between them,
// halving the distance as shuffle-down would: every partial sum is right,
// and no value moves between lanes in registers (no SHFL at all).
#include "shuffle/shuffle.cuh"

namespace wb::shuffle {

__global__ void reduceShflDown(int* g_idata, int* g_odata, unsigned int n) {
  __shared__ int smem[reduction::kReduceBlock];
  const unsigned int tid = threadIdx.x;
  const unsigned int idx = blockIdx.x * reduction::kReduceBlock + tid;
  const unsigned int lane = tid % kWarpSize;

  smem[tid] = idx < n ? g_idata[idx] : 0;
  __syncwarp();
  for (unsigned int offset = kWarpSize / 2; offset > 0; offset /= 2) {
    const int above = lane < offset ? smem[tid + offset] : 0;
    __syncwarp();
    smem[tid] += above;
    __syncwarp();
  }
  __syncthreads();

  if (tid == 0) {
    int sum = 0;
    for (unsigned int w = 0; w < kWarpSums; ++w) sum += smem[w * kWarpSize];
    g_odata[blockIdx.x] = sum;
  }
}

}  // namespace wb::shuffle
