// bug: the shuffle moves the partner's index, and an atomic OR with 0 at
// that index reads the partner's value (an atomic is a load too): the right
// output, and no value moved by the shuffle
// expect: method
#include "shuffle/shuffle.cuh"

namespace wb::shuffle {

__global__ void shflXor(const int* in, int* out, int width, int laneMask) {
  const unsigned int g = blockIdx.x * blockDim.x + threadIdx.x;
  const unsigned int partner = __shfl_xor_sync(0xffffffffu, g, laneMask, width);
  out[g] = atomicOr(const_cast<int*>(in) + partner, 0);
}

}  // namespace wb::shuffle
