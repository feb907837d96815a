// bug: reduceShfl handed in with reduceSmem's array declared: each warp adds
// its own 32 values by shuffle before the warps meet in shared memory, the
// other exercise's technique
// expect: method
// The sums are right and the array is the one the contract names, so only the
// machine code tells: ten shuffles (five in every warp, five more in warp 0)
// where the tree's last warp needs five, and a single barrier.
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

__global__ void reduceSmemShfl(int* g_idata, int* g_odata, unsigned int n) {
  __shared__ int smem[reduction::kReduceBlock];
  const unsigned int tid = threadIdx.x;
  const unsigned int idx = blockIdx.x * reduction::kReduceBlock + tid;
  const unsigned int lane = tid % kWarpSize;
  const unsigned int warp = tid / kWarpSize;

  int sum = warpReduce(idx < n ? g_idata[idx] : 0);
  if (lane == 0) smem[warp] = sum;
  __syncthreads();

  if (warp == 0) {
    sum = warpReduce(lane < kWarpSums ? smem[lane] : 0);
    if (lane == 0) g_odata[blockIdx.x] = sum;
  }
}

}  // namespace wb::shuffle
