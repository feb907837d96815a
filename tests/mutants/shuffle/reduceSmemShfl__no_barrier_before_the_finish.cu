// bug: no __syncthreads() between the 128 -> 64 round and warp 0's finish:
// warp 0 reads the sums warp 1 leaves in smem[32, 64) whether or not warp 1
// has written them yet
// expect: method
// The race is real on the GPU: racecheck names warp 1's write and warp 0's
// read, and a block's sum comes out wrong whenever warp 0 runs ahead, which
// the size sweep sees on large inputs. The method check sees it first and on
// any machine: one barrier in the code where the tree needs two, after the
// staging and after its round.
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

__global__ void reduceSmemShfl(int* g_idata, int* g_odata, unsigned int n) {
  __shared__ int smem[reduction::kReduceBlock];
  const unsigned int tid = threadIdx.x;
  const unsigned int idx = blockIdx.x * reduction::kReduceBlock + tid;

  smem[tid] = idx < n ? g_idata[idx] : 0;
  __syncthreads();
  if (tid < 64) smem[tid] += smem[tid + 64];

  if (tid < kWarpSize) {
    const int sum = warpReduce(smem[tid] + smem[tid + kWarpSize]);
    if (tid == 0) g_odata[blockIdx.x] = sum;
  }
}

}  // namespace wb::shuffle
