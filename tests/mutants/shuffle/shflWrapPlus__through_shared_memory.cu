// bug: the warp's values are exchanged through a shared array instead of by
// shuffle: the right sums, without the technique
// expect: method
// Each lane stores its value, the warp synchronises, and each lane adds the
// one offset places further in its segment: every output is right, and the
// machine code shows STS and LDS and no SHFL.
#include "shuffle/shuffle.cuh"

namespace wb::shuffle {

__global__ void shflWrapPlus(const int* in, int* out, int width, int offset) {
  __shared__ int staged[kShuffleBlock];
  const unsigned int g = blockIdx.x * blockDim.x + threadIdx.x;
  const int position = static_cast<int>(threadIdx.x % warpSize) % width;
  const int source = (((position + offset) % width) + width) % width;
  const int value = in[g];
  staged[threadIdx.x] = value;
  __syncwarp();
  out[g] = value + staged[threadIdx.x - position + source];
}

}  // namespace wb::shuffle
