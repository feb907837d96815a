// bug: the partner's value read from global memory by one plain load in a
// loop kept rolled: the first trip loads the lane's own element, the second
// the partner's, its address computed from the parameter after the load in
// program order (it reaches the load only around the loop's back edge); a
// shuffle in which every lane reads its own value stands in for the exchange
// expect: method
#include "shuffle/shuffle.cuh"

namespace wb::shuffle {

__global__ void shflUp(const int* in, int* out, int width, unsigned int delta) {
  const unsigned int g = blockIdx.x * blockDim.x + threadIdx.x;
  const unsigned int position = (threadIdx.x % 32u) % static_cast<unsigned int>(width);
  unsigned int at = g;
  int value = 0;
#pragma unroll 1
  for (int trip = 0; trip < 2; ++trip) {
    value = in[at];
    at = position >= delta ? g - delta : g;
  }
  value = __shfl_sync(0xffffffffu, value, threadIdx.x % 32u, 32);
  out[g] = value;
}

}  // namespace wb::shuffle
