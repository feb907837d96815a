// bug: warp 0 reads `smem[lane]` in all 32 lanes, but only the kWarpSums (4)
// warp sums were ever written: lanes 4-31 read past the end of the shared
// array (the book guards it with `threadIdx.x < SMEMDIM ? smem[laneIdx] : 0`)
// expect: tests
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
  int sum = idx < n ? g_idata[idx] : 0;
  sum = warpReduce(sum);
  if (lane == 0) smem[warp] = sum;
  __syncthreads();
  if (warp == 0) {
    sum = smem[lane];
    sum = warpReduce(sum);
    if (lane == 0) g_odata[blockIdx.x] = sum;
  }
}

}  // namespace wb::shuffle
