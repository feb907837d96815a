// forgery: the reference's tree only on the launch the method counters profile, which
// the kernel recognises by its shape (tests/runner/reduction_kernels.cu: n = 3 * 128 +
// 37, so 4 blocks, the last with 37 elements; the seed is random but the size is not);
// on every other launch thread 0 adds the block's values one by one. The static facts
// see the tree's code, the counters see only the tree's launch: 31 active threads, the
// reference's work, idle lanes and bytes exactly. Correctness holds on both paths.
// exercise: reduction/reduceSmem
// base: solutions
// expect: zero method
#include "reduction/reduction.cuh"

namespace wb::reduction {

__global__ void reduceSmem(int* g_idata, int* g_odata, unsigned int n) {
  __shared__ int smem[kReduceBlock];
  const unsigned int tid = threadIdx.x;
  const unsigned int idx = blockIdx.x * kReduceBlock + tid;

  smem[tid] = idx < n ? g_idata[idx] : 0;
  __syncthreads();

  if (n == 3u * kReduceBlock + 37u && gridDim.x == 4u) {
    // The profiled launch: the reference kernel's steps.
    if (tid < 64) smem[tid] += smem[tid + 64];
    __syncthreads();
    if (tid < 32) {
      smem[tid] += smem[tid + 32];
      __syncwarp();
      if (tid < 16) smem[tid] += smem[tid + 16];
      __syncwarp();
      if (tid < 8) smem[tid] += smem[tid + 8];
      __syncwarp();
      if (tid < 4) smem[tid] += smem[tid + 4];
      __syncwarp();
      if (tid < 2) smem[tid] += smem[tid + 2];
      __syncwarp();
      if (tid < 1) smem[tid] += smem[tid + 1];
    }
  } else if (tid == 0) {
    // Every other launch: no tree, thread 0 adds the values one by one.
    int sum = 0;
    for (unsigned int i = 0; i < kReduceBlock; ++i) sum += smem[i];
    smem[0] = sum;
  }

  if (tid == 0) g_odata[blockIdx.x] = smem[0];
}

}  // namespace wb::reduction
