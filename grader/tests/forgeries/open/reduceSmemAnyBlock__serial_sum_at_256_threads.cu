// forgery: thread 0 adds the block's values one by one at 256 threads only; the reference's tree at every other size. Measured on an H100 (2026-11-27): its 256-thread sums are right, and timed at 256 it ran 0.877x of the reference (the sum is memory-bound: a block's serial tail overlaps other blocks' loads), so timing every size does not catch it; the method counters and sanitizers launch 128 threads only (found in the fifteenth reading of the checks, 2026-11-27).
// exercise: reduction/reduceSmemAnyBlock
// base: solutions
// expect: zero method
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
