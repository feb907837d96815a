// Book 5.3.2: reduceSmem with four elements per thread. Block b spans
// 4 * 128 elements; thread tid adds elements tid, tid + 128, tid + 256 and
// tid + 384 of that span in a register (four independent global loads in
// flight) and the block reduces the 128 register sums in shared memory. A
// quarter of the blocks, a quarter of the global stores, and more memory
// requests in flight per thread to hide their latency.
#include "reduction/reduction.cuh"

namespace wb::reduction {

__global__ void reduceSmemUnroll(int* g_idata, int* g_odata, unsigned int n) {
  __shared__ int smem[kReduceBlock];
  const unsigned int tid = threadIdx.x;
  const unsigned int blockStart = blockIdx.x * (kReduceBlock * kUnrollFactor);
  const unsigned int remaining = n - blockStart;  // at least 1

  // Each of the four elements is checked on its own: the last block may end
  // anywhere in its span. A missing element counts as 0.
  int sum = 0;
#pragma unroll
  for (unsigned int k = 0; k < kUnrollFactor; ++k) {
    const unsigned int i = tid + k * kReduceBlock;
    if (i < remaining) sum += g_idata[blockStart + i];
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
