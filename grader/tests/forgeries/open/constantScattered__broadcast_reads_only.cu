// forgery: no scattered read: the warp walks the window of words its lanes need
// (start .. start + kLookupReads + distinct - 2) with the same word in every lane at
// every read, a broadcast, and each lane adds the words that fall in its own run of
// kLookupReads; the right sums, "needs CONST" and "no LDS" hold, and the constant
// cache never serialises the distinct words this exercise is about
// exercise: constant/constantScattered
// base: solutions
// expect: zero method
#include "constant/constant.cuh"

namespace wb::constant {

__global__ void constantScattered(int* out, unsigned int n, unsigned int start,
                                  unsigned int distinct) {
  const unsigned int g = blockIdx.x * kLookupBlock + threadIdx.x;
  if (g >= n) return;  // no barrier below
  const unsigned int spread = (threadIdx.x % kWarpLanes) % distinct;
  int sum = 0;
  for (unsigned int w = 0; w + 1 < kLookupReads + distinct; ++w) {
    const int word = wbLookupTable[(start + w) % kLookupWords];  // the same in every lane
    if (w >= spread && w < spread + kLookupReads) sum += word;
  }
  out[g] = sum;
}

}  // namespace wb::constant
