// bug: the book's reduceSmemShfl starts with its reductions' `if (idx >= n)
// return;`: in a short last block the threads past the end leave before the
// staging, so the 128 -> 64 round adds shared slots no thread wrote, and in
// a block of fewer than 32 elements warp 0's full-mask shuffles name lanes
// that have exited
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

__global__ void reduceSmemShfl(int* g_idata, int* g_odata, unsigned int n) {
  __shared__ int smem[reduction::kReduceBlock];
  const unsigned int tid = threadIdx.x;
  const unsigned int idx = blockIdx.x * reduction::kReduceBlock + tid;
  if (idx >= n) return;

  smem[tid] = g_idata[idx];
  __syncthreads();
  if (tid < 64) smem[tid] += smem[tid + 64];
  __syncthreads();

  if (tid < kWarpSize) {
    const int sum = warpReduce(smem[tid] + smem[tid + kWarpSize]);
    if (tid == 0) g_odata[blockIdx.x] = sum;
  }
}

}  // namespace wb::shuffle
