// Book 5.6.2.6: a butterfly exchange of whole register arrays. A shuffle
// moves one 32-bit value per lane, so exchanging kArrayLength ints takes
// kArrayLength shuffles, one per element. With the loop unrolled the array
// stays in registers.
#include "shuffle/shuffle.cuh"

namespace wb::shuffle {

__global__ void shflXorArray(const int* in, int* out, int width, int laneMask) {
  const unsigned int g = blockIdx.x * blockDim.x + threadIdx.x;
  int value[kArrayLength];
#pragma unroll
  for (int i = 0; i < kArrayLength; ++i) value[i] = in[g * kArrayLength + i];

#pragma unroll
  for (int i = 0; i < kArrayLength; ++i) {
    value[i] = __shfl_xor_sync(0xffffffffu, value[i], laneMask, width);
  }

#pragma unroll
  for (int i = 0; i < kArrayLength; ++i) out[g * kArrayLength + i] = value[i];
}

}  // namespace wb::shuffle
