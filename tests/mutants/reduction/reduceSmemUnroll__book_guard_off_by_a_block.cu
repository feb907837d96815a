// bug: the book's reduceSmemUnroll guard, `idx + 4 * blockDim.x <= n`, one
// block stricter than its other unrolled kernels' `idx + 3 * blockDim.x < n`:
// a thread adds only when its fourth element lies at least a block before
// the end of the input, so even in an input of whole groups (2^24 ints)
// only thread 0 of the last block adds anything
// expect: tests
#include "reduction/reduction.cuh"

namespace wb::reduction {

__global__ void reduceSmemUnroll(int* g_idata, int* g_odata, unsigned int n) {
  __shared__ int smem[kReduceBlock];
  const unsigned int tid = threadIdx.x;
  const unsigned int idx = blockIdx.x * kReduceBlock * kUnrollFactor + tid;

  int sum = 0;
  if (idx + 4 * kReduceBlock <= n) {
    sum = g_idata[idx] + g_idata[idx + kReduceBlock] + g_idata[idx + 2 * kReduceBlock] +
          g_idata[idx + 3 * kReduceBlock];
  }
  smem[tid] = sum;
  __syncthreads();

  if (tid < 64) smem[tid] += smem[tid + 64];
  __syncthreads();

  if (tid < 32) {
    smem[tid] += smem[tid + 32];
    __syncwarp();
    if (tid < 16) smem[tid] += smem[tid + 16];
    __syncwarp();
    if (tid < 8) smem[tid] += smem[tid + 8];
    __syncwarp();
    if (tid < 4) smem[tid] += smem[tid + 4];
    __syncwarp();
    if (tid < 2) smem[tid] += smem[tid + 2];
    __syncwarp();
    if (tid < 1) smem[tid] += smem[tid + 1];
  }

  if (tid == 0) g_odata[blockIdx.x] = smem[0];
}

}  // namespace wb::reduction
