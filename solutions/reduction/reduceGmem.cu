// Book 5.3.1: parallel reduction in place in global memory. The worked
// example: the shared-memory kernels of this section are this kernel with
// the partial sums moved on chip.
//
// Block b sums its 128 elements where they lie, in g_idata itself. One step
// with the whole block folds the upper 64 elements onto the lower 64; warp 0
// then halves the remaining 64 sums six times, every lane loading and storing
// global memory at every step, as the book's kernel does. That traffic is
// what reduceSmem removes, and what the section's measurements compare.
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

  // 64 -> 1 inside warp 0, with the book's memory traffic: at every step
  // all 32 lanes load two sums and store one, through a volatile pointer so
  // that each really goes to global memory, although only the lanes below
  // the stride compute a sum that is read later. The book writes each step
  // as `vmem[tid] += vmem[tid + stride]` with no barrier, relying on the
  // warp's lanes running in lockstep; on Volta and later they need not, and
  // lane 3 may read idata[19] before or after lane 19 has overwritten it (a
  // race). So each step loads both operands, waits for the whole warp
  // (__syncwarp), stores, and waits again: every lane reads the previous
  // step's sums, and the loads and stores are still the book's.
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
