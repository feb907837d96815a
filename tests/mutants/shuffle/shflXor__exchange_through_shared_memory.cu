// bug: trades values through a shared array and __syncwarp() instead of
// __shfl_xor_sync: the right answer, without the technique
// expect: method
// Book 5.6.2.5 asks for the butterfly in registers. Writing every lane's
// value to shared memory and reading the partner's slot back gives the same
// output (the warp synchronises between the store and the load), at the cost
// of a shared-memory round trip the shuffle exists to avoid.
#include "shuffle/shuffle.cuh"

namespace wb::shuffle {

__global__ void shflXor(const int* in, int* out, int width, int laneMask) {
  __shared__ int slots[1024];
  const unsigned int g = blockIdx.x * blockDim.x + threadIdx.x;
  const int lane = static_cast<int>(threadIdx.x % warpSize);
  const int warpStart = static_cast<int>(threadIdx.x) - lane;
  slots[threadIdx.x] = in[g];
  __syncwarp();
  // The partner as __shfl_xor_sync picks it: lane ^ laneMask, or the lane
  // itself where that lies past the end of its segment of `width` lanes.
  const int segmentEnd = lane - lane % width + width;
  const int partner = (lane ^ laneMask) < segmentEnd ? (lane ^ laneMask) : lane;
  out[g] = slots[warpStart + partner];
}

}  // namespace wb::shuffle
