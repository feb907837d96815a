// bug: each lane walks the same 64 words in its own order (lane l starts at
// read l), so the sums are right but at every read the lanes of a warp ask
// for 32 different words: the broadcast is gone and the reads serialise
// expect: profile
// Book 5.5: the access pattern constant memory is made for. At every read
// all 32 lanes of a warp ask for the same word of the table, and the
// constant cache answers the whole warp at once (a broadcast).
#include "constant/constant.cuh"

namespace wb::constant {

__global__ void constantBroadcast(int* out, unsigned int n, unsigned int start) {
  const unsigned int g = blockIdx.x * kLookupBlock + threadIdx.x;
  if (g >= n) return;  // no barrier below
  int sum = 0;
  for (unsigned int r = 0; r < kLookupReads; ++r) {
    // start is a launch parameter, so the index is known only at run time
    // and the read is a real indexed load from constant memory.
    const unsigned int rotated = (r + threadIdx.x % kWarpLanes) % kLookupReads;
    sum += wbLookupTable[(start + rotated) % kLookupWords];
  }
  out[g] = sum;
}

}  // namespace wb::constant
