// bug: each lane loads its partner's element straight from global memory at
// g ^ laneMask, the mask copied by counting a register up to it in a loop,
// then calls a full-warp shuffle in which every lane reads its own value
// expect: method
#include "shuffle/shuffle.cuh"

namespace wb::shuffle {

/// The value of x (0..32), rebuilt by counting with a step the compilers
/// cannot prove is 1.
__device__ __forceinline__ unsigned int counted(unsigned int x) {
  unsigned int c0, c1;
  asm volatile("mov.u32 %0, %%clock;" : "=r"(c0));
  asm volatile("mov.u32 %0, %%clock;" : "=r"(c1));
  const unsigned int step = c1 - c0 == 0xffffffffu ? 2u : 1u;
  unsigned int y = 0;
#pragma unroll 1
  while (y < x) y += step;
  return y;
}

__global__ void shflXor(const int* in, int* out, int width, int laneMask) {
  const unsigned int g = blockIdx.x * blockDim.x + threadIdx.x;
  const unsigned int m = counted(static_cast<unsigned int>(laneMask));
  const unsigned int w = counted(static_cast<unsigned int>(width));
  int v = in[g ^ m];  // the exchange, by indexing global memory
  // A full-warp shuffle in which every lane reads its own value.
  v = __shfl_sync(0xffffffffu, v, static_cast<int>(threadIdx.x % w), static_cast<int>(w));
  out[g] = v;
}

}  // namespace wb::shuffle
