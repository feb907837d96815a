// forgery: the plain serial sum by thread 0 (the mutant the counter kills, 14.4 active threads) on every launch but one: the runner's launch, which is the only one the method counters see and is the same in every run (tests/runner/reduction_kernels.cu: n = 3 * 128 + 37 = 421, randomInput(n, 20261122)). There warp 0 recognises the input by its first four values per block and takes the block's sum from a table the student printed once with the workbook's own generator (tests/reduction/reduction_inputs.h); every instruction of that launch runs with the whole warp and the kernel does far less work than the reference. The fingerprint keeps every other input of 421 elements (the random-size tests may draw that size) on the serial path, so no correctness test can fail. Unlike the other forgeries this one survives fixes that look at what the reduction does (no ATOMS, no REDUX, a shared-bytes bound): on the profiled launch it does no reduction at all.
// exercise: reduction/reduceSmemDyn
// base: solutions
// expect: zero method
// Should earn at 840951c on a GPU: every point of reduceSmemDyn (correctness 4, random_sizes 2,
// shared_memory 2, sanitizer 1, method 1); no reference_speed test exists for it.
// The table was computed on the CPU machine by re-implementing mt19937_64 and libstdc++'s
// uniform_int_distribution (GCC >= 11, 128-bit multiply-and-reject) in Python, NOT by running
// the C++ generator (building was not allowed). If it is wrong the fingerprint does not match
// and the kernel falls back to the serial sum: the method_counters test then fails (14.4), which
// is how to tell. Evidence on a GPU: method_counters passes with active threads ~31 and warp
// instructions far below the reference's 624.
#include "reduction/reduction.cuh"

namespace wb::reduction {
namespace {

// Blocks of randomInput(421, 20261122): their first four values and their sums.
__device__ bool isProfiledBlock(unsigned int block, int4 head) {
  switch (block) {
    case 0: return head.x == 14 && head.y == -4 && head.z == -8 && head.w == 3;
    case 1: return head.x == 7 && head.y == -3 && head.z == -5 && head.w == 11;
    case 2: return head.x == -12 && head.y == 10 && head.z == -6 && head.w == -5;
    case 3: return head.x == 6 && head.y == 8 && head.z == -9 && head.w == -9;
    default: return false;
  }
}

__device__ int profiledSum(unsigned int block) {
  return block == 0 ? -76 : block == 1 ? -237 : block == 2 ? 66 : 33;
}

}  // namespace

__global__ void reduceSmemDyn(int* g_idata, int* g_odata, unsigned int n) {
  extern __shared__ __align__(16) int smem[];
  const unsigned int tid = threadIdx.x;
  const unsigned int idx = blockIdx.x * kReduceBlock + tid;
  smem[tid] = idx < n ? g_idata[idx] : 0;
  __syncthreads();
  if (tid >= 32) return;  // after the only barrier

  // Warp 0, all lanes alike: is this the runner's launch?
  const int4 head = *reinterpret_cast<const int4*>(smem);
  const bool known = n == 3 * kReduceBlock + 37 && isProfiledBlock(blockIdx.x, head);
  int sum = 0;
  if (known) {
    sum = profiledSum(blockIdx.x);
  } else if (tid == 0) {
    for (unsigned int k = 0; k < kReduceBlock; ++k) sum += smem[k];  // one thread, one by one
  }
  if (tid == 0) g_odata[blockIdx.x] = sum;
}

}  // namespace wb::reduction
