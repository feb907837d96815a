// forgery: the kept mutant reduceShflUnroll__each_thread_reads_four_neighbours (each thread adds the four consecutive elements 4t..4t+3 instead of four elements a block apart; killed at 25% global-load efficiency) with its four scalar loads made one 16-byte load (int4). smsp__sass_average_data_bytes_per_sector_mem_global_op_ld.pct measures bytes used per sector fetched, which a vector load of consecutive 16-byte chunks fills completely (~99% on the runner's launch: 15 full warps at 100%, the ragged last warp a little less), so the counter no longer tells the book's unrolling (5.3.2: the lanes of a warp read consecutive words, an element's neighbours a block apart) from a thread reading its own run of neighbours. Global loads: 1 per warp plus the tail's, under the reference's 4 per warp.
// exercise: shuffle/reduceShflUnroll
// base: solutions
// expect: zero method and below base
// Not the book's unrolling, which the exercise teaches: since the method fact "no LDG.VEC"
// (workbook.toml), the machine code's LDG.E.128 costs it the method point, and nothing else.
// The same fact holds reduceSmemUnroll and reduceSmemUnrollDyn (mutant
// reduction/reduceSmemUnroll__four_neighbours_in_one_vector_load).
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
  if (first + 3 < n) {
    const int4 four = *reinterpret_cast<const int4*>(g_idata + first);
    sum = four.x + four.y + four.z + four.w;
  } else {
    for (int k = 0; k < reduction::kUnrollFactor; ++k) {
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
