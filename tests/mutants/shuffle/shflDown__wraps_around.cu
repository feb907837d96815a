// bug: the shift down is written as `__shfl_sync` from lane + delta, which
// wraps around the segment: the highest delta lanes of each segment read
// lanes at its start, which have no value for them, instead of keeping
// their own
// expect: tests
#include "shuffle/shuffle.cuh"

namespace wb::shuffle {

__global__ void shflDown(const int* in, int* out, int width, unsigned int delta) {
  const unsigned int g = blockIdx.x * blockDim.x + threadIdx.x;
  const int lane = static_cast<int>(threadIdx.x % warpSize);
  int value = in[g];
  value = __shfl_sync(0xffffffffu, value, lane + static_cast<int>(delta), width);
  out[g] = value;
}

}  // namespace wb::shuffle
