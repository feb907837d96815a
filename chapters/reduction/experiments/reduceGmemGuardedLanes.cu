// An experiment for book section 5.3.1 (chapters/reduction/notes.md, "How
// much faster is shared memory?"): reduceGmem with its warp phase guarded,
// so that only the lanes whose sums are read later touch global memory. It
// is still correct, and it is a faster baseline: run the reduction's
// performance tests with it in place of your reduceGmem and watch
// reduceSmem's lead shrink:
//
//   cp chapters/reduction/experiments/reduceGmemGuardedLanes.cu starter/reduction/reduceGmem.cu
//   ./workbook check reduction --perf
//   ./workbook reset reduceGmem
#include "reduction/reduction.cuh"

namespace wb::reduction {

__global__ void reduceGmem(int* g_idata, int* g_odata, unsigned int n) {
  const unsigned int tid = threadIdx.x;
  const unsigned int blockStart = blockIdx.x * kReduceBlock;
  int* idata = g_idata + blockStart;  // this block's slice of the input
  // Elements from the block's start to the end of the input: at least 1,
  // and 128 or more for every block but possibly the last. No thread may
  // return early, because every thread must reach the __syncthreads()
  // below; instead each add checks that the element it reads exists.
  const unsigned int remaining = n - blockStart;

  // The loop "for (stride = 64; stride > 0; stride /= 2)" completely
  // unrolled for 128 threads. First 128 -> 64, with the whole block.
  if (tid < 64 && tid + 64 < remaining) idata[tid] += idata[tid + 64];
  __syncthreads();  // warp 0 reads sums that warp 1 just wrote

  // The experiment: only the lanes below the stride load and store. The
  // sums that nobody reads later are no longer computed, and the warp phase
  // moves about a fifth fewer requests through L2.
  if (tid < 32) {
    volatile int* vdata = idata;
#pragma unroll
    for (unsigned int stride = 32; stride > 0; stride /= 2) {
      if (tid < stride && tid + stride < remaining) vdata[tid] += vdata[tid + stride];
      __syncwarp();
    }
  }

  if (tid == 0) g_odata[blockIdx.x] = idata[0];
}

}  // namespace wb::reduction
