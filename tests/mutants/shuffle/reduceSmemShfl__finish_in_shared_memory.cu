// bug: warp 0 finishes with reduceSmem's shared-memory steps, a __syncwarp()
// between each, instead of shuffles: the right answer, without the technique
// expect: method
// Every partial sum is right and the kernel declares reduceSmem's array, so
// only its machine code tells it from the exercise: no SHFL at all, and a
// shared-memory store for each of the warp's six steps.
#include "shuffle/shuffle.cuh"

namespace wb::shuffle {

__global__ void reduceSmemShfl(int* g_idata, int* g_odata, unsigned int n) {
  __shared__ int smem[reduction::kReduceBlock];
  const unsigned int tid = threadIdx.x;
  const unsigned int idx = blockIdx.x * reduction::kReduceBlock + tid;

  smem[tid] = idx < n ? g_idata[idx] : 0;
  __syncthreads();
  if (tid < 64) smem[tid] += smem[tid + 64];
  __syncthreads();

  if (tid < kWarpSize) {
    for (unsigned int stride = kWarpSize; stride > 0; stride /= 2) {
      if (tid < stride) smem[tid] += smem[tid + stride];
      __syncwarp();
    }
    if (tid == 0) g_odata[blockIdx.x] = smem[0];
  }
}

}  // namespace wb::shuffle
