// Book 5.3.1 (the kernel of 3.4.2): neighbored pairs, in place in global
// memory. In the round with stride s, every thread whose index is a
// multiple of 2s adds the element s places to its right; after log2(128) = 7
// rounds element 0 holds the block's sum. Only every (2s)-th thread works,
// so most lanes of a warp idle while global memory is read and written in
// every round: the slowest kernel of the section.
#include "reduction/reduction.cuh"

namespace wb::reduction {

__global__ void reduceNeighboredGmem(int* g_idata, int* g_odata, unsigned int n) {
  const unsigned int tid = threadIdx.x;
  const unsigned int blockStart = blockIdx.x * kReduceBlock;
  int* idata = g_idata + blockStart;
  // Elements from here to the end of the input (fewer than 128 only in the
  // last block). Adds that would read past the end are skipped; nobody
  // returns early, since all threads must meet at every barrier.
  const unsigned int remaining = n - blockStart;

  for (unsigned int stride = 1; stride < kReduceBlock; stride *= 2) {
    if (tid % (2 * stride) == 0 && tid + stride < remaining) idata[tid] += idata[tid + stride];
    __syncthreads();  // a round must finish before the next reads its sums
  }

  if (tid == 0) g_odata[blockIdx.x] = idata[0];
}

}  // namespace wb::reduction
