// Book 5.6.2.6, end-of-chapter exercise 13: one shuffle of a register array.
// `value[3] = __shfl_xor(value[0], laneMask)` sends every lane's element 0
// to its butterfly partner, which keeps it in its last element; the other
// elements never move. With laneMask 1, lane 1's last element becomes lane
// 0's first, and lane 0's last becomes lane 1's first.
#include "shuffle/shuffle.cuh"

namespace wb::shuffle {

__global__ void shflXorFirstToLast(const int* in, int* out, int width, int laneMask) {
  const unsigned int g = blockIdx.x * blockDim.x + threadIdx.x;
  int value[kArrayLength];
#pragma unroll
  for (int i = 0; i < kArrayLength; ++i) value[i] = in[g * kArrayLength + i];

  value[kArrayLength - 1] = __shfl_xor_sync(0xffffffffu, value[0], laneMask, width);

#pragma unroll
  for (int i = 0; i < kArrayLength; ++i) out[g * kArrayLength + i] = value[i];
}

}  // namespace wb::shuffle
