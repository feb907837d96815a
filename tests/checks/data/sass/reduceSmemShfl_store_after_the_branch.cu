// An honest variant kept for the method checks' host tests (sass_test.py):
// the reference reduceSmemShfl with the block's sum stored after the
// branch that only warp 0 takes. The compiler adds a copy of every shuffle
// for a warp that reaches them diverged (a helper's body on sm_75,
// WARPSYNC.COLLECTIVE blocks on sm_90), which the facts must not count.
#include "shuffle/shuffle.cuh"

namespace wb::shuffle {
namespace {

/// The sum of @p value over the 32 lanes of the calling warp, in every lane.
/// Every lane must call it: each shuffle names all 32 lanes.
__device__ int warpReduce(int value) {
  for (int laneMask = kWarpSize / 2; laneMask > 0; laneMask /= 2) {
    value += __shfl_xor_sync(0xffffffffu, value, laneMask);
  }
  return value;
}

}  // namespace

__global__ void reduceSmemShfl(int* g_idata, int* g_odata, unsigned int n) {
  constexpr unsigned int kBlock = reduction::kReduceBlock;
  static_assert(kBlock / 2 == 2 * kWarpSize, "one halving round leaves warp 0 two sums a lane");
  __shared__ int smem[kBlock];
  const unsigned int tid = threadIdx.x;
  const unsigned int idx = blockIdx.x * kBlock + tid;

  // A thread past the end stores 0 instead of returning: every thread must
  // reach both barriers, and the zeros let the steps skip bounds checks.
  smem[tid] = idx < n ? g_idata[idx] : 0;
  __syncthreads();

  // 128 -> 64 with the whole block. The barrier is what lets warp 0 read
  // the sums that warp 1 leaves in smem[32, 64).
  if (tid < kBlock / 2) smem[tid] += smem[tid + kBlock / 2];
  __syncthreads();

  // 64 -> 32 -> 1 in warp 0: the condition holds for a whole warp, so all
  // 32 lanes take part in every shuffle.
  int sum = 0;
  if (tid < kWarpSize) sum = warpReduce(smem[tid] + smem[tid + kWarpSize]);
  if (tid == 0) g_odata[blockIdx.x] = sum;
}

}  // namespace wb::shuffle
