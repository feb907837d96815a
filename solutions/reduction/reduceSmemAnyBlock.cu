// Book 5.3, exercise 8: reduceSmemDyn for any block size from 64 to 1024
// threads, so that one kernel can be timed at each (the book changes DIM and
// recompiles; here the launch chooses). The block's size comes from
// blockDim.x, the shared array's from the launch; the whole-block steps are
// the book's, each guarded by the block size it needs, so a smaller block
// skips the steps it has no data for. From 64 partial sums down, warp 0
// finishes as in reduceSmemDyn.
#include "reduction/reduction.cuh"

namespace wb::reduction {

__global__ void reduceSmemAnyBlock(int* g_idata, int* g_odata, unsigned int n) {
  extern __shared__ int smem[];  // blockDim.x ints, sized by the launch
  const unsigned int tid = threadIdx.x;
  const unsigned int idx = blockIdx.x * blockDim.x + tid;

  smem[tid] = idx < n ? g_idata[idx] : 0;  // pad the last block with zeros
  __syncthreads();

  // Whole-block steps, 1024 -> 64. The conditions on blockDim.x are the same
  // in every thread, so every thread reaches every barrier.
  if (blockDim.x >= 1024 && tid < 512) smem[tid] += smem[tid + 512];
  __syncthreads();
  if (blockDim.x >= 512 && tid < 256) smem[tid] += smem[tid + 256];
  __syncthreads();
  if (blockDim.x >= 256 && tid < 128) smem[tid] += smem[tid + 128];
  __syncthreads();
  if (blockDim.x >= 128 && tid < 64) smem[tid] += smem[tid + 64];
  __syncthreads();

  // 64 -> 1 inside warp 0, each step ordered by __syncwarp().
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
