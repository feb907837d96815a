// bug: no tree: warp 0's lanes each add a column of the block's values, then
// every lane of warp 0 re-adds the 32 column sums by broadcast int4 loads;
// about 31 active threads and few idle lanes, but each lane loads the
// column sums again, four and a half times the reference's shared bytes
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
    const int column = smem[tid] + smem[tid + 32] + smem[tid + 64] + smem[tid + 96];
    __syncwarp();
    smem[tid] = column;
    __syncwarp();
    const int4* words = reinterpret_cast<const int4*>(smem);
    int sum = 0;
#pragma unroll
    for (int k = 0; k < kReduceBlock / 4 / 4; ++k) {
      const int4 w = words[k];
      sum += w.x + w.y + w.z + w.w;
    }
    __syncwarp();
    smem[tid] = sum;
    __syncwarp();
    if (tid == 0) g_odata[blockIdx.x] = smem[0];
  }
}

}  // namespace wb::reduction
