// bug: no tree: after the unrolled loads each thread adds its register sum
// into one shared word with atomicAdd, and thread 0 stores that word
// expect: method
// The answer is right, the loads are the book's (coalesced) and every
// instruction runs with the whole warp, so the counters see nothing wrong;
// the machine code shows the shared-memory atomic (ATOMS) that replaces the
// halving steps.
#include "reduction/reduction.cuh"

namespace wb::reduction {

__global__ void reduceSmemUnroll(int* g_idata, int* g_odata, unsigned int n) {
  __shared__ int smem[kReduceBlock];
  const unsigned int tid = threadIdx.x;
  const unsigned int blockStart = blockIdx.x * (kReduceBlock * kUnrollFactor);
  const unsigned int remaining = n - blockStart;

  int sum = 0;
#pragma unroll
  for (unsigned int k = 0; k < kUnrollFactor; ++k) {
    const unsigned int i = tid + k * kReduceBlock;
    if (i < remaining) sum += g_idata[blockStart + i];
  }

  if (tid == 0) smem[0] = 0;
  __syncthreads();
  atomicAdd(&smem[0], sum);
  __syncthreads();
  if (tid == 0) g_odata[blockIdx.x] = smem[0];
}

}  // namespace wb::reduction
