// bug: the partner's value read from global memory by one plain load in a
// loop kept rolled: the first trip loads the lane's own element, the second
// the partner's, its address computed from the parameter after the load in
// program order (it reaches the load only around the loop's back edge); a
// shuffle in which every lane reads its own value stands in for the exchange
// expect: method
#include "shuffle/shuffle.cuh"

namespace wb::shuffle {

__global__ void shflXor(const int* in, int* out, int width, int laneMask) {
  const unsigned int g = blockIdx.x * blockDim.x + threadIdx.x;
  unsigned int at = g;
  int value = 0;
#pragma unroll 1
  for (int trip = 0; trip < 2; ++trip) {
    value = in[at];
    // Written after the load: reaches the load's address only around the back edge.
    at = g ^ static_cast<unsigned int>(laneMask);
  }
  // Every lane reads its own value: 32 lanes, one shuffle per warp.
  value = __shfl_sync(0xffffffffu, value, threadIdx.x % 32u, 32);
  (void)width;
  out[g] = value;
}

}  // namespace wb::shuffle
