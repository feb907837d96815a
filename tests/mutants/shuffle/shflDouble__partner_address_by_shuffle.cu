// bug: the two shuffles move the source lane's 64-bit address, and the double
// is read through it (a generic LD.64): the right output, no double moved
// expect: method
#include "shuffle/shuffle.cuh"

namespace wb::shuffle {

__global__ void shflDouble(const double* in, double* out, int width, int offset) {
  const unsigned int g = blockIdx.x * blockDim.x + threadIdx.x;
  const int src = static_cast<int>(threadIdx.x % warpSize) + offset;  // the shuffle wraps it
  const unsigned long long mine = reinterpret_cast<unsigned long long>(in + g);
  const unsigned long long theirs = __shfl_sync(0xffffffffu, mine, src, width);
  out[g] = *reinterpret_cast<const double*>(theirs);
}

}  // namespace wb::shuffle
