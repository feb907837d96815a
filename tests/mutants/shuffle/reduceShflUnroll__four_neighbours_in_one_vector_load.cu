// bug: each thread reads its own four neighbouring elements with one 16-byte
// vector load (int4) instead of four elements a block apart: the right sum
// and coalesced, but not the book's unrolling
// expect: method
// As reduceShflUnroll__each_thread_reads_four_neighbours, with its four
// scalar loads made one: the global-load efficiency counter, which catches
// that mutant, reads about 99% here; the machine code shows LDG.E.128.
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
  const unsigned int tid = threadIdx.x;
  const unsigned int first =
      (blockIdx.x * reduction::kReduceBlock + tid) * reduction::kUnrollFactor;
  const unsigned int lane = tid % kWarpSize;
  const unsigned int warp = tid / kWarpSize;

  int sum = 0;
  if (first + reduction::kUnrollFactor <= n) {
    const int4 four = *reinterpret_cast<const int4*>(g_idata + first);
    sum = four.x + four.y + four.z + four.w;
  } else {
    for (unsigned int k = 0; k < reduction::kUnrollFactor; ++k) {
      if (first + k < n) sum += g_idata[first + k];
    }
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
