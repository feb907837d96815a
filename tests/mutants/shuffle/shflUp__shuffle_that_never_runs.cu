// bug: each lane loads the element delta lanes below it from global memory;
// the one __shfl_up_sync sits behind a test the contract never passes
// (delta < width <= 32), so the code holds a SHFL that no launch executes
// expect: profile
// The right answer without the technique, shaped to pass the method facts
// read from the machine code ("needs SHFL", "at most 1 LDG"): only a count
// of the shuffles executed (Nsight Compute's SASS page, none here against
// one per warp for the reference) sees that no value moves between lanes.
#include "shuffle/shuffle.cuh"

namespace wb::shuffle {

__global__ void shflUp(const int* in, int* out, int width, unsigned int delta) {
  const int g = blockIdx.x * blockDim.x + threadIdx.x;
  const unsigned int lane = (threadIdx.x % warpSize) % static_cast<unsigned int>(width);
  int value = in[lane >= delta ? g - static_cast<int>(delta) : g];
  if (delta >= 32u) value = __shfl_up_sync(0xffffffffu, value, delta, width);
  out[g] = value;
}

}  // namespace wb::shuffle
