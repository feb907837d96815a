// bug: each lane loads the double of its source lane from global memory
// instead of receiving it by shuffle: the right answer, without the technique
// expect: method
// The source lane's index is computed as shflWrap's shuffle would, and its
// double read from `in` a second time: every output is right, and no value
// moves between lanes (no SHFL, two global loads).
#include "shuffle/shuffle.cuh"

namespace wb::shuffle {

__global__ void shflDouble(const double* in, double* out, int width, int offset) {
  const unsigned int g = blockIdx.x * blockDim.x + threadIdx.x;
  const int lane = static_cast<int>(threadIdx.x % warpSize);
  const int position = lane % width;
  const int source = (((position + offset) % width) + width) % width;
  const double own = in[g];
  out[g] = source == position ? own : in[g - position + source];
}

}  // namespace wb::shuffle
