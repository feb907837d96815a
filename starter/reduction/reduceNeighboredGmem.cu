// Exercise reduceNeighboredGmem (book section 5.3.1; the kernel of 3.4.2).
// Neighbored-pair reduction in place in global memory: the slow baseline.
// The contract is in chapters/reduction/reduction.cuh; reduceGmem.cu beside
// this file is the worked example to start from.
#include "reduction/reduction.cuh"

namespace wb::reduction {

__global__ void reduceNeighboredGmem(int* g_idata, int* g_odata, unsigned int n) {
  // TODO(book 5.3.1): reduce this block's 128 elements of g_idata in place.
  // Let idata = g_idata + blockIdx.x * kReduceBlock. For stride = 1, 2, 4,
  // ..., 64: every thread with tid % (2 * stride) == 0 adds idata[tid +
  // stride] into idata[tid]; then all threads wait at __syncthreads().
  // Finally thread 0 writes idata[0] to g_odata[blockIdx.x].
  // The last block may have fewer than 128 elements: skip an add whose
  // element is at or past n, but never `return` early, since every thread
  // must reach every __syncthreads().
  // Until then the kernel writes nothing and its tests fail.
  (void)g_idata;
  (void)g_odata;
  (void)n;
}

}  // namespace wb::reduction
