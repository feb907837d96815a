// Book 5.5: the access pattern constant memory is bad at. Lane l reads the
// word l mod distinct further on than the broadcast does, so at every read a
// warp asks for min(distinct, 32) different words, and the constant cache
// serves them one after another: distinct passes instead of one.
#include "constant/constant.cuh"

namespace wb::constant {

__global__ void constantScattered(int* out, unsigned int n, unsigned int start,
                                  unsigned int distinct) {
  const unsigned int g = blockIdx.x * kLookupBlock + threadIdx.x;
  if (g >= n) return;  // no barrier below
  const unsigned int spread = (threadIdx.x % kWarpLanes) % distinct;
  int sum = 0;
  for (unsigned int r = 0; r < kLookupReads; ++r) {
    sum += wbLookupTable[(start + r + spread) % kLookupWords];
  }
  out[g] = sum;
}

}  // namespace wb::constant
