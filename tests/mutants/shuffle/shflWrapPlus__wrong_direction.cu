// bug: the source lane is `lane - offset`, the shift turned the other way:
// each lane adds the value offset places before it, not after
// expect: tests
#include "shuffle/shuffle.cuh"

namespace wb::shuffle {

__global__ void shflWrapPlus(const int* in, int* out, int width, int offset) {
  const unsigned int g = blockIdx.x * blockDim.x + threadIdx.x;
  const int lane = static_cast<int>(threadIdx.x % warpSize);
  int value = in[g];
  value += __shfl_sync(0xffffffffu, value, lane - offset, width);
  out[g] = value;
}

}  // namespace wb::shuffle
