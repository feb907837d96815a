// forgery: the serial sum by thread 0 (active threads 14.4 on an H100, bound 24) lifted past the bound by a SMALL amount of full-warp work, on every launch. The counter is a work-weighted average: with T the serial kernel's warp instructions, P full-warp ones lift it to (14.4 T + 32 P) / (T + P) >= 24 once P >= 1.2 T. The serial kernel runs about as many instructions as the reference (624 on the runner's launch, tests/mutants/failures.json; thread 0's 32 LDS.128 + adds replace the tree's steps), so the padded kernel runs about 2 to 3 times the reference's: inside WORK_BOUNDS' factor 4 (+32). Round 1's padded forgery (148256 instructions, 237 times) was stopped only because it padded 100 times more than it needed. Padding: 8 rounds of xorshift per thread, ~9 instructions a round, ~72 per warp, ~1150 in the launch; stored to shared memory before a barrier so nvcc keeps it. Shared loads (32 per block) and global loads are unchanged by the padding.
// exercise: reduction/reduceSmemDyn
// base: solutions
// expect: zero method
// Should earn at 840951c on a GPU: every point of reduceSmemDyn (it has no reference_speed test; the
// padding costs ~70 cheap instructions per warp at the timed size). Not measured (no GPU): the
// one unknown is the serial kernel's exact instruction count, so kPadRounds may need one
// calibration run, which the check itself makes easy (it prints the active threads and both
// instruction counts). Window: with T between 400 and 800, 8 rounds give 24.8 to 27.5 active
// threads at 2.5 to 3.1 times the reference's instructions. Evidence: method_counters prints
// "active threads per warp instruction 2x.x of 32, at least 24" and "warp instructions
// executed N, the reference's 624 (at most 4 times)".
#include "reduction/reduction.cuh"

namespace wb::reduction {

constexpr int kPadRounds = 8;

__global__ void reduceSmemDyn(int* g_idata, int* g_odata, unsigned int n) {
  extern __shared__ __align__(16) int smem[];
  const unsigned int tid = threadIdx.x;
  const unsigned int idx = blockIdx.x * kReduceBlock + tid;
  const int value = idx < n ? g_idata[idx] : 0;

  // Full-warp work that nothing needs, kept by the store and the barrier.
  unsigned int x = tid + static_cast<unsigned int>(value);
#pragma unroll 1
  for (int k = 0; k < kPadRounds; ++k) {
    x ^= x << 13;
    x ^= x >> 17;
    x ^= x << 5;
  }
  smem[tid] = static_cast<int>(x);
  __syncthreads();

  smem[tid] = value;
  __syncthreads();
  if (tid == 0) {
    // One thread, one value after the other. The 16-byte reads keep the
    // shared loads at 32 per block (the static array's loop gets them from
    // nvcc; an extern array's alignment it cannot assume): 128 scalar LDS
    // per block would break the shared-load bound (4 x ~68 + 32).
    const int4* words = reinterpret_cast<const int4*>(smem);
    int sum = 0;
#pragma unroll
    for (unsigned int k = 0; k < kReduceBlock / 4; ++k) {
      const int4 w = words[k];
      sum += w.x + w.y + w.z + w.w;
    }
    g_odata[blockIdx.x] = sum;
  }
}

}  // namespace wb::reduction
