// forgery: GPU-only. The mutant shflSwap__partner_from_global_memory reshaped to pass the facts read from the machine code: the partner's element is folded into the four loads each lane makes anyway ("at most 4 LDG" holds), and one __shfl_sync sits behind `width > warpSize`, which the contract never lets happen ("needs SHFL" finds it). The method counter of the shuffle section counts the shuffles each warp executes (Nsight Compute's SASS page): none here, so the exercise's method points (all or nothing) are lost
// exercise: shuffle/shflSwap
// base: solutions
// expect: zero method
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
  for (int i = 0; i < kArrayLength; ++i) {
    // The partner's element straight from global memory, in the same load.
    unsigned int from = g * kArrayLength + i;
    if (isFirst && i == firstIdx) from = (segment + secondLane) * kArrayLength + secondIdx;
    if (isSecond && i == secondIdx) from = (segment + firstLane) * kArrayLength + firstIdx;
    value[i] = in[from];
  }
  // Dead code for the disassembler: width is at most 32 by contract.
  if (width > warpSize) value[0] = __shfl_sync(0xffffffffu, value[0], firstLane, width);
  for (int i = 0; i < kArrayLength; ++i) out[g * kArrayLength + i] = value[i];
}

}  // namespace wb::shuffle
