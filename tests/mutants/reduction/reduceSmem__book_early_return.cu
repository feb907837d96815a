// bug: the book's reduceSmem starts with `if (idx >= n) return;`: threads
// past the end of the input leave before the first __syncthreads(), so in a
// short last block the steps add shared slots no thread of the block wrote
// (the book's n is always a multiple of the block, where this never shows)
// expect: tests
#include "reduction/reduction.cuh"

namespace wb::reduction {

__global__ void reduceSmem(int* g_idata, int* g_odata, unsigned int n) {
  __shared__ int smem[kReduceBlock];
  const unsigned int tid = threadIdx.x;
  const unsigned int idx = blockIdx.x * kReduceBlock + tid;
  if (idx >= n) return;
  smem[tid] = g_idata[idx];
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
