// bug: the width is left out of the shuffle, so it defaults to the whole
// warp: at every width below 32 the lanes near the end of a segment add a
// value from the next segment instead of wrapping round their own
// expect: tests
#include "shuffle/shuffle.cuh"

namespace wb::shuffle {

__global__ void shflWrapPlus(const int* in, int* out, int width, int offset) {
  const unsigned int g = blockIdx.x * blockDim.x + threadIdx.x;
  const int lane = static_cast<int>(threadIdx.x % warpSize);
  int value = in[g];
  value += __shfl_sync(0xffffffffu, value, lane + offset);
  out[g] = value;
  (void)width;
}

}  // namespace wb::shuffle
