// forgery: each warp adds its 32 register sums with one REDUX (__reduce_add_sync, sm_80 and newer) instead of five shuffles; only warp 0's last step (the 4 warp sums) uses the butterfly. wbcore/sass.py has no class for REDUX, so no method fact can see it; the shuffle counter averages over the launch (shuffle_counter: shuffles / warps): 20 SHFL by 16 warps = 1.25 >= 1, all with 32 lanes. Everything else is the reference (loads a block apart: coalesced; the 16-byte smem[kWarpSums]).
// exercise: shuffle/reduceShflUnroll
// base: solutions
// expect: zero method
// Should earn at 840951c on a GPU built for sm_80+ (native on an H100): every point of the exercise,
// method 1 included. On an sm_75 build the #else path is the reference's, so nothing is gained
// there. Evidence: nvdisasm of the sm_90 cubin shows REDUX.SUM and 5 SHFL.BFLY; method_counters
// prints 1.25 shuffles per warp (reference 6.25).
#include "shuffle/shuffle.cuh"

namespace wb::shuffle {
namespace {

__device__ int warpReduce(int value) {
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
  const unsigned int first = blockIdx.x * kBlock * reduction::kUnrollFactor + tid;
  const unsigned int lane = tid % kWarpSize;
  const unsigned int warp = tid / kWarpSize;

  int sum = 0;
#pragma unroll
  for (int k = 0; k < reduction::kUnrollFactor; ++k) {
    const unsigned int idx = first + k * kBlock;
    if (idx < n) sum += g_idata[idx];
  }

#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 800
  sum = __reduce_add_sync(0xffffffffu, sum);  // REDUX: the warp's sum, no shuffle
#else
  sum = warpReduce(sum);
#endif
  if (lane == 0) smem[warp] = sum;
  __syncthreads();

  if (warp == 0) {
    sum = lane < kWarpSums ? smem[lane] : 0;
    sum = warpReduce(sum);
    if (lane == 0) g_odata[blockIdx.x] = sum;
  }
}

}  // namespace wb::shuffle
