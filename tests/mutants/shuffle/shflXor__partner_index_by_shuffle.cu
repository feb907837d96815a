// bug: the shuffle moves the partner's index, and the partner's value is then
// loaded from global memory at that index (one plain LDG): the right output,
// one shuffle per warp, and no value moved by it
// expect: method
#include "shuffle/shuffle.cuh"

namespace wb::shuffle {

__global__ void shflXor(const int* in, int* out, int width, int laneMask) {
  const unsigned int g = blockIdx.x * blockDim.x + threadIdx.x;
  out[g] = in[__shfl_xor_sync(0xffffffffu, g, laneMask, width)];
}

}  // namespace wb::shuffle
