// Book 5.6.2.4, end-of-chapter exercise 11: shflWrap's shift with
// wrap-around, but each lane keeps its own value and adds the one it
// receives. The shuffle is the same; only what the lane does with the
// result changes, so every lane still makes the call.
#include "shuffle/shuffle.cuh"

namespace wb::shuffle {

__global__ void shflWrapPlus(const int* in, int* out, int width, int offset) {
  const unsigned int g = blockIdx.x * blockDim.x + threadIdx.x;
  const int lane = static_cast<int>(threadIdx.x % warpSize);
  int value = in[g];
  value += __shfl_sync(0xffffffffu, value, lane + offset, width);
  out[g] = value;
}

}  // namespace wb::shuffle
