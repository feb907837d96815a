// bug: the four elements are loaded without checking the end of the input,
// so in the last block the threads past the end add what lies beyond it
// expect: tests
#include "reduction/reduction.cuh"

namespace wb::reduction {

__global__ void reduceSmemUnroll(int* g_idata, int* g_odata, unsigned int n) {
  (void)n;
  __shared__ int smem[kReduceBlock];
  const unsigned int tid = threadIdx.x;
  const unsigned int idx = blockIdx.x * kReduceBlock * kUnrollFactor + tid;
  smem[tid] = g_idata[idx] + g_idata[idx + kReduceBlock] + g_idata[idx + 2 * kReduceBlock] +
              g_idata[idx + 3 * kReduceBlock];
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
