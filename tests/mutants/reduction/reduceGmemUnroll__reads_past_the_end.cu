// bug: the four loads and the in-place steps never check the end of the
// input, so the last block reads (and adds) whatever lies past element n-1
// and may write there
// expect: tests
#include "reduction/reduction.cuh"

namespace wb::reduction {

__global__ void reduceGmemUnroll(int* g_idata, int* g_odata, unsigned int n) {
  (void)n;
  const unsigned int tid = threadIdx.x;
  int* idata = g_idata + blockIdx.x * kReduceBlock * kUnrollFactor;
  idata[tid] = idata[tid] + idata[tid + kReduceBlock] + idata[tid + 2 * kReduceBlock] +
               idata[tid + 3 * kReduceBlock];
  __syncthreads();
  if (tid < 64) idata[tid] += idata[tid + 64];
  __syncthreads();
  if (tid < 32) {
    idata[tid] += idata[tid + 32];
    __syncwarp();
    if (tid < 16) idata[tid] += idata[tid + 16];
    __syncwarp();
    if (tid < 8) idata[tid] += idata[tid + 8];
    __syncwarp();
    if (tid < 4) idata[tid] += idata[tid + 4];
    __syncwarp();
    if (tid < 2) idata[tid] += idata[tid + 2];
    __syncwarp();
    if (tid < 1) idata[tid] += idata[tid + 1];
  }
  if (tid == 0) g_odata[blockIdx.x] = idata[0];
}

}  // namespace wb::reduction
