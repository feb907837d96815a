// bug: the two lanes of the pair load each other's element from global memory, at
// addresses computed from the lane and index parameters, and a shuffle in
// which every lane reads itself runs for show
// expect: method
#include "shuffle/shuffle.cuh"

namespace wb::shuffle {

__global__ void shflSwap(const int* in, int* out, int width, int firstLane, int secondLane,
                         int firstIdx, int secondIdx) {
  const unsigned int g = blockIdx.x * blockDim.x + threadIdx.x;
  const int position = static_cast<int>(threadIdx.x % warpSize) % width;
  const unsigned int segment = g - static_cast<unsigned int>(position);
  const bool isFirst = position == firstLane;
  const bool isSecond = position == secondLane;
  int value[kArrayLength];
#pragma unroll
  for (int i = 0; i < kArrayLength; ++i) {
    unsigned int from = g * kArrayLength + i;
    if (isFirst && i == firstIdx) from = (segment + secondLane) * kArrayLength + secondIdx;
    if (isSecond && i == secondIdx) from = (segment + firstLane) * kArrayLength + firstIdx;
    value[i] = in[from];
  }
  value[0] = __shfl_sync(0xffffffffu, value[0], position, width);  // each lane reads itself
#pragma unroll
  for (int i = 0; i < kArrayLength; ++i) out[g * kArrayLength + i] = value[i];
}

}  // namespace wb::shuffle
