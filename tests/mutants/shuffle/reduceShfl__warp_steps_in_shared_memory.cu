// bug: reduces each warp through shared memory (reduceSmem's tail) instead
// of by shuffle: the right answer, without the technique
// expect: method
// Book 5.6.3 replaces the shared-memory steps of reduceSmem by five
// butterfly shuffles per warp. This version keeps the steps of reduceSmem,
// in a shared array with __syncwarp() between them: every partial sum is
// right, and no value moves between lanes in registers.
#include "shuffle/shuffle.cuh"

namespace wb::shuffle {

__global__ void reduceShfl(int* g_idata, int* g_odata, unsigned int n) {
  __shared__ int smem[reduction::kReduceBlock];
  const unsigned int tid = threadIdx.x;
  const unsigned int idx = blockIdx.x * reduction::kReduceBlock + tid;

  smem[tid] = idx < n ? g_idata[idx] : 0;
  __syncthreads();
  if (tid < 64) smem[tid] += smem[tid + 64];
  __syncthreads();
  if (tid < 32) {
    for (unsigned int stride = 32; stride > 0; stride /= 2) {
      if (tid < stride) smem[tid] += smem[tid + stride];
      __syncwarp();
    }
  }
  if (tid == 0) g_odata[blockIdx.x] = smem[0];
}

}  // namespace wb::shuffle
