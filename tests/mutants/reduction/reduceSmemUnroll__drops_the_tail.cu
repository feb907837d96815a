// bug: a thread adds its four elements only when the fourth exists (the
// book's `if (idx + 3 * blockDim.x < n)`), so the last block loses every
// group of four that is cut by the end of the input
// expect: tests
#include "reduction/reduction.cuh"

namespace wb::reduction {

__global__ void reduceSmemUnroll(int* g_idata, int* g_odata, unsigned int n) {
  __shared__ int smem[kReduceBlock];
  const unsigned int tid = threadIdx.x;
  const unsigned int idx = blockIdx.x * kReduceBlock * kUnrollFactor + tid;
  int sum = 0;
  if (idx + 3 * kReduceBlock < n) {
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
