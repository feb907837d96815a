// bug: the warp's doubles are exchanged through a shared array instead of by
// shuffle: the right answer, without the technique
// expect: method
// Each lane stores its double, the warp synchronises, and each lane loads the
// one offset places further in its segment: every output is right, and the
// machine code shows STS and LDS and no SHFL.
#include "shuffle/shuffle.cuh"

namespace wb::shuffle {

__global__ void shflDouble(const double* in, double* out, int width, int offset) {
  __shared__ double staged[kShuffleBlock];
  const unsigned int g = blockIdx.x * blockDim.x + threadIdx.x;
  const int lane = static_cast<int>(threadIdx.x % warpSize);
  const int position = lane % width;
  const int source = (((position + offset) % width) + width) % width;
  staged[threadIdx.x] = in[g];
  __syncwarp();
  out[g] = staged[threadIdx.x - position + source];
}

}  // namespace wb::shuffle
