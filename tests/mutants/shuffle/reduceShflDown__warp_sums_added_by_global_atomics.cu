// bug: adds the warp sums into g_odata with atomicAdd instead of a second
// shuffle-down reduction in warp 0: the right partial sums, by another
// technique
// expect: method
// Lane 0 of each warp adding its warp's sum to the output with a global
// atomic gives the same number and replaces the second half of the
// technique; the machine code shows the atomic (RED or ATOMG).
#include "shuffle/shuffle.cuh"

namespace wb::shuffle {

__global__ void reduceShflDown(int* g_idata, int* g_odata, unsigned int n) {
  const unsigned int tid = threadIdx.x;
  const unsigned int idx = blockIdx.x * reduction::kReduceBlock + tid;
  const unsigned int lane = tid % kWarpSize;

  int sum = idx < n ? g_idata[idx] : 0;
  for (int offset = kWarpSize / 2; offset > 0; offset /= 2) {
    sum += __shfl_down_sync(0xffffffffu, sum, offset);
  }
  if (tid == 0) g_odata[blockIdx.x] = 0;
  __syncthreads();
  if (lane == 0) atomicAdd(&g_odata[blockIdx.x], sum);
}

}  // namespace wb::shuffle
