// bug: lane 31 stores each warp's sum and writes the block's, as if shifting
// down carried the sum to the last lane; shuffle-down gathers it in lane 0,
// and lane 31, with no lane above it, only ever adds its own value
// expect: tests
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
  constexpr unsigned int kLastLane = kWarpSize - 1;

  int sum = idx < n ? g_idata[idx] : 0;
  sum = warpReduceDown(sum);
  if (lane == kLastLane) smem[warp] = sum;
  __syncthreads();

  if (warp == 0) {
    sum = lane < kWarpSums ? smem[lane] : 0;
    sum = warpReduceDown(sum);
    if (lane == kLastLane) g_odata[blockIdx.x] = sum;
  }
}

}  // namespace wb::shuffle
