// bug: the shuffle moves the partner's index, and the kernel rebuilds it bit
// by bit under branches (no arithmetic on the shuffled value reaches the
// address) before loading the partner's value at it: the right output, and
// no value moved by the shuffle
// expect: method
#include "shuffle/shuffle.cuh"

namespace wb::shuffle {

__global__ void shflXor(const int* in, int* out, int width, int laneMask) {
  const unsigned int g = blockIdx.x * blockDim.x + threadIdx.x;
  const unsigned int partner = __shfl_xor_sync(0xffffffffu, g, laneMask, width);
  unsigned int rebuilt = g & ~31u;
#pragma unroll 1
  for (unsigned int bit = 1; bit < 32; bit <<= 1) {
    if (partner & bit) {
      rebuilt += bit;
      asm volatile("" ::: "memory");  // keeps the branch a branch
    }
  }
  out[g] = in[rebuilt];
}

}  // namespace wb::shuffle
