// bug: thread 0 adds the block's values one by one at 256 threads only, the
// tree at every other size: its sums are right at every size and its speed
// at 256 is near the reference's (the sum is memory-bound), but at 256
// threads most of its instructions run with one lane
// expect: profile
#include "reduction/reduction.cuh"

namespace wb::reduction {

__global__ void reduceSmemAnyBlock(int* g_idata, int* g_odata, unsigned int n) {
  extern __shared__ __align__(16) int smem[];
  const unsigned int tid = threadIdx.x;
  const unsigned int idx = blockIdx.x * blockDim.x + tid;

  smem[tid] = idx < n ? g_idata[idx] : 0;
  __syncthreads();

  if (blockDim.x == 256) {  // never timed, never profiled, never sanitized
    if (tid == 0) {
      int sum = 0;
      for (unsigned int i = 0; i < 256; ++i) sum += smem[i];
      smem[0] = sum;  // the one STG below stores it ("at most 1 STG")
    }
  } else {
  if (blockDim.x >= 1024 && tid < 512) smem[tid] += smem[tid + 512];
  __syncthreads();
  if (blockDim.x >= 512 && tid < 256) smem[tid] += smem[tid + 256];
  __syncthreads();
  if (blockDim.x >= 256 && tid < 128) smem[tid] += smem[tid + 128];
  __syncthreads();
  if (blockDim.x >= 128 && tid < 64) smem[tid] += smem[tid + 64];
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
  }

  if (tid == 0) g_odata[blockIdx.x] = smem[0];
}

}  // namespace wb::reduction
