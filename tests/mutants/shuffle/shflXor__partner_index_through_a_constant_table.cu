// bug: the shuffle moves the partner's lane number, which a __constant__
// identity table hands back unchanged, and the partner's value is loaded at
// it: the right output, one real shuffle per warp, and no value moved by it
// expect: method
#include "shuffle/shuffle.cuh"

namespace wb::shuffle {

__constant__ unsigned int kSameLane[kWarpSize] = {
    0,  1,  2,  3,  4,  5,  6,  7,  8,  9,  10, 11, 12, 13, 14, 15,
    16, 17, 18, 19, 20, 21, 22, 23, 24, 25, 26, 27, 28, 29, 30, 31};

__global__ void shflXor(const int* in, int* out, int width, int laneMask) {
  const unsigned int g = blockIdx.x * blockDim.x + threadIdx.x;
  const unsigned int lane = threadIdx.x % kWarpSize;
  const unsigned int partnerLane = __shfl_xor_sync(0xffffffffu, lane, laneMask, width);
  out[g] = in[(g & ~(kWarpSize - 1)) + kSameLane[partnerLane % kWarpSize]];
}

}  // namespace wb::shuffle
