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
    sum += wbLookupTable[(start + r) % kLookupWords];
  }
  out[g] = sum;
}

}  // namespace wb::constant
