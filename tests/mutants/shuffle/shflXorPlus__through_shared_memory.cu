// bug: the butterfly goes through a shared array instead of by shuffle: the
// right sums, without the technique
// expect: method
// Each lane stores its value, the warp synchronises, and each lane adds its
// partner's from the array: every output is right, and the machine code
// shows STS and LDS and no SHFL.
#include "shuffle/shuffle.cuh"

namespace wb::shuffle {

__global__ void shflXorPlus(const int* in, int* out, int width, int laneMask) {
  __shared__ int staged[kShuffleBlock];
  const unsigned int g = blockIdx.x * blockDim.x + threadIdx.x;
  const int value = in[g];
  staged[threadIdx.x] = value;
  __syncwarp();
  out[g] = value + staged[threadIdx.x ^ static_cast<unsigned int>(laneMask)];
  (void)width;
}

}  // namespace wb::shuffle
