// Book 5.6.2.5, end-of-chapter exercise 12: shflXor's butterfly, but each
// lane adds its partner's value to its own. Both lanes of a pair end with
// the same sum: this is one step of the butterfly reduction of 5.6.3.
#include "shuffle/shuffle.cuh"

namespace wb::shuffle {

__global__ void shflXorPlus(const int* in, int* out, int width, int laneMask) {
  const unsigned int g = blockIdx.x * blockDim.x + threadIdx.x;
  int value = in[g];
  value += __shfl_xor_sync(0xffffffffu, value, laneMask, width);
  out[g] = value;
}

}  // namespace wb::shuffle
