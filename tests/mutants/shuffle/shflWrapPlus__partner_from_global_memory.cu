// bug: each lane loads the value of its source lane from global memory
// instead of receiving it by shuffle: the right sums, without the technique
// expect: method
// The source lane is computed as shflWrap's shuffle would, and its value read
// from `in` a second time: every output is right, and no value moves between
// lanes (no SHFL, two global loads).
#include "shuffle/shuffle.cuh"

namespace wb::shuffle {

__global__ void shflWrapPlus(const int* in, int* out, int width, int offset) {
  const unsigned int g = blockIdx.x * blockDim.x + threadIdx.x;
  const int position = static_cast<int>(threadIdx.x % warpSize) % width;
  const int source = (((position + offset) % width) + width) % width;
  out[g] = in[g] + in[g - position + source];
}

}  // namespace wb::shuffle
