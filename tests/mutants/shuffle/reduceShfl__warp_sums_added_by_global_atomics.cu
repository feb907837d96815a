// bug: adds the warp sums into g_odata with atomicAdd instead of a second
// shuffle reduction in warp 0: the right partial sums, by another technique
// expect: method
// Book 5.6.3 reduces each warp by shuffle, then the warp sums inside warp 0,
// by shuffle again, and the block writes its sum once. Lane 0 of each warp
// adding its warp's sum to the output with a global atomic gives the same
// number, and replaces the second half of the technique.
#include "shuffle/shuffle.cuh"

namespace wb::shuffle {

__global__ void reduceShfl(int* g_idata, int* g_odata, unsigned int n) {
  const unsigned int tid = threadIdx.x;
  const unsigned int idx = blockIdx.x * reduction::kReduceBlock + tid;
  const unsigned int lane = tid % kWarpSize;

  int sum = idx < n ? g_idata[idx] : 0;
  for (int laneMask = kWarpSize / 2; laneMask > 0; laneMask /= 2) {
    sum += __shfl_xor_sync(0xffffffffu, sum, laneMask);
  }
  if (tid == 0) g_odata[blockIdx.x] = 0;
  __syncthreads();
  if (lane == 0) atomicAdd(&g_odata[blockIdx.x], sum);
}

}  // namespace wb::shuffle
