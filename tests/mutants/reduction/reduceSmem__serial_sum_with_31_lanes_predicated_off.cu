// bug: no tree: thread 0 adds the block's 128 values one by one, every
// instruction of its serial sum issued by the whole of warp 0 under a
// predicate true in lane 0 only (inline PTX, no branch): the active threads
// and idle lanes look like a tree's, but the values are loaded from shared
// memory once, by one lane, and no partial sum is stored
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
    const unsigned int base = static_cast<unsigned int>(__cvta_generic_to_shared(smem));
    int sum = 0;
    // One warp instruction per step, all 32 lanes issuing it; only lane 0's
    // predicate is true: the serial sum of thread 0, without a branch.
#pragma unroll
    for (unsigned int k = 0; k < kReduceBlock / 4; ++k) {
      asm volatile(
          "{ .reg .pred p; .reg .s32 a, b, c, d;\n\t"
          "setp.eq.u32 p, %1, 0;\n\t"
          "@p ld.shared.v4.s32 {a, b, c, d}, [%2];\n\t"
          "@p add.s32 %0, %0, a;\n\t"
          "@p add.s32 %0, %0, b;\n\t"
          "@p add.s32 %0, %0, c;\n\t"
          "@p add.s32 %0, %0, d; }"
          : "+r"(sum)
          : "r"(tid), "r"(base + 16u * k)
          : "memory");
    }
    if (tid == 0) g_odata[blockIdx.x] = sum;
  }
}

}  // namespace wb::reduction
