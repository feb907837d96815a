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

  // reduceGmem's warp phase: every lane of warp 0 loads and stores global
  // memory at every step, with __syncwarp() between the loads and the
  // stores of a step, and after them.
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
