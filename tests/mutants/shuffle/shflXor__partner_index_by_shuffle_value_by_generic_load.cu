// bug: the shuffle moves the partner's index, and the partner's value is then
// read from global memory through a pointer whose memory the compiler cannot
// tell (a generic LD, not an LDG): the right output, no value moved by shuffle
// expect: method
#include "shuffle/shuffle.cuh"

namespace wb::shuffle {

__device__ __forceinline__ const int* launder(const int* p) {
  const int* q;
  asm("mov.b64 %0, %1;" : "=l"(q) : "l"(p));
  return q;
}

__global__ void shflXor(const int* in, int* out, int width, int laneMask) {
  const unsigned int g = blockIdx.x * blockDim.x + threadIdx.x;
  const unsigned int partner = __shfl_xor_sync(0xffffffffu, g, laneMask, width);
  out[g] = launder(in)[partner];
}

}  // namespace wb::shuffle
