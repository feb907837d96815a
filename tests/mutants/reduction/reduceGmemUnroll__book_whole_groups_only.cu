// bug: the book's reduceGmemUnroll adds a thread's four elements only when
// all four exist (`if (idx + 3 * blockDim.x < n)`), assuming n is a multiple
// of four blocks: in the last block a thread whose group the end of the
// input cuts keeps its first element alone, and the others are lost
// expect: tests
#include "reduction/reduction.cuh"

namespace wb::reduction {

__global__ void reduceGmemUnroll(int* g_idata, int* g_odata, unsigned int n) {
  const unsigned int tid = threadIdx.x;
  const unsigned int blockStart = blockIdx.x * (kReduceBlock * kUnrollFactor);
  int* idata = g_idata + blockStart;
  const unsigned int remaining = n - blockStart;

  if (tid + (kUnrollFactor - 1) * kReduceBlock < remaining) {
    int sum = 0;
#pragma unroll
    for (unsigned int k = 0; k < kUnrollFactor; ++k) sum += idata[tid + k * kReduceBlock];
    idata[tid] = sum;
  }
  __syncthreads();

  if (tid < 64 && tid + 64 < remaining) idata[tid] += idata[tid + 64];
  __syncthreads();
  if (tid < 32) {
    volatile int* vdata = idata;
#pragma unroll
    for (unsigned int stride = 32; stride > 0; stride /= 2) {
      const int mine = tid < remaining ? vdata[tid] : 0;
      const int other = tid + stride < remaining ? vdata[tid + stride] : 0;
      __syncwarp();
      if (tid < remaining) vdata[tid] = mine + other;
      __syncwarp();
    }
  }
  if (tid == 0) g_odata[blockIdx.x] = idata[0];
}

}  // namespace wb::reduction
