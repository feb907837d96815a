// bug: each lane loads the element delta lanes below it straight from global memory,
// at an address from delta and width copied by counting a register up to
// each in a loop (only the loop's exit test reads the parameter), then calls a
// full-warp shuffle in which every lane reads its own value: nothing is moved
// by the shuffle
// expect: method
// A register counted up from 0 until it equals the parameter holds the
// parameter's value, though every write to it is `y + 1` from a clean y:
// only the loop's exit predicate reads the parameter. PARAM.ADDRESSED
// (wbcore/sass.py parameter_addressed) follows the branch taken on that
// predicate, so the copy is the parameter's.
#include "shuffle/shuffle.cuh"

namespace wb::shuffle {

/// The value of x, rebuilt by counting.
__device__ __forceinline__ unsigned int counted(unsigned int x) {
  // A step of 1 that the compilers cannot prove is 1 (a clock reading
  // compared with itself), so neither computes the loop's exit value.
  unsigned int c0, c1;
  asm volatile("mov.u32 %0, %%clock;" : "=r"(c0));
  asm volatile("mov.u32 %0, %%clock;" : "=r"(c1));
  const unsigned int step = c1 - c0 == 0xffffffffu ? 2u : 1u;
  unsigned int y = 0;
  // One step per trip, not unrolled: the unrolled remainder would be
  // predicated on the parameter, and a predicated write is followed.
#pragma unroll 1
  while (y < x) y += step;
  return y;
}

__global__ void shflUp(const int* in, int* out, int width, unsigned int delta) {
  const unsigned int g = blockIdx.x * blockDim.x + threadIdx.x;
  const unsigned int w = counted(static_cast<unsigned int>(width));
  const unsigned int d = counted(delta);
  const unsigned int position = (threadIdx.x % 32u) % w;
  // The exchange, done by indexing global memory.
  int v = in[position >= d ? g - d : g];
  // A full-warp shuffle in which every lane reads its own value.
  v = __shfl_sync(0xffffffffu, v, static_cast<int>(position), static_cast<int>(w));
  out[g] = v;
}

}  // namespace wb::shuffle
