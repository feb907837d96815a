// Book 5.3.1: reduceNeighboredGmem on a shared copy of the block's elements.
// The same rounds and the same idle lanes, but only the first load and the
// final store touch global memory.
#include "reduction/reduction.cuh"

namespace wb::reduction {

__global__ void reduceNeighboredSmem(int* g_idata, int* g_odata, unsigned int n) {
  __shared__ int smem[kReduceBlock];
  const unsigned int tid = threadIdx.x;
  const unsigned int idx = blockIdx.x * kReduceBlock + tid;

  // Threads past the end of the input contribute a 0, so the rounds need no
  // bounds checks and every thread reaches every barrier.
  smem[tid] = idx < n ? g_idata[idx] : 0;
  __syncthreads();

  for (unsigned int stride = 1; stride < kReduceBlock; stride *= 2) {
    if (tid % (2 * stride) == 0) smem[tid] += smem[tid + stride];
    __syncthreads();
  }

  if (tid == 0) g_odata[blockIdx.x] = smem[0];
}

}  // namespace wb::reduction
