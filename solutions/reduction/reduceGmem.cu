// Book 5.3.1: parallel reduction in place in global memory. The worked
// example: the shared-memory kernels of this section are this kernel with
// the partial sums moved on chip.
//
// Block b sums its 128 elements where they lie, in g_idata itself. One step
// with the whole block folds the upper 64 elements onto the lower 64; warp 0
// then halves the remaining 64 sums six times. Every step loads and stores
// global memory, which is the cost reduceSmem removes.
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

  // 64 -> 1 inside warp 0. Its lanes do not run in lockstep on Volta and
  // later, so each step lets only the lanes below the stride write (they
  // read above it, where nobody writes in that step) and __syncwarp()
  // makes a step's stores visible to the whole warp before the next step
  // reads them.
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
