// bug: one thread adds the block's values one by one (no tree), and every
// thread first runs a little full-warp work that nothing needs: just enough
// to lift the launch's active threads per instruction past the tree's bound
// (25.6 of 32 on an H100) at 3.1 times the reference's warp instructions,
// inside the work bound of 4
// expect: profile
// Whatever surrounds it, the serial sum leaves 31 lanes idle for each of its
// adds: 12,513 idle lanes on the runner's launch against the reference's 620
// (H100), where the bound is 4 times.
#include "reduction/reduction.cuh"

namespace wb::reduction {

constexpr int kPadRounds = 8;

__global__ void reduceSmemDyn(int* g_idata, int* g_odata, unsigned int n) {
  extern __shared__ __align__(16) int smem[];
  const unsigned int tid = threadIdx.x;
  const unsigned int idx = blockIdx.x * kReduceBlock + tid;
  const int value = idx < n ? g_idata[idx] : 0;

  // Full-warp work that nothing needs, kept by the store and the barrier.
  unsigned int x = tid + static_cast<unsigned int>(value);
#pragma unroll 1
  for (int k = 0; k < kPadRounds; ++k) {
    x ^= x << 13;
    x ^= x >> 17;
    x ^= x << 5;
  }
  smem[tid] = static_cast<int>(x);
  __syncthreads();

  smem[tid] = value;
  __syncthreads();
  if (tid == 0) {
    // One thread, one value after the other. The 16-byte reads keep the
    // shared loads at 32 per block (the static array's loop gets them from
    // nvcc; an extern array's alignment it cannot assume): 128 scalar LDS
    // per block would break the shared-load bound (4 x ~68 + 32).
    const int4* words = reinterpret_cast<const int4*>(smem);
    int sum = 0;
#pragma unroll
    for (unsigned int k = 0; k < kReduceBlock / 4; ++k) {
      const int4 w = words[k];
      sum += w.x + w.y + w.z + w.w;
    }
    g_odata[blockIdx.x] = sum;
  }
}

}  // namespace wb::reduction
