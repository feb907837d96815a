// bug: the whole-block steps are written for 512 threads and not guarded
// by the block size: a smaller block adds values from past the end of its
// shared array, and a block of 1024 never adds its upper half
// expect: tests
#include "reduction/reduction.cuh"

namespace wb::reduction {

__global__ void reduceSmemAnyBlock(int* g_idata, int* g_odata, unsigned int n) {
  extern __shared__ int smem[];
  const unsigned int tid = threadIdx.x;
  const unsigned int idx = blockIdx.x * blockDim.x + tid;

  smem[tid] = idx < n ? g_idata[idx] : 0;
  __syncthreads();

  if (tid < 256) smem[tid] += smem[tid + 256];
  __syncthreads();
  if (tid < 128) smem[tid] += smem[tid + 128];
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
