// bug: each lane loads the element delta lanes below it (or its own) straight from
// global memory, at an address computed from delta, and calls a full-warp
// shuffle in which every lane reads its own value: the right output, one
// shuffle per warp with 32 lanes, and nothing moved by it
// expect: method
#include "shuffle/shuffle.cuh"

namespace wb::shuffle {

__global__ void shflUp(const int* in, int* out, int width, unsigned int delta) {
  const int g = blockIdx.x * blockDim.x + threadIdx.x;
  const unsigned int position = (threadIdx.x % warpSize) % static_cast<unsigned int>(width);
  // The exchange, done by indexing global memory.
  int v = in[position >= delta ? g - static_cast<int>(delta) : g];
  // A full-warp shuffle in which every lane reads its own value.
  v = __shfl_sync(0xffffffffu, v, static_cast<int>(position), width);
  out[g] = v;
}

}  // namespace wb::shuffle
