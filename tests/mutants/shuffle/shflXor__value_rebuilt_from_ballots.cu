// bug: the shuffle moves the partner's lane number, and the partner's value
// is rebuilt bit by bit from 32 warp votes (__ballot_sync): the right output,
// and no value moved by the shuffle
// expect: method
#include "shuffle/shuffle.cuh"

namespace wb::shuffle {

__global__ void shflXor(const int* in, int* out, int width, int laneMask) {
  const unsigned int g = blockIdx.x * blockDim.x + threadIdx.x;
  const int value = in[g];
  const unsigned int partnerLane =
      __shfl_xor_sync(0xffffffffu, threadIdx.x % kWarpSize, laneMask, width);
  unsigned int rebuilt = 0;
#pragma unroll 1
  for (int bit = 0; bit < 32; ++bit) {
    const unsigned int votes = __ballot_sync(0xffffffffu, (value >> bit) & 1);
    rebuilt |= ((votes >> partnerLane) & 1u) << bit;
  }
  out[g] = static_cast<int>(rebuilt);
}

}  // namespace wb::shuffle
