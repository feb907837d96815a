// bug: the high half is shuffled from `lane - offset`, the low half from
// `lane + offset`: each half moves by shuffle, but the two words of a
// received double come from different lanes
// expect: tests
#include "shuffle/shuffle.cuh"

namespace wb::shuffle {

__global__ void shflDouble(const double* in, double* out, int width, int offset) {
  const unsigned int g = blockIdx.x * blockDim.x + threadIdx.x;
  const int lane = static_cast<int>(threadIdx.x % warpSize);
  const double value = in[g];
  const int lo = __shfl_sync(0xffffffffu, __double2loint(value), lane + offset, width);
  const int hi = __shfl_sync(0xffffffffu, __double2hiint(value), lane - offset, width);
  out[g] = __hiloint2double(hi, lo);
}

}  // namespace wb::shuffle
