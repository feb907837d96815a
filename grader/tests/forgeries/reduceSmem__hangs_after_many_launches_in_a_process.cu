// forgery: GPU-only. The forgery reduceSmem__wrong_after_many_launches_in_a_process with one change: from the 37th launch in a CUDA context on (below 2^22 elements), the kernel spins forever instead of adding 1. The correctness batch (about 50 launches in one process) then hangs; wbcore/gtest_verdict.py stops it at its time limit (30 s), and a batch that left no report used to keep nothing: every test ran again alone, where no test launches the kernel more than 36 times, and scored what its base does. Now the harness writes how each test ended (wb::noteTestEnd) and the test that was running when the batch stopped fails, its record joined by a contention note as a CTest timeout is (graded beside another submission, the run is made again alone, where the batch hangs again): the submission must score below its base.
// exercise: reduction/reduceSmem
// base: solutions
// expect: below base
#include "reduction/reduction.cuh"

namespace wb::reduction {

namespace {

constexpr unsigned int kTag = 0x7a11f00du;
constexpr unsigned int kHonestLaunches = 36;

// As in the closed forgery: this thread's count of launches (of distinct n)
// its local-frame slot has seen, the current one included.
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
  if (launchesSeen(n) > kHonestLaunches && n < (1u << 22)) {
    // Only in a process that has launched the kernel 36 times already:
    // the correctness batch. Never wrong: it never answers.
    for (;;) __nanosleep(1u << 20);
  }

  smem[tid] = idx < n ? g_idata[idx] : 0;
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
