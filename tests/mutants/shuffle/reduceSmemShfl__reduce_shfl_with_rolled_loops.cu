// bug: reduceShfl handed in as this exercise, its shuffle loop kept rolled so
// that the listing holds one SHFL per call, and a second barrier added: every
// warp shuffles its own values before the warps meet in shared memory
// expect: profile
// "at most 5 SHFL" counts instructions, not what runs; each warp executes
// ten shuffles here, eight times the exercise's 1.25 per warp.
#include "shuffle/shuffle.cuh"

namespace wb::shuffle {
namespace {

__device__ int warpSum(int value) {
#pragma unroll 1
  for (int laneMask = kWarpSize / 2; laneMask > 0; laneMask /= 2) {
    value += __shfl_xor_sync(0xffffffffu, value, laneMask);
  }
  return value;
}

}  // namespace

__global__ void reduceSmemShfl(int* g_idata, int* g_odata, unsigned int n) {
  __shared__ int smem[reduction::kReduceBlock];
  const unsigned int tid = threadIdx.x;
  const unsigned int idx = blockIdx.x * reduction::kReduceBlock + tid;
  const unsigned int lane = tid % kWarpSize;

  int sum = warpSum(idx < n ? g_idata[idx] : 0);
  if (lane == 0) smem[tid / kWarpSize] = sum;
  __syncthreads();
  sum = warpSum(lane < kWarpSums ? smem[lane] : 0);
  __syncthreads();
  if (tid == 0) g_odata[blockIdx.x] = sum;
}

}  // namespace wb::shuffle
