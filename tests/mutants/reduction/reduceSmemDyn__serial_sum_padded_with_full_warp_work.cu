// bug: one thread adds the block's values one by one (no tree), and on the
// runner's launch every thread first runs a long loop of full-warp work
// that nothing needs, which lifts the launch's active threads per
// instruction past the tree's bound (31.9 of 32 on an H100)
// expect: profile
// The counters are averages over the launch; padding moves them, but it
// multiplies the work: 237 times the reference's warp instructions on the
// same launch (H100), far past the bound of 4.
#include "reduction/reduction.cuh"

namespace wb::reduction {

__global__ void reduceSmemDyn(int* g_idata, int* g_odata, unsigned int n) {
  extern __shared__ int smem[];
  const unsigned int tid = threadIdx.x;
  const unsigned int idx = blockIdx.x * kReduceBlock + tid;
  const int value = idx < n ? g_idata[idx] : 0;
  if (n < 4 * kReduceBlock) {
    // A small launch, as the runner's: busy work with every lane, written
    // to shared memory before a barrier so the compiler keeps it.
    unsigned int mixed = tid + static_cast<unsigned int>(value);
#pragma unroll 1
    for (int round = 0; round < 1024; ++round) {
      mixed ^= mixed << 13;
      mixed ^= mixed >> 17;
      mixed ^= mixed << 5;
    }
    smem[tid] = static_cast<int>(mixed);
    __syncthreads();
  }
  smem[tid] = value;
  __syncthreads();
  if (tid == 0) {
    int sum = 0;
    for (unsigned int k = 0; k < kReduceBlock; ++k) sum += smem[k];
    g_odata[blockIdx.x] = sum;
  }
}

}  // namespace wb::reduction
