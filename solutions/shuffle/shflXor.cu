// Book 5.6.2.5: the butterfly exchange. Each lane trades values with the
// lane whose index differs from its own in the bits of laneMask; with
// laneMask 1 neighbours swap, with laneMask 16 the two half-warps swap.
#include "shuffle/shuffle.cuh"

namespace wb::shuffle {

__global__ void shflXor(const int* in, int* out, int width, int laneMask) {
  const unsigned int g = blockIdx.x * blockDim.x + threadIdx.x;
  int value = in[g];
  value = __shfl_xor_sync(0xffffffffu, value, laneMask, width);
  out[g] = value;
}

}  // namespace wb::shuffle
