// bug: the double is passed to the int shuffle through a cast
// (`__shfl_sync(mask, static_cast<int>(value), ...)`), as if a shuffle moved
// any value: the fraction and the high bits are lost, one 32-bit word moves
// expect: tests
#include "shuffle/shuffle.cuh"

namespace wb::shuffle {

__global__ void shflDouble(const double* in, double* out, int width, int offset) {
  const unsigned int g = blockIdx.x * blockDim.x + threadIdx.x;
  const int lane = static_cast<int>(threadIdx.x % warpSize);
  const double value = in[g];
  out[g] = __shfl_sync(0xffffffffu, static_cast<int>(value), lane + offset, width);
}

}  // namespace wb::shuffle
