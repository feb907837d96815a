// bug: no neighbored rounds in global memory: each warp adds its values with
// one __reduce_add_sync (REDUX) and the warp sums are added from global memory
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

__global__ void reduceNeighboredGmem(int* g_idata, int* g_odata, unsigned int n) {
  const unsigned int tid = threadIdx.x;
  const unsigned int idx = blockIdx.x * kReduceBlock + tid;
  const int sum = warpSumOneInstruction(idx < n ? g_idata[idx] : 0);
  if (tid % 32 == 0 && idx < n) g_idata[idx] = sum;
  __syncthreads();
  if (tid == 0) {
    int total = sum;
    for (unsigned int w = 32; w < kReduceBlock && idx + w < n; w += 32) total += g_idata[idx + w];
    g_odata[blockIdx.x] = total;
  }
}

}  // namespace wb::reduction
