// bug: each warp's sum is built from bit counts (__ballot_sync and __popc per
// bit, VOTE), not by shuffles; only warp 0's last sum of the warp sums shuffles
// expect: method
#include "shuffle/shuffle.cuh"

namespace wb::shuffle {

__global__ void reduceShfl(int* g_idata, int* g_odata, unsigned int n) {
  __shared__ int smem[kWarpSums];
  const unsigned int tid = threadIdx.x;
  const unsigned int idx = blockIdx.x * reduction::kReduceBlock + tid;
  const unsigned int lane = tid % kWarpSize;
  const unsigned int warp = tid / kWarpSize;

  const int v = idx < n ? g_idata[idx] : 0;
  unsigned int sum = 0;
  int b = 0;
  for (;; ++b) {
    sum += static_cast<unsigned int>(__popc(__ballot_sync(0xffffffffu, (v >> b) & 1))) << b;
    const int high = v >> (b + 1);  // arithmetic shift: 0 or -1 once only sign bits remain
    if (__all_sync(0xffffffffu, high == 0 || high == -1)) break;
  }
  sum -= static_cast<unsigned int>(__popc(__ballot_sync(0xffffffffu, v < 0))) << (b + 1);
  if (lane == 0) smem[warp] = static_cast<int>(sum);
  __syncthreads();

  if (warp == 0) {
    int s = lane < kWarpSums ? smem[lane] : 0;
    for (int laneMask = kWarpSize / 2; laneMask > 0; laneMask /= 2)
      s += __shfl_xor_sync(0xffffffffu, s, laneMask);
    if (lane == 0) g_odata[blockIdx.x] = s;
  }
}

}  // namespace wb::shuffle
