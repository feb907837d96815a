// forgery: GPU-only. One thread adds the block's values one by one (no tree), and on the runner's launch (n = 3 blocks and 37 elements, which the kernel recognises) every thread first runs 1024 rounds of full-warp work, which lifts the launch's active threads per warp instruction to 31.9 (H100), past the method counter's bound of 24. The method and profile tests also hold the kernel's work to the reference's on the same launch: 148,256 warp instructions against 624, far past 4 times, so the method points are lost
// exercise: reduction/reduceSmemDyn
// base: solutions
// expect: zero method
#include "reduction/reduction.cuh"

namespace wb::reduction {

__global__ void reduceSmemDyn(int* g_idata, int* g_odata, unsigned int n) {
  extern __shared__ int smem[];
  const unsigned int tid = threadIdx.x;
  const unsigned int idx = blockIdx.x * kReduceBlock + tid;
  const int value = idx < n ? g_idata[idx] : 0;
  if (n == 3 * kReduceBlock + 37) {
    // The profiled launch: full-warp work nobody needs, to lift the average.
    // Stored before a barrier, so the compiler must keep it.
    unsigned int x = tid + static_cast<unsigned int>(value);
#pragma unroll 1
    for (int k = 0; k < 1024; ++k) {
      x ^= x << 13;
      x ^= x >> 17;
      x ^= x << 5;
    }
    smem[tid] = static_cast<int>(x);
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
