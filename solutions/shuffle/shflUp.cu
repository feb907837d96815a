// Book 5.6.2.2: shift up within each segment. Lane p of a segment takes
// the value of lane p - delta; the lowest delta lanes have no source lane
// and keep their own value (the shuffle does not wrap around).
#include "shuffle/shuffle.cuh"

namespace wb::shuffle {

__global__ void shflUp(const int* in, int* out, int width, unsigned int delta) {
  const unsigned int g = blockIdx.x * blockDim.x + threadIdx.x;
  int value = in[g];
  value = __shfl_up_sync(0xffffffffu, value, delta, width);
  out[g] = value;
}

}  // namespace wb::shuffle
