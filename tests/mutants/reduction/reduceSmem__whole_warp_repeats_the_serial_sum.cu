// bug: no tree: each of warp 0's 32 lanes adds all of the block's values one
// by one, each lane starting at another 16 bytes (the same serial sum, 32
// times), and stores its sum, so no lane idles and the active threads per
// instruction stay near 32
// expect: profile
// Every lane reads every value: the threads load 32 times the bytes of one
// serial sum from shared memory, 16 times the tree's on the runner's launch,
// where the bound is 4 times the reference's.
#include "reduction/reduction.cuh"

namespace wb::reduction {

__global__ void reduceSmem(int* g_idata, int* g_odata, unsigned int n) {
  __shared__ __align__(16) int smem[kReduceBlock];
  const unsigned int tid = threadIdx.x;
  const unsigned int idx = blockIdx.x * kReduceBlock + tid;
  smem[tid] = idx < n ? g_idata[idx] : 0;
  __syncthreads();
  if (tid < 32) {
    const int4* words = reinterpret_cast<const int4*>(smem);
    int sum = 0;
#pragma unroll
    for (unsigned int k = 0; k < kReduceBlock / 4; ++k) {
      const int4 w = words[(k + tid) % (kReduceBlock / 4)];
      sum += w.x + w.y + w.z + w.w;
    }
    // Every lane's sum is stored, so that the compiler cannot leave the
    // loop to lane 0 alone (as it does when only lane 0's sum is used).
    __syncwarp();
    smem[tid] = sum;
    __syncwarp();
    if (tid == 0) g_odata[blockIdx.x] = smem[0];
  }
}

}  // namespace wb::reduction
