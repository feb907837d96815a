// bug: each warp adds its values with the butterfly (__shfl_xor_sync) of
// reduceShfl, not with shuffle-down: the right answer, the exercise not done
// expect: method
// End-of-chapter exercise 15 asks for the warp sums by __shfl_down_sync. The
// butterfly leaves the sum in every lane, lane 0 among them, so every output
// is right; the machine code shows SHFL.BFLY and no SHFL.DOWN.
#include "shuffle/shuffle.cuh"

namespace wb::shuffle {
namespace {

__device__ int warpReduceDown(int value) {
  for (int offset = kWarpSize / 2; offset > 0; offset /= 2) {
    value += __shfl_xor_sync(0xffffffffu, value, offset);
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

  int sum = idx < n ? g_idata[idx] : 0;
  sum = warpReduceDown(sum);
  if (lane == 0) smem[warp] = sum;
  __syncthreads();

  if (warp == 0) {
    sum = lane < kWarpSums ? smem[lane] : 0;
    sum = warpReduceDown(sum);
    if (lane == 0) g_odata[blockIdx.x] = sum;
  }
}

}  // namespace wb::shuffle
