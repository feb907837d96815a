// bug: the lane keeps its partner's value instead of adding it to its own
// (shflXor's kernel handed in unchanged)
// expect: tests
#include "shuffle/shuffle.cuh"

namespace wb::shuffle {

__global__ void shflXorPlus(const int* in, int* out, int width, int laneMask) {
  const unsigned int g = blockIdx.x * blockDim.x + threadIdx.x;
  int value = in[g];
  value = __shfl_xor_sync(0xffffffffu, value, laneMask, width);
  out[g] = value;
}

}  // namespace wb::shuffle
