// bug: the width is taken as the number of lanes that receive a value and
// passed as `width - delta`, which is not a power of two (31 for width 32
// and delta 1) and so does not divide 32: the hardware then splits the warp
// in a way the contract does not describe, and low lanes that should get a
// value keep their own
// expect: tests
#include "shuffle/shuffle.cuh"

namespace wb::shuffle {

__global__ void shflUp(const int* in, int* out, int width, unsigned int delta) {
  const unsigned int g = blockIdx.x * blockDim.x + threadIdx.x;
  int value = in[g];
  value = __shfl_up_sync(0xffffffffu, value, delta, width - static_cast<int>(delta));
  out[g] = value;
}

}  // namespace wb::shuffle
