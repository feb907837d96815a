// bug: the block loads its elements into shared memory, then thread 0 adds
// the 128 values one by one: right answer, stores, loads and a barrier,
// but no tree
// expect: profile
// Book 5.3.1 halves the partial sums in shared memory each step, so a
// block's sum takes 7 steps. A serial sum by one thread passes every
// correctness test and shows the instructions the method facts look for
// (STS, LDS, BAR, one STG), and the compiler vectorises its loads (32
// LDS.128 per block, fewer loads than the tree's); what gives it away is
// that most of its instructions run with one lane active (Nsight Compute's
// active threads per warp instruction).
#include "reduction/reduction.cuh"

namespace wb::reduction {

__global__ void reduceSmem(int* g_idata, int* g_odata, unsigned int n) {
  __shared__ int smem[kReduceBlock];
  const unsigned int tid = threadIdx.x;
  const unsigned int idx = blockIdx.x * kReduceBlock + tid;
  smem[tid] = idx < n ? g_idata[idx] : 0;
  __syncthreads();
  if (tid == 0) {
    int sum = 0;
    for (unsigned int k = 0; k < kReduceBlock; ++k) sum += smem[k];
    g_odata[blockIdx.x] = sum;
  }
}

}  // namespace wb::reduction
