// bug: reduceGmem handed in as reduceSmem: the sums are right, but the
// kernel declares no shared memory and overwrites the input it must leave
// alone
// expect: tests
#include "reduction/reduction.cuh"

namespace wb::reduction {

__global__ void reduceSmem(int* g_idata, int* g_odata, unsigned int n) {
  const unsigned int tid = threadIdx.x;
  const unsigned int blockStart = blockIdx.x * kReduceBlock;
  int* idata = g_idata + blockStart;
  const unsigned int remaining = n - blockStart;
  if (tid < 64 && tid + 64 < remaining) idata[tid] += idata[tid + 64];
  __syncthreads();
  if (tid < 32) {
    if (tid + 32 < remaining) idata[tid] += idata[tid + 32];
    __syncwarp();
    if (tid < 16 && tid + 16 < remaining) idata[tid] += idata[tid + 16];
    __syncwarp();
    if (tid < 8 && tid + 8 < remaining) idata[tid] += idata[tid + 8];
    __syncwarp();
    if (tid < 4 && tid + 4 < remaining) idata[tid] += idata[tid + 4];
    __syncwarp();
    if (tid < 2 && tid + 2 < remaining) idata[tid] += idata[tid + 2];
    __syncwarp();
    if (tid < 1 && tid + 1 < remaining) idata[tid] += idata[tid + 1];
  }
  if (tid == 0) g_odata[blockIdx.x] = idata[0];
}

}  // namespace wb::reduction
