// bug: only the lower lane of each pair shuffles and adds, under a branch on
// the lane, as if one sum per pair were enough; the upper lanes write their
// own value, and the full-mask shuffle names lanes that skip it
// expect: tests
#include "shuffle/shuffle.cuh"

namespace wb::shuffle {

__global__ void shflXorPlus(const int* in, int* out, int width, int laneMask) {
  const unsigned int g = blockIdx.x * blockDim.x + threadIdx.x;
  const int lane = static_cast<int>(threadIdx.x % warpSize);
  int value = in[g];
  if ((lane & laneMask) == 0) value += __shfl_xor_sync(0xffffffffu, value, laneMask, width);
  out[g] = value;
}

}  // namespace wb::shuffle
