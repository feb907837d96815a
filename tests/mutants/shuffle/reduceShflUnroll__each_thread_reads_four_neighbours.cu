// bug: each thread adds four consecutive elements instead of four elements
// one block apart, so a warp's load spans four times the bytes it uses
// expect: profile
// Book 5.3.2's unrolling keeps every warp load coalesced: element k of a
// thread is k blocks of 128 away, and the 32 lanes read 32 consecutive
// words. Reading first*4 .. first*4+3 is still the right sum, and every
// correctness test passes; Nsight Compute's global-load efficiency drops to
// about a quarter of the bytes fetched.
#include "shuffle/shuffle.cuh"

namespace wb::shuffle {
namespace {

__device__ int warpSum(int value) {
  for (int laneMask = kWarpSize / 2; laneMask > 0; laneMask /= 2) {
    value += __shfl_xor_sync(0xffffffffu, value, laneMask);
  }
  return value;
}

}  // namespace

__global__ void reduceShflUnroll(int* g_idata, int* g_odata, unsigned int n) {
  __shared__ int smem[kWarpSums];
  constexpr unsigned int kBlock = reduction::kReduceBlock;
  const unsigned int tid = threadIdx.x;
  const unsigned int first = (blockIdx.x * kBlock + tid) * reduction::kUnrollFactor;
  const unsigned int lane = tid % kWarpSize;
  const unsigned int warp = tid / kWarpSize;

  int sum = 0;
  for (int k = 0; k < reduction::kUnrollFactor; ++k) {
    const unsigned int idx = first + k;
    if (idx < n) sum += g_idata[idx];
  }

  sum = warpSum(sum);
  if (lane == 0) smem[warp] = sum;
  __syncthreads();
  if (warp == 0) {
    sum = lane < kWarpSums ? smem[lane] : 0;
    sum = warpSum(sum);
    if (lane == 0) g_odata[blockIdx.x] = sum;
  }
}

}  // namespace wb::shuffle
