// forgery: the serial sum (no tree) with one word changed: instead of thread 0, all 32 lanes of warp 0 add the block's 128 values one by one, each lane the same sum (every LDS.128 is a broadcast: all lanes read the same 16 bytes, one wavefront), and lane 0 stores it. The method counter reads smsp__thread_inst_executed_per_inst_executed, the active lanes per warp instruction: the serial loop now runs with 32 lanes, so the average is ~31.8 (bound 24; the thread-0 version measured 14.4). The work bounds hold: per block ~4 x 14 full-warp setup instructions plus ~32 LDS.128 + ~64 IADD3 by warp 0, against 624 / 4 = 156 per block for the reference (measured, tests/mutants/failures.json), so about 1.0-1.3 times (bound 4); shared loads 32 per block against the tree's ~17 (bound 4 x + 32); global loads identical.
// exercise: reduction/reduceSmem
// base: solutions
// expect: zero method
// Should earn at 840951c on a GPU: correctness 4, random_sizes 2, shared_memory 2, sanitizer 1 and
// method 1 (static facts STS, LDS, BAR, one STG, no ATOMG; method_counters passes); only the
// reference_speed (2) is in doubt (a 32-load dependent chain per block, memory-bound at the timed
// size: probably within tolerance, unmeasured). The same change works for reduceSmemDyn,
// reduceSmemUnroll and reduceSmemUnrollDyn (their register sums staged the same way).
// Evidence: method_counters prints active threads >= 31 and warp instructions within 2x of the
// reference's.
#include "reduction/reduction.cuh"

namespace wb::reduction {

__global__ void reduceSmem(int* g_idata, int* g_odata, unsigned int n) {
  __shared__ __align__(16) int smem[kReduceBlock];
  const unsigned int tid = threadIdx.x;
  const unsigned int idx = blockIdx.x * kReduceBlock + tid;
  smem[tid] = idx < n ? g_idata[idx] : 0;
  __syncthreads();
  if (tid < 32) {
    // Every lane of warp 0 adds all 128 values in order: a serial sum,
    // repeated 32 times so that no lane is idle.
    const int4* words = reinterpret_cast<const int4*>(smem);
    int sum = 0;
#pragma unroll
    for (unsigned int k = 0; k < kReduceBlock / 4; ++k) {
      const int4 w = words[k];
      sum += w.x + w.y + w.z + w.w;
    }
    if (tid == 0) g_odata[blockIdx.x] = sum;
  }
}

}  // namespace wb::reduction
