// bug: every element is exchanged, as in shflXorArray, where the exercise
// moves only the partner's first element into the last
// expect: tests
#include "shuffle/shuffle.cuh"

namespace wb::shuffle {

__global__ void shflXorFirstToLast(const int* in, int* out, int width, int laneMask) {
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
