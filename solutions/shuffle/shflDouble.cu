// Book 5.6.2.4 on doubles, end-of-chapter exercise 14: a shuffle moves one
// 32-bit register per lane, so a 64-bit double takes two shuffles, one per
// half, both from the same source lane. The book's __shfl took only 32-bit
// values and its answer split the double by hand; CUDA's __shfl_sync has a
// double overload that does the same: two SHFL in the machine code.
#include "shuffle/shuffle.cuh"

namespace wb::shuffle {

__global__ void shflDouble(const double* in, double* out, int width, int offset) {
  const unsigned int g = blockIdx.x * blockDim.x + threadIdx.x;
  const int lane = static_cast<int>(threadIdx.x % warpSize);
  const double value = in[g];
  // The halves as 32-bit words: each travels with its own shuffle, the same
  // source lane for both, and the two are joined again bit for bit.
  const int lo = __shfl_sync(0xffffffffu, __double2loint(value), lane + offset, width);
  const int hi = __shfl_sync(0xffffffffu, __double2hiint(value), lane + offset, width);
  out[g] = __hiloint2double(hi, lo);
}

}  // namespace wb::shuffle
