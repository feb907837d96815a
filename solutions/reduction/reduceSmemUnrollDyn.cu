// Book 5.3.3: reduceSmemUnroll with the shared array in dynamic shared
// memory, sized by the launch (kReduceBlock * sizeof(int) bytes). The book
// measures no difference from the static version; the tests allow 10%.
#include "reduction/reduction.cuh"

namespace wb::reduction {

__global__ void reduceSmemUnrollDyn(int* g_idata, int* g_odata, unsigned int n) {
  extern __shared__ int smem[];  // kReduceBlock ints, sized by the launch
  const unsigned int tid = threadIdx.x;
  const unsigned int blockStart = blockIdx.x * (kReduceBlock * kUnrollFactor);
  const unsigned int remaining = n - blockStart;

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
