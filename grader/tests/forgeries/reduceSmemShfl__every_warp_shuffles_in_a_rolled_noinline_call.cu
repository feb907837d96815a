// forgery: every warp adds its own 32 values by shuffle first (reduceShfl's technique), in a __noinline__ helper called from a loop kept rolled: the static facts count the helper's SHFL at its one call. The executed shuffles stay inside 1.25 per warp only where Nsight Compute prints the helper as a table of its own after the kernel's (ncu_source.executed_by_opcode reads the first table); where it prints the helper inline, 6.25 per warp fail. Every function table of the launch's page is now counted (ncu_source.executed_by_opcode), so it fails either way (on an H200, 2026-11-27: 6.25 shuffles per warp, failed).
// exercise: shuffle/reduceSmemShfl
// base: solutions
// expect: zero method
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
#pragma unroll 1
  for (int m = 16; m > 0; m >>= 1) sum += xorPartner(sum, m);   // every warp, in the helper
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
