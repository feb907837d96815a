// bug: the lanes of the pair read each other's element from global memory
// instead of trading it by shuffle: the right answer, without the technique
// expect: method
// Book 5.6.2.7 asks for the exchange in registers: every lane calls one
// __shfl_sync. This version computes where the partner's element lies in
// `in` and loads it a second time, as a kernel written without the shuffle
// would: every output is right, and no value moves between lanes.
#include "shuffle/shuffle.cuh"

namespace wb::shuffle {

__global__ void shflSwap(const int* in, int* out, int width, int firstLane, int secondLane,
                         int firstIdx, int secondIdx) {
  const unsigned int g = blockIdx.x * blockDim.x + threadIdx.x;
  int value[kArrayLength];
  for (int i = 0; i < kArrayLength; ++i) value[i] = in[g * kArrayLength + i];

  const int position = static_cast<int>(threadIdx.x % warpSize) % width;
  // The thread at the start of this lane's segment.
  const unsigned int segment = g - static_cast<unsigned int>(position);
  if (position == firstLane) {
    value[firstIdx] = in[(segment + secondLane) * kArrayLength + secondIdx];
  } else if (position == secondLane) {
    value[secondIdx] = in[(segment + firstLane) * kArrayLength + firstIdx];
  }

  for (int i = 0; i < kArrayLength; ++i) out[g * kArrayLength + i] = value[i];
}

}  // namespace wb::shuffle
