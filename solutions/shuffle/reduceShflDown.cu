// Book 5.6.3, end-of-chapter exercise 15: reduceShfl with its warp sums made
// by shuffle-down instead of the butterfly. Each step adds the value `offset`
// lanes higher, so the sum gathers in the low lanes: after the step with
// offset 1 only lane 0 holds the warp's sum (the butterfly leaves it in every
// lane). That is all the block needs, since lane 0 is the lane that stores.
#include "shuffle/shuffle.cuh"

namespace wb::shuffle {
namespace {

/// The sum of @p value over the 32 lanes of the calling warp, in lane 0 (the
/// other lanes end with partial sums). Every lane must call it: each shuffle
/// names all 32 lanes.
__device__ int warpReduceDown(int value) {
  // After the step with offset k, lane L < k holds the sum of the 32 / k
  // lanes L, L + k, L + 2k, ...; the highest lanes, which have no lane
  // `offset` above them, read their own value, which only lanes past lane 0's
  // reach ever add.
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

  // Past the end of the input a thread adds 0: every lane of every warp
  // must reach the shuffles and the barrier.
  int sum = idx < n ? g_idata[idx] : 0;
  sum = warpReduceDown(sum);
  // Only lane 0 holds the warp's sum now.
  if (lane == 0) smem[warp] = sum;
  __syncthreads();

  // Warp 0 adds the warp sums; its lanes past kWarpSums add 0, and all 32
  // lanes of warp 0 call the shuffles.
  if (warp == 0) {
    sum = lane < kWarpSums ? smem[lane] : 0;
    sum = warpReduceDown(sum);
    if (lane == 0) g_odata[blockIdx.x] = sum;
  }
}

}  // namespace wb::shuffle
