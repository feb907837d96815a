// bug: the width is left out of the shuffles, so it defaults to the whole
// warp: at every width below 32 the lanes near the end of a segment read
// from the next segment instead of wrapping round their own
// expect: tests
#include "shuffle/shuffle.cuh"

namespace wb::shuffle {

__global__ void shflDouble(const double* in, double* out, int width, int offset) {
  const unsigned int g = blockIdx.x * blockDim.x + threadIdx.x;
  const int lane = static_cast<int>(threadIdx.x % warpSize);
  const double value = in[g];
  out[g] = __shfl_sync(0xffffffffu, value, lane + offset);
  (void)width;
}

}  // namespace wb::shuffle
