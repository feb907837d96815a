// bug: copies the lookup table into shared memory and reads it from there:
// the right sums, but the constant cache this exercise measures is not used
// expect: method
// Staging a read-only table in shared memory is a common habit, and for
// scattered reads it is often the faster choice; but this kernel exists to
// show how the constant cache serialises distinct words. Read from the copy,
// the lookups are shared-memory loads, and the serialisation the profile
// test counts never happens.
#include "constant/constant.cuh"

namespace wb::constant {

__global__ void constantScattered(int* out, unsigned int n, unsigned int start,
                                  unsigned int distinct) {
  __shared__ int table[kLookupWords];
  for (unsigned int w = threadIdx.x; w < kLookupWords; w += kLookupBlock) {
    table[w] = wbLookupTable[w];
  }
  __syncthreads();
  const unsigned int g = blockIdx.x * kLookupBlock + threadIdx.x;
  if (g >= n) return;  // after the barrier
  const unsigned int spread = (threadIdx.x % kWarpLanes) % distinct;
  int sum = 0;
  for (unsigned int r = 0; r < kLookupReads; ++r) {
    sum += table[(start + r + spread) % kLookupWords];
  }
  out[g] = sum;
}

}  // namespace wb::constant
