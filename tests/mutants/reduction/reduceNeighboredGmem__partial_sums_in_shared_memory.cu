// bug: the global-memory baseline written with its partial sums in shared
// memory (reduceNeighboredSmem's technique): the right answer, but not the
// baseline the section measures the shared-memory kernels against
// expect: method
// reduceNeighboredGmem is kept slow on purpose: its rounds read and write
// global memory, and reduceNeighboredSmem's speed-up is measured against
// it. Staging the block in shared memory makes the two kernels the same and
// the comparison meaningless.
#include "reduction/reduction.cuh"

namespace wb::reduction {

__global__ void reduceNeighboredGmem(int* g_idata, int* g_odata, unsigned int n) {
  __shared__ int smem[kReduceBlock];
  const unsigned int tid = threadIdx.x;
  const unsigned int idx = blockIdx.x * kReduceBlock + tid;
  smem[tid] = idx < n ? g_idata[idx] : 0;
  __syncthreads();
  for (unsigned int stride = 1; stride < kReduceBlock; stride *= 2) {
    if (tid % (2 * stride) == 0) smem[tid] += smem[tid + stride];
    __syncthreads();
  }
  if (tid == 0) g_odata[blockIdx.x] = smem[0];
}

}  // namespace wb::reduction
