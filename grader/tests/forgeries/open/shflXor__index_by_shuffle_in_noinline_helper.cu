// forgery: The partner's index moved by a shuffle and the value loaded at it (what "no SHFL.ADDRESSED" rejects), with the shuffle in a __noinline__ function: wbcore/sass.kernels() appends the callee's code after the kernel's, and shuffle_addressed() makes one pass in program order, so the SHFL's taint starts after the kernel's LDG and never reaches it. (Its SHFL; RET shape also makes compiler_copies() skip it; the lane's own value shuffled to itself supplies "needs SHFL" and one executed shuffle per warp.)
// exercise: shuffle/shflXor
// base: solutions
// expect: zero method
#include "shuffle/shuffle.cuh"

namespace wb::shuffle {
namespace {

__device__ __noinline__ unsigned int partnerOf(unsigned int g, int laneMask, int width) {
  return __shfl_xor_sync(0xffffffffu, g, laneMask, width);
}

}  // namespace

__global__ void shflXor(const int* in, int* out, int width, int laneMask) {
  const unsigned int g = blockIdx.x * blockDim.x + threadIdx.x;
  int v = in[partnerOf(g, laneMask, width)];
  v = __shfl_sync(0xffffffffu, v, static_cast<int>(threadIdx.x % warpSize), width);
  out[g] = v;
}

}  // namespace wb::shuffle
