// bug: threads past the end of the input return before the first barrier
// (the book's `if (idx >= n) return;`), so in the last block the rounds add
// shared slots that no thread of this block wrote
// expect: tests
#include "reduction/reduction.cuh"

namespace wb::reduction {

__global__ void reduceNeighboredSmem(int* g_idata, int* g_odata, unsigned int n) {
  __shared__ int smem[kReduceBlock];
  const unsigned int tid = threadIdx.x;
  const unsigned int idx = blockIdx.x * kReduceBlock + tid;
  if (idx >= n) return;
  smem[tid] = g_idata[idx];
  __syncthreads();
  for (unsigned int stride = 1; stride < kReduceBlock; stride *= 2) {
    if (tid % (2 * stride) == 0) smem[tid] += smem[tid + stride];
    __syncthreads();
  }
  if (tid == 0) g_odata[blockIdx.x] = smem[0];
}

}  // namespace wb::reduction
