// bug: lanes past the end of the input skip the warp reduction, but its
// shuffles still name all 32 lanes; the lanes left out have not exited (they
// wait at the barrier below), so the lanes inside wait for partners that
// never come: on an H100 the warp hangs (see the shuffle notes)
// expect: timeout
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
  int sum = 0;
  if (idx < n) {
    sum = g_idata[idx];
    sum = warpReduce(sum);
  }
  if (lane == 0) smem[warp] = sum;
  __syncthreads();
  if (warp == 0) {
    sum = lane < kWarpSums ? smem[lane] : 0;
    sum = warpReduce(sum);
    if (lane == 0) g_odata[blockIdx.x] = sum;
  }
}

}  // namespace wb::shuffle
