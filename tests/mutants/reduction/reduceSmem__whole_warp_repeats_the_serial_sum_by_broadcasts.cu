// bug: no tree: each of warp 0's 32 lanes adds all of the block's values in the same
// order, every shared load a broadcast, and stores its sum: the active threads stay
// near 32 and the shared-memory bytes Nsight Compute counts (a broadcast's once) near
// the reference's, but each lane loads the whole block's values
// expect: profile
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
      const int4 w = words[k];
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
