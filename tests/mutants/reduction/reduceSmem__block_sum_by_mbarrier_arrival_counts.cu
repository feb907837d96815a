// bug: no tree (on sm_90): each thread arrives once on a shared-memory
// mbarrier with an arrival count of its element plus 17, and thread 0 reads
// the block's sum back from the barrier's pending count
// expect: method
// needs: sm_90
// An arrival with a count is a shared-memory atomic add done by the SYNCS
// unit (SYNCS.ARRIVE.TRANS64 in the machine code), which no other class
// counts: "no ATOMS", "no REDUX" and "no VOTE" all held. The sm_75 build
// keeps the tree.
#include "reduction/reduction.cuh"

namespace wb::reduction {

__global__ void reduceSmem(int* g_idata, int* g_odata, unsigned int n) {
  __shared__ int smem[kReduceBlock];
  const unsigned int tid = threadIdx.x;
  const unsigned int idx = blockIdx.x * kReduceBlock + tid;
  smem[tid] = idx < n ? g_idata[idx] : 0;
  __syncthreads();
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 900
  __shared__ __align__(8) unsigned long long bar;
  constexpr unsigned int kExpected = 8192;  // more than the block's arrivals can reach
  const unsigned int b = static_cast<unsigned int>(__cvta_generic_to_shared(&bar));
  // Every thread writes the same initial state: no branch, so no uniform
  // vote of the compiler's around it.
  asm volatile("mbarrier.init.shared::cta.b64 [%0], %1;" ::"r"(b), "r"(kExpected) : "memory");
  __syncthreads();
  const unsigned int count = static_cast<unsigned int>(smem[tid] + 17);  // 1..33
  asm volatile("{ .reg .b64 s; mbarrier.arrive.noComplete.release.cta.shared::cta.b64 s, [%0], %1; }"
               ::"r"(b), "r"(count) : "memory");
  __syncthreads();
  if (tid < 32) {
    // The whole of warp 0 issues thread 0's last arrival (predicated on in
    // lane 0 only): no instruction of the tail runs with one lane.
    unsigned int pending;
    asm volatile(
        "{ .reg .b64 s; .reg .pred p;\n\t"
        "mov.b64 s, 0;\n\t"
        "setp.eq.u32 p, %2, 0;\n\t"
        "@p mbarrier.arrive.noComplete.release.cta.shared::cta.b64 s, [%1], 1;\n\t"
        "mbarrier.pending_count.b64 %0, s; }"
        : "=r"(pending)
        : "r"(b), "r"(tid)
        : "memory");
    const int sum = static_cast<int>(kExpected) - static_cast<int>(pending) - 17 * kReduceBlock;
    if (tid == 0) g_odata[blockIdx.x] = sum;
  }
#else
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
  if (tid == 0) g_odata[blockIdx.x] = smem[0];
#endif
}

}  // namespace wb::reduction
