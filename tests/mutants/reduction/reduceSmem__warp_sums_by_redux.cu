// bug: no tree in shared memory: each warp adds its values with one
// __reduce_add_sync (REDUX), and thread 0 adds the four warp sums
// expect: method
// needs: sm_80
#include "reduction/reduction.cuh"

namespace wb::reduction {

// The warp's sum in one REDUX; a build for a GPU older than sm_80 (where
// this mutant is not run) has no REDUX and adds by butterfly instead.
__device__ int warpSumOneInstruction(int v) {
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 800
  return __reduce_add_sync(0xffffffffu, v);
#else
  for (int offset = 16; offset > 0; offset /= 2) v += __shfl_xor_sync(0xffffffffu, v, offset);
  return v;
#endif
}

__global__ void reduceSmem(int* g_idata, int* g_odata, unsigned int n) {
  __shared__ int smem[kReduceBlock];
  const unsigned int tid = threadIdx.x;
  const unsigned int idx = blockIdx.x * kReduceBlock + tid;
  const int v = idx < n ? g_idata[idx] : 0;
  const int warpSum = warpSumOneInstruction(v);
  if (tid % 32 == 0) smem[tid / 32] = warpSum;
  __syncthreads();
  if (tid == 0) g_odata[blockIdx.x] = smem[0] + smem[1] + smem[2] + smem[3];
}

}  // namespace wb::reduction
