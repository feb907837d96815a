// forgery: GPU-only. A reduceSmem that is right for the first 36 launches in a CUDA context and wrong after them (below 2^22 elements, so never on a timed size): each thread counts launches in a slot of its local frame, which outlives a launch and a module unload (docs/results/fresh-context-nvidia-h200.md). The correctness tests of an exercise run in one process, where about 50 launches happen, so the last of them fail there; graded alone, no test launches the kernel more than 36 times (RandomSizeSweep: 36). A batch's failing test used to run again alone and take that verdict: every test passed, the submission scored what its base does. Now a failure of the batch stands, up to the test in which the first of the harness's CUDA calls failed (wbcore/gtest_verdict.py, WB_CUDA_ERROR_LOG); a fault on purpose after the first wrong answer leaves that test failed: the submission must score below its base. The profile and sanitizer runs give each kernel a fresh context (one launch), and the timed sizes are 2^22 elements or more, so only the correctness points can move.
// exercise: reduction/reduceSmem
// base: solutions
// expect: below base
#include "reduction/reduction.cuh"

namespace wb::reduction {

namespace {

constexpr unsigned int kTag = 0x7a11f00du;
constexpr unsigned int kHonestLaunches = 36;

// This thread's count of launches (of distinct n) its local-frame slot has
// seen, the current one included. The slot's address is offset by the
// dynamic shared size (0 here) so that ptxas cannot trace it and keeps the
// store; one asm statement, so that the load and the store name one array.
__device__ __forceinline__ unsigned int launchesSeen(unsigned int n) {
  unsigned int count;
  asm volatile(
      "{ .local .align 16 .b32 stash[64];\n\t"
      ".reg .u32 a, z, t, l, c, p;\n\t"
      ".reg .pred fresh, moved;\n\t"
      "mov.u32 a, stash;\n\t"
      "mov.u32 z, %%dynamic_smem_size;\n\t"
      "add.u32 a, a, z;\n\t"
      "ld.local.v4.b32 {t, l, c, p}, [a];\n\t"
      "setp.ne.u32 fresh, t, %2;\n\t"
      "@fresh mov.u32 c, 0;\n\t"
      "@fresh not.b32 l, %1;\n\t"
      "setp.ne.u32 moved, l, %1;\n\t"
      "@moved add.u32 c, c, 1;\n\t"
      "mov.u32 p, 0;\n\t"
      "st.local.v4.b32 [a], {%2, %1, c, p};\n\t"
      "mov.u32 %0, c; }"
      : "=r"(count)
      : "r"(n), "r"(kTag)
      : "memory");
  return count;
}

}  // namespace

__global__ void reduceSmem(int* g_idata, int* g_odata, unsigned int n) {
  __shared__ int smem[kReduceBlock];
  const unsigned int tid = threadIdx.x;
  const unsigned int idx = blockIdx.x * kReduceBlock + tid;
  const bool wrong = launchesSeen(n) > kHonestLaunches && n < (1u << 22) && idx < n;

  smem[tid] = (idx < n ? g_idata[idx] : 0) + (wrong ? 1 : 0);
  __syncthreads();

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
}

}  // namespace wb::reduction
