// bug: the warps add their sums into g_odata one after another, between
// barriers, instead of handing them to warp 0 through shared memory: the
// right partial sums, with the block's output written five times
// expect: method
// Thread 0 clears the block's word, then lane 0 of warp w adds its sum to it
// at step w; the barriers order the read-modify-writes. Every output is
// right, and the machine code shows more than the one global store a block
// needs.
#include "shuffle/shuffle.cuh"

namespace wb::shuffle {

__global__ void reduceShflDown(int* g_idata, int* g_odata, unsigned int n) {
  const unsigned int tid = threadIdx.x;
  const unsigned int idx = blockIdx.x * reduction::kReduceBlock + tid;
  const unsigned int lane = tid % kWarpSize;
  const unsigned int warp = tid / kWarpSize;

  int sum = idx < n ? g_idata[idx] : 0;
  for (int offset = kWarpSize / 2; offset > 0; offset /= 2) {
    sum += __shfl_down_sync(0xffffffffu, sum, offset);
  }
  if (tid == 0) g_odata[blockIdx.x] = 0;
#pragma unroll
  for (unsigned int w = 0; w < kWarpSums; ++w) {
    __syncthreads();
    if (warp == w && lane == 0) g_odata[blockIdx.x] += sum;
  }
}

}  // namespace wb::shuffle
