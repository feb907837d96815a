// bug: each lane adds its element into its warp's shared word with
// atomicAdd instead of the warp's butterfly; only warp 0 shuffles, to add
// the warp sums
// expect: method
// The answer is right and shuffles do run (5 per block, 1.25 per warp over
// the launch, each with all 32 lanes), but the warps' sums are made by a
// shared-memory atomic (ATOMS), which the machine code shows.
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

__global__ void reduceShfl(int* g_idata, int* g_odata, unsigned int n) {
  __shared__ int smem[kWarpSums];
  const unsigned int tid = threadIdx.x;
  const unsigned int idx = blockIdx.x * reduction::kReduceBlock + tid;
  const unsigned int lane = tid % kWarpSize;
  const unsigned int warp = tid / kWarpSize;

  if (tid < kWarpSums) smem[tid] = 0;
  __syncthreads();
  atomicAdd(&smem[warp], idx < n ? g_idata[idx] : 0);
  __syncthreads();

  if (warp == 0) {
    int sum = lane < kWarpSums ? smem[lane] : 0;
    sum = warpReduce(sum);
    if (lane == 0) g_odata[blockIdx.x] = sum;
  }
}

}  // namespace wb::shuffle
