// bug: the partner's value is loaded from global memory at g ^ laneMask, and the
// one shuffle is issued under a predicate that is false in every lane
// expect: method
#include "shuffle/shuffle.cuh"

namespace wb::shuffle {

__global__ void shflXor(const int* in, int* out, int width, int laneMask) {
  const unsigned int g = blockIdx.x * blockDim.x + threadIdx.x;
  int value = in[g ^ static_cast<unsigned int>(laneMask)];
  asm volatile(
      "{\n\t"
      ".reg .pred p;\n\t"
      "setp.ge.s32 p, %1, 32;\n\t"
      "@p shfl.sync.bfly.b32 %0, %0, %1, 0x1f, 0xffffffff;\n\t"
      "}"
      : "+r"(value)
      : "r"(laneMask));
  out[g] = value;
}

}  // namespace wb::shuffle
