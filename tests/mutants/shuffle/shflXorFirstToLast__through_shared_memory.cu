// bug: the partner's first element goes through a shared array instead of
// by shuffle: the right output, without the technique
// expect: method
// Each lane stores its element 0, the warp synchronises, and each lane reads
// its partner's: every output is right, and the machine code shows STS and
// LDS and no SHFL.
#include "shuffle/shuffle.cuh"

namespace wb::shuffle {

__global__ void shflXorFirstToLast(const int* in, int* out, int width, int laneMask) {
  __shared__ int first[kShuffleBlock];
  const unsigned int g = blockIdx.x * blockDim.x + threadIdx.x;
  int value[kArrayLength];
#pragma unroll
  for (int i = 0; i < kArrayLength; ++i) value[i] = in[g * kArrayLength + i];
  first[threadIdx.x] = value[0];
  __syncwarp();
  value[kArrayLength - 1] = first[threadIdx.x ^ static_cast<unsigned int>(laneMask)];
#pragma unroll
  for (int i = 0; i < kArrayLength; ++i) out[g * kArrayLength + i] = value[i];
  (void)width;
}

}  // namespace wb::shuffle
