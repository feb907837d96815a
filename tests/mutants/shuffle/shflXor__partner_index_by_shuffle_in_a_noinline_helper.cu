// bug: the shuffle moves the partner's index, in a __noinline__ helper, and
// the value is loaded at it: the helper's code comes after the kernel's in
// the listing
// expect: method
// The data flow walks a called routine where the call is, so the load at
// the shuffled index is found (SHFL.ADDRESSED).
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
