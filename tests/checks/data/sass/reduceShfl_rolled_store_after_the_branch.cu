// An honest variant kept for the method checks' host tests (sass_test.py):
// the reference reduceShfl with its shuffle loop bounded by warpSize (so it
// stays a loop) and the sum stored after warp 0's branch. On sm_75 the
// compiler reconverges the warp with votes on PT, which are not the
// student's votes.
#include "shuffle/shuffle.cuh"

namespace wb::shuffle {
namespace {

/// The sum of @p value over the 32 lanes of the calling warp, in every lane.
/// Every lane must call it: each shuffle names all 32 lanes.
__device__ int warpReduce(int value) {
  // Butterfly: after the step with laneMask m, every lane holds the sum of
  // the 2m lanes that agree with it in all bits above m.
  for (int laneMask = warpSize / 2; laneMask > 0; laneMask /= 2) {
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

  // Past the end of the input a thread adds 0: every lane of every warp
  // must reach the shuffles and the barrier.
  int sum = idx < n ? g_idata[idx] : 0;
  sum = warpReduce(sum);
  if (lane == 0) smem[warp] = sum;
  __syncthreads();

  // Warp 0 adds the warp sums; its lanes past kWarpSums add 0, and all 32
  // lanes of warp 0 call the shuffles.
  if (warp == 0) {
    sum = lane < kWarpSums ? smem[lane] : 0;
    sum = warpReduce(sum);
  }
  if (tid == 0) g_odata[blockIdx.x] = sum;
}

}  // namespace wb::shuffle
