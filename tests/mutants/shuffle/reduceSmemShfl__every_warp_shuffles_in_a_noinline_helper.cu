// bug: reduceShfl's technique under this exercise's name, every warp's
// shuffles hidden in a __noinline__ helper so that the listing shows one
// SHFL for the five steps of all four warps
// expect: method
// Counted at each call, the helper's SHFL makes six where the exercise
// allows five (warp 0's last five steps).
#include "shuffle/shuffle.cuh"

namespace wb::shuffle {
namespace {

__device__ __noinline__ int xorPartner(int value, int laneMask) {
  return __shfl_xor_sync(0xffffffffu, value, laneMask);
}

}  // namespace

__global__ void reduceSmemShfl(int* g_idata, int* g_odata, unsigned int n) {
  __shared__ int smem[reduction::kReduceBlock];
  const unsigned int tid = threadIdx.x;
  const unsigned int lane = tid % kWarpSize;
  const unsigned int idx = blockIdx.x * reduction::kReduceBlock + tid;
  smem[tid] = idx < n ? g_idata[idx] : 0;
  __syncthreads();
  int sum = smem[tid];
  for (int m = 16; m > 0; m >>= 1) sum += xorPartner(sum, m);   // every warp
  if (lane == 0) smem[tid] = sum;           // the warp sums at 0, 32, 64, 96
  __syncthreads();
  if (tid < kWarpSize) {
    sum = lane < kWarpSums ? smem[lane * kWarpSize] : 0;
#pragma unroll 1
    for (int m = 16; m > 0; m >>= 1) sum += __shfl_xor_sync(0xffffffffu, sum, m);
    if (tid == 0) g_odata[blockIdx.x] = sum;
  }
}

}  // namespace wb::shuffle
