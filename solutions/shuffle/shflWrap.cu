// Book 5.6.2.4: a shift with wrap-around. __shfl_sync counts its source
// lane modulo width inside the caller's segment, so asking for the lane
// `offset` positions further wraps past the end of the segment to its
// start (and, for a negative offset, past the start to its end).
#include "shuffle/shuffle.cuh"

namespace wb::shuffle {

__global__ void shflWrap(const int* in, int* out, int width, int offset) {
  const unsigned int g = blockIdx.x * blockDim.x + threadIdx.x;
  const int lane = static_cast<int>(threadIdx.x % warpSize);
  int value = in[g];
  value = __shfl_sync(0xffffffffu, value, lane + offset, width);
  out[g] = value;
}

}  // namespace wb::shuffle
