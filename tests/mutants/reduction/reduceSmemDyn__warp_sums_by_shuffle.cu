// bug: reduceShfl's technique under this name: each warp adds its values by
// butterfly shuffles and only the warp sums meet in the dynamic array
// expect: method
#include "reduction/reduction.cuh"

namespace wb::reduction {

__global__ void reduceSmemDyn(int* g_idata, int* g_odata, unsigned int n) {
  extern __shared__ int smem[];
  const unsigned int tid = threadIdx.x;
  const unsigned int idx = blockIdx.x * kReduceBlock + tid;
  int v = idx < n ? g_idata[idx] : 0;
#pragma unroll
  for (int m = 16; m > 0; m >>= 1) v += __shfl_xor_sync(0xffffffffu, v, m);
  if (tid % 32 == 0) smem[tid / 32] = v;
  __syncthreads();
  if (tid == 0) g_odata[blockIdx.x] = smem[0] + smem[1] + smem[2] + smem[3];
}

}  // namespace wb::reduction
