// bug: only the first element of the register array is shuffled, as if one
// shuffle moved the whole array; the other kArrayLength - 1 elements stay
// with their own lane
// expect: tests
#include "shuffle/shuffle.cuh"

namespace wb::shuffle {

__global__ void shflXorArray(const int* in, int* out, int width, int laneMask) {
  const unsigned int g = blockIdx.x * blockDim.x + threadIdx.x;
  int value[kArrayLength];
  for (int i = 0; i < kArrayLength; ++i) value[i] = in[g * kArrayLength + i];
  value[0] = __shfl_xor_sync(0xffffffffu, value[0], laneMask, width);
  for (int i = 0; i < kArrayLength; ++i) out[g * kArrayLength + i] = value[i];
}

}  // namespace wb::shuffle
