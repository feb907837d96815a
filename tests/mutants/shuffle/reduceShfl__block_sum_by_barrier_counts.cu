// bug: the block's sum built bit by bit from __syncthreads_count (BAR.RED)
// and a __syncthreads_or to stop, one broadcast shuffle per warp: no value
// is added by shuffle
// expect: method
// The right sums, within the work bound; only the barrier that counts
// (no BAR.RED) tells it from a shuffle reduction.
#include "shuffle/shuffle.cuh"

namespace wb::shuffle {

__global__ void reduceShfl(int* g_idata, int* g_odata, unsigned int n) {
  __shared__ int smem[kWarpSums];
  const unsigned int tid = threadIdx.x;
  const unsigned int idx = blockIdx.x * reduction::kReduceBlock + tid;
  const unsigned int lane = tid % kWarpSize;
  const unsigned int warp = tid / kWarpSize;
  const int v = idx < n ? g_idata[idx] : 0;
  const bool negative = v < 0;
  unsigned int m = static_cast<unsigned int>(negative ? ~v : v);
  unsigned int acc = -static_cast<unsigned int>(__syncthreads_count(negative));
  for (unsigned int b = 0; __syncthreads_or(m != 0); ++b, m >>= 1) {
    const unsigned int pos = __syncthreads_count(!negative && (m & 1u));
    const unsigned int neg = __syncthreads_count(negative && (m & 1u));
    acc += (pos - neg) << b;
  }
  const int sum = __shfl_sync(0xffffffffu, lane == 0 ? static_cast<int>(acc) : 0, 0);
  if (lane == 0) smem[warp] = sum;
  __syncthreads();
  if (tid == 0) g_odata[blockIdx.x] = smem[0];
}

}  // namespace wb::shuffle
