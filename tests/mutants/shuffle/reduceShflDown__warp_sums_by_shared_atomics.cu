// bug: each lane adds its element into its warp's shared word with
// atomicAdd instead of shuffling down; only warp 0 shuffles, to add the warp
// sums
// expect: method
// The answer is right and shuffles down do run (in warp 0), but the warps'
// sums are made by a shared-memory atomic (ATOMS), which the machine code
// shows.
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

  if (tid < kWarpSums) smem[tid] = 0;
  __syncthreads();
  if (idx < n) atomicAdd(&smem[warp], g_idata[idx]);
  __syncthreads();

  if (warp == 0) {
    int sum = lane < kWarpSums ? smem[lane] : 0;
    sum = warpReduceDown(sum);
    if (lane == 0) g_odata[blockIdx.x] = sum;
  }
}

}  // namespace wb::shuffle
