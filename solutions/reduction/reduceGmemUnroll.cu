// Book 5.3.2: unrolling in global memory. Block b spans 4 * 128 elements;
// thread tid first adds elements tid, tid + 128, tid + 256 and tid + 384 of
// that span (four independent loads in flight per thread), stores the sum
// over element tid, and the block then reduces those 128 sums in place as
// reduceGmem does. A quarter of the blocks cover the same input.
#include "reduction/reduction.cuh"

namespace wb::reduction {

__global__ void reduceGmemUnroll(int* g_idata, int* g_odata, unsigned int n) {
  const unsigned int tid = threadIdx.x;
  const unsigned int blockStart = blockIdx.x * (kReduceBlock * kUnrollFactor);
  int* idata = g_idata + blockStart;
  // Elements from the block's start to the end of the input. In the last
  // block any of the four elements may be missing, even the first: each
  // load is checked on its own, and no thread returns before a barrier.
  const unsigned int remaining = n - blockStart;

  if (tid < remaining) {
    int sum = 0;
#pragma unroll
    for (unsigned int k = 0; k < kUnrollFactor; ++k) {
      const unsigned int i = tid + k * kReduceBlock;
      if (i < remaining) sum += idata[i];
    }
    idata[tid] = sum;  // only thread tid reads or writes element tid here
  }
  __syncthreads();

  // From here on, reduceGmem over the first min(remaining, 128) elements.
  if (tid < 64 && tid + 64 < remaining) idata[tid] += idata[tid + 64];
  __syncthreads();

  if (tid < 32) {
    // The book's volatile pointer: every step really loads and stores
    // global memory instead of keeping a sum in a register. On Volta and
    // later volatile alone does not order the lanes of a warp; the
    // __syncwarp() between the steps does.
    volatile int* vdata = idata;
    if (tid + 32 < remaining) vdata[tid] += vdata[tid + 32];
    __syncwarp();
    if (tid < 16 && tid + 16 < remaining) vdata[tid] += vdata[tid + 16];
    __syncwarp();
    if (tid < 8 && tid + 8 < remaining) vdata[tid] += vdata[tid + 8];
    __syncwarp();
    if (tid < 4 && tid + 4 < remaining) vdata[tid] += vdata[tid + 4];
    __syncwarp();
    if (tid < 2 && tid + 2 < remaining) vdata[tid] += vdata[tid + 2];
    __syncwarp();
    if (tid < 1 && tid + 1 < remaining) vdata[tid] += vdata[tid + 1];
  }

  if (tid == 0) g_odata[blockIdx.x] = idata[0];
}

}  // namespace wb::reduction
