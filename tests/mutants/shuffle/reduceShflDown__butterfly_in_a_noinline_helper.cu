// bug: reduceShfl's butterfly handed in as reduceShflDown, each __shfl_xor_sync
// alone in a __noinline__ helper (SHFL; RET, the shape of the toolkit's own
// shuffle helper), with one shift down by zero for "needs SHFL.DOWN"
// expect: method
// The helper's shuffle counts at each of its ten calls, as if inlined: ten
// SHFL.BFLY where the exercise allows none.
#include "shuffle/shuffle.cuh"

namespace wb::shuffle {
namespace {

__device__ __noinline__ int xorPartner(int value, int laneMask) {
  return __shfl_xor_sync(0xffffffffu, value, laneMask);
}

__device__ int warpReduce(int value) {
  for (int m = 16; m > 0; m >>= 1) value += xorPartner(value, m);
  return value;
}

}  // namespace

__global__ void reduceShflDown(int* g_idata, int* g_odata, unsigned int n) {
  __shared__ int smem[kWarpSums];
  const unsigned int tid = threadIdx.x;
  const unsigned int idx = blockIdx.x * reduction::kReduceBlock + tid;
  const unsigned int lane = tid % kWarpSize;
  const unsigned int warp = tid / kWarpSize;
  int sum = idx < n ? g_idata[idx] : 0;
  sum = warpReduce(sum);
  // Every lane holds its warp's sum: a shift down by n >> 31 (0 for any n
  // the contract allows, unknown to the compiler) keeps it. Each warp runs
  // this SHFL.DOWN once, whether or not Nsight Compute's first SASS table
  // shows the helper's shuffles.
  sum = __shfl_down_sync(0xffffffffu, sum, n >> 31);
  if (lane == 0) smem[warp] = sum;
  __syncthreads();
  if (warp == 0) {
    sum = lane < kWarpSums ? smem[lane] : 0;
    sum = warpReduce(sum);
    if (lane == 0) g_odata[blockIdx.x] = sum;
  }
}

}  // namespace wb::shuffle
