// bug: finishes the block's sum with atomicAdd on g_odata instead of the
// shared-memory steps: the right partial sums, by another technique
// expect: method
// Book 5.3.1 reduces the block's 128 values in shared memory down to one.
// Here the first step runs in shared memory, then 64 threads add their
// values into the block's output with global atomics, which the hardware
// serialises on one address: correct, and not the reduction the section
// teaches.
#include "reduction/reduction.cuh"

namespace wb::reduction {

__global__ void reduceSmem(int* g_idata, int* g_odata, unsigned int n) {
  __shared__ int smem[kReduceBlock];
  const unsigned int tid = threadIdx.x;
  const unsigned int idx = blockIdx.x * kReduceBlock + tid;

  smem[tid] = idx < n ? g_idata[idx] : 0;
  if (tid == 0) g_odata[blockIdx.x] = 0;
  __syncthreads();
  if (tid < 64) atomicAdd(&g_odata[blockIdx.x], smem[tid] + smem[tid + 64]);
}

}  // namespace wb::reduction
