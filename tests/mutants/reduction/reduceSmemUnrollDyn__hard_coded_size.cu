// bug: the input size is hard-coded to the 2^24 elements the book times
// instead of the n the launch passes, so every other size reads past the
// input or stops short of it
// expect: tests
#include "reduction/reduction.cuh"

namespace wb::reduction {

__global__ void reduceSmemUnrollDyn(int* g_idata, int* g_odata, unsigned int n) {
  extern __shared__ int smem[];  // kReduceBlock ints, sized by the launch
  const unsigned int tid = threadIdx.x;
  const unsigned int blockStart = blockIdx.x * (kReduceBlock * kUnrollFactor);
  constexpr unsigned int kAssumedN = 1u << 24;  // the size the book times
  (void)n;
  const unsigned int remaining = kAssumedN - blockStart;

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
