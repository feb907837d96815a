// bug: the shuffle's source and destination are swapped: the partner's last
// element lands in the first, `value[0] = shfl_xor(value[3])`
// expect: tests
#include "shuffle/shuffle.cuh"

namespace wb::shuffle {

__global__ void shflXorFirstToLast(const int* in, int* out, int width, int laneMask) {
  const unsigned int g = blockIdx.x * blockDim.x + threadIdx.x;
  int value[kArrayLength];
#pragma unroll
  for (int i = 0; i < kArrayLength; ++i) value[i] = in[g * kArrayLength + i];
  value[0] = __shfl_xor_sync(0xffffffffu, value[kArrayLength - 1], laneMask, width);
#pragma unroll
  for (int i = 0; i < kArrayLength; ++i) out[g * kArrayLength + i] = value[i];
}

}  // namespace wb::shuffle
