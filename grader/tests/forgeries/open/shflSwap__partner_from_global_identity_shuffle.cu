// forgery: the shflSwap forgery of ../shflSwap__dead_shuffle_partner_from_global_memory.cu (the partner's element folded into the 4 loads every lane makes: 4 LDG, "at most 4 LDG" holds) with its dead shuffle replaced by a live identity shuffle: each lane reads element 0 from its own position, so one SHFL per warp runs with 32 lanes and moves nothing.
// exercise: shuffle/shflSwap
// base: solutions
// expect: zero method
// Should earn at 840951c on a GPU: every point of the exercise (correctness 4, method 1,
// shared_memory 1, sanitizer 1). Evidence: method_counters "1.00 (8 by 8 warps)", "32.00".
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
