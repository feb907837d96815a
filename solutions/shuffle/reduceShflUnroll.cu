// Book 5.6.3 with the unrolling of 5.3.2: each thread first adds four
// elements one block apart in a register, then the block reduces its 128
// sums as reduceShfl does, warp shuffles first and shared memory for the
// four warp sums only.
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

__global__ void reduceShflUnroll(int* g_idata, int* g_odata, unsigned int n) {
  __shared__ int smem[kWarpSums];
  constexpr unsigned int kBlock = reduction::kReduceBlock;
  const unsigned int tid = threadIdx.x;
  const unsigned int first = blockIdx.x * kBlock * reduction::kUnrollFactor + tid;
  const unsigned int lane = tid % kWarpSize;
  const unsigned int warp = tid / kWarpSize;

  // Each of the four loads is guarded on its own: the last block may end
  // anywhere inside its 512 elements.
  int sum = 0;
#pragma unroll
  for (int k = 0; k < reduction::kUnrollFactor; ++k) {
    const unsigned int idx = first + k * kBlock;
    if (idx < n) sum += g_idata[idx];
  }

  sum = warpReduce(sum);
  if (lane == 0) smem[warp] = sum;
  __syncthreads();

  if (warp == 0) {
    sum = lane < kWarpSums ? smem[lane] : 0;
    sum = warpReduce(sum);
    if (lane == 0) g_odata[blockIdx.x] = sum;
  }
}

}  // namespace wb::shuffle
