// forgery: the forgery reduceSmem__hangs_after_many_launches_in_a_process with a test made slow on purpose before the hang, in the batch only: where SumsEveryBlock's size (1<<24)+3 is launched after another size in one context, block 0 spins 20 s and then adds honestly, so that the sweep which hangs from the 37th launch on has run only a few seconds when the batch stops at its 30 s; run alone, no test launches 37 times. The running test fails however long it had run (wbcore/gtest_verdict.py), so the sweep's hang stands.
// exercise: reduction/reduceSmem
// base: solutions
// expect: below base
#include "reduction/reduction.cuh"

namespace wb::reduction {

namespace {

constexpr unsigned int kTag = 0x7a11f00du;
constexpr unsigned int kHonestLaunches = 36;
// The one size of SumsEveryBlock past 2^22 (tests/reduction/reduction_test.cu kSizes).
constexpr unsigned int kLastFixedSize = (1u << 24) + 3;
// That size launched after another in the same context: the batch (where it is
// the 14th); alone its test launches once.
constexpr unsigned int kSeenInTheBatch = 2;
constexpr unsigned long long kSpinNs = 20ull * 1000 * 1000 * 1000;

// As in the recorded forgery: this thread's count of launches (of distinct n)
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

__device__ __forceinline__ unsigned long long now() {
  unsigned long long t;
  asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(t));
  return t;
}

}  // namespace

__global__ void reduceSmem(int* g_idata, int* g_odata, unsigned int n) {
  __shared__ int smem[kReduceBlock];
  const unsigned int tid = threadIdx.x;
  const unsigned int idx = blockIdx.x * kReduceBlock + tid;
  const unsigned int seen = launchesSeen(n);
  if (seen > kHonestLaunches && n < (1u << 22)) {
    // As the recorded forgery: only in a process that has launched the
    // kernel 36 times already. Never wrong: it never answers.
    for (;;) __nanosleep(1u << 20);
  }
  if (n == kLastFixedSize && seen >= kSeenInTheBatch && blockIdx.x == 0 && tid == 0) {
    // The batch only: a test that ends, right, 20 s later.
    const unsigned long long until = now() + kSpinNs;
    while (now() < until) __nanosleep(1u << 20);
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
