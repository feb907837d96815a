// bug: no tree in shared memory: each warp builds its sum bit by bit from
// __activemask() taken inside an if/else on each bit of the lanes' values
// (a vote on the bit, which the compiler emits as a VOTE on PT under a
// guard), and thread 0 adds the four warp sums
// expect: method
#include "reduction/reduction.cuh"

namespace wb::reduction {

__global__ void reduceSmem(int* g_idata, int* g_odata, unsigned int n) {
  __shared__ __align__(16) int smem[kReduceBlock];
  const unsigned int tid = threadIdx.x;
  const unsigned int idx = blockIdx.x * kReduceBlock + tid;
  const int v = (idx < n ? g_idata[idx] : 0) + 16;  // [0, 32] for the tests' inputs
  int warpSum = -16 * 32;
#pragma unroll
  for (int b = 0; b < 6; ++b) {
    unsigned int ones;
    if ((v >> b) & 1) {
      ones = __activemask();
    } else {
      ones = ~__activemask();
    }
    warpSum += __popc(ones) << b;
  }
  if (tid % 32 == 0) smem[tid / 32] = warpSum;
  __syncthreads();
  if (tid == 0) {
    const int4 w = *reinterpret_cast<const int4*>(smem);
    g_odata[blockIdx.x] = w.x + w.y + w.z + w.w;
  }
}

}  // namespace wb::reduction
