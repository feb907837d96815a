// bug: no tree over the block's values: warp 0 reads columns of them straight
// from global memory (coalesced) and only the 32 column sums pass through the
// shared array, so the lanes store a small share of the reference's bytes to
// shared memory; the other warps return at once
// expect: profile
#include "reduction/reduction.cuh"

namespace wb::reduction {

__global__ void reduceSmem(int* g_idata, int* g_odata, unsigned int n) {
  __shared__ __align__(16) int smem[kReduceBlock];
  const unsigned int tid = threadIdx.x;
  const unsigned int base = blockIdx.x * kReduceBlock;
  __syncthreads();  // "needs BAR"
  if (tid >= 32) return;
  int column = 0;
#pragma unroll
  for (unsigned int k = 0; k < kReduceBlock / 32; ++k) {
    const unsigned int i = base + tid + 32 * k;
    column += i < n ? g_idata[i] : 0;
  }
  smem[tid] = column;
  __syncwarp();
  const int4* words = reinterpret_cast<const int4*>(smem);
  int sum = 0;
#pragma unroll
  for (int k = 0; k < 8; ++k) {
    const int4 w = words[k];
    sum += w.x + w.y + w.z + w.w;
  }
  __syncwarp();
  smem[tid] = sum;
  __syncwarp();
  if (tid == 0) g_odata[blockIdx.x] = smem[0];
}

}  // namespace wb::reduction
