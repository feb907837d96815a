// bug: only the low 32 bits of the double are shuffled; the high half stays
// the lane's own, so every received double is half its own and half its
// source lane's
// expect: tests
#include "shuffle/shuffle.cuh"

namespace wb::shuffle {

__global__ void shflDouble(const double* in, double* out, int width, int offset) {
  const unsigned int g = blockIdx.x * blockDim.x + threadIdx.x;
  const int lane = static_cast<int>(threadIdx.x % warpSize);
  const double value = in[g];
  const int lo = __shfl_sync(0xffffffffu, __double2loint(value), lane + offset, width);
  out[g] = __hiloint2double(__double2hiint(value), lo);
}

}  // namespace wb::shuffle
