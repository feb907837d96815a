// bug: the book's reduceGmem assumes n is a multiple of the block: threads
// past the end return before the barrier, and the in-place steps add
// idata[tid + stride] without asking whether that element exists, so a
// short last block adds (and overwrites) what lies past element n - 1
// expect: tests
#include "reduction/reduction.cuh"

namespace wb::reduction {

__global__ void reduceGmem(int* g_idata, int* g_odata, unsigned int n) {
  const unsigned int tid = threadIdx.x;
  const unsigned int idx = blockIdx.x * kReduceBlock + tid;
  int* idata = g_idata + blockIdx.x * kReduceBlock;
  if (idx >= n) return;
  if (tid < 64) idata[tid] += idata[tid + 64];
  __syncthreads();
  if (tid < 32) {
    volatile int* vdata = idata;
#pragma unroll
    for (unsigned int stride = 32; stride > 0; stride /= 2) {
      const int mine = vdata[tid];
      const int other = vdata[tid + stride];
      __syncwarp();
      vdata[tid] = mine + other;
      __syncwarp();
    }
  }
  if (tid == 0) g_odata[blockIdx.x] = idata[0];
}

}  // namespace wb::reduction
