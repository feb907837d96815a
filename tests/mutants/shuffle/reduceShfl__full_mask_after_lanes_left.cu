// bug: only the lanes that hold a warp sum (tid < kWarpSums) enter warp 0's
// final reduction, but its shuffles still name all 32 lanes in their mask;
// the lanes that stayed out still hold this warp's own sum in `sum`, which is
// what a shuffle reads from a lane that did not take part (undefined by the
// programming guide; measured on an H100 with nvcc 13, see shuffle notes)
// expect: tests
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

__global__ void reduceShfl(int* g_idata, int* g_odata, unsigned int n) {
  __shared__ int smem[kWarpSums];
  const unsigned int tid = threadIdx.x;
  const unsigned int idx = blockIdx.x * reduction::kReduceBlock + tid;
  const unsigned int lane = tid % kWarpSize;
  const unsigned int warp = tid / kWarpSize;
  int sum = idx < n ? g_idata[idx] : 0;
  sum = warpReduce(sum);
  if (lane == 0) smem[warp] = sum;
  __syncthreads();
  if (tid < kWarpSums) {
    sum = smem[tid];
    sum = warpReduce(sum);
    if (tid == 0) g_odata[blockIdx.x] = sum;
  }
}

}  // namespace wb::shuffle
